"""Two server processes, many parallel writers, one database: nothing lost, nothing doubled,
no 500 (issue 7)."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Sequence
from typing import Any

import httpx2

from tests.processes.conftest import AUTH, Server

NS = "/cal/events/v1"
EVENT = {
    "start_date": "2027-03-05 19:00:00",
    "end_date": "2027-03-05 22:00:00",
    "status": "publish",
}


async def _requests(
    servers: list[Server], calls: Sequence[tuple[str, str, dict[str, Any] | None, dict[str, str]]]
) -> list[httpx2.Response]:
    """Send the calls at once, alternating between the servers."""
    clients = [httpx2.AsyncClient(base_url=s.base, timeout=60) for s in servers]
    try:
        pairs = zip(itertools.cycle(clients), calls, strict=False)
        return list(
            await asyncio.gather(
                *(
                    client.request(method, path, json=body, headers={**AUTH, **headers})
                    for client, (method, path, body, headers) in pairs
                )
            )
        )
    finally:
        for client in clients:
            await client.aclose()


def send(
    servers: list[Server], calls: Sequence[tuple[str, str, dict[str, Any] | None, dict[str, str]]]
) -> list[httpx2.Response]:
    return asyncio.run(_requests(servers, calls))


def test_simultaneous_creates_of_one_title_get_distinct_slugs_and_right_counts(
    two_servers: list[Server],
) -> None:
    body = {"title": "Harbour Night", **EVENT, "categories": ["Music"], "tags": ["harbour"]}
    send(two_servers, [("POST", f"{NS}/categories", {"name": "Music"}, {})])
    responses = send(two_servers, [("POST", f"{NS}/events", body, {})] * 24)
    assert [r.status_code for r in responses] == [201] * 24, [r.text for r in responses][:3]
    slugs = [r.json()["slug"] for r in responses]
    assert len(set(slugs)) == 24
    assert "harbour-night" in slugs
    (listing,) = send(two_servers, [("GET", f"{NS}/events?per_page=50", None, {})])
    assert listing.json()["total"] == 24
    (categories,) = send(two_servers, [("GET", f"{NS}/categories", None, {})])
    assert [(c["name"], c["count"]) for c in categories.json()["categories"]] == [("Music", 24)]
    (tags,) = send(two_servers, [("GET", f"{NS}/tags", None, {})])
    assert [(t["name"], t["count"]) for t in tags.json()["tags"]] == [("harbour", 24)]


def test_of_simultaneous_writes_with_one_if_match_exactly_one_wins(
    two_servers: list[Server],
) -> None:
    (created,) = send(two_servers, [("POST", f"{NS}/events", {"title": "Start", **EVENT}, {})])
    event = created.json()["id"]
    tag = created.headers["etag"]
    calls = [
        ("PATCH", f"{NS}/events/{event}", {"title": f"Writer {i}"}, {"If-Match": tag})
        for i in range(16)
    ]
    responses = send(two_servers, calls)
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [200] + [412] * 15, [r.text for r in responses if r.status_code >= 500]
    (winner,) = [r for r in responses if r.status_code == 200]
    (final,) = send(two_servers, [("GET", f"{NS}/events/{event}", None, {})])
    assert final.json()["title"] == winner.json()["title"]


def test_writers_that_retry_on_412_lose_nothing(two_servers: list[Server]) -> None:
    (created,) = send(two_servers, [("POST", f"{NS}/venues", {"venue": "Hall"}, {})])
    venue = created.json()["id"]
    writers = 12

    async def writer(client: httpx2.AsyncClient, token: str) -> int:
        attempts = 0
        while True:
            attempts += 1
            current = await client.get(f"{NS}/venues/{venue}", headers=AUTH)
            address = current.json().get("address", "")
            update = await client.patch(
                f"{NS}/venues/{venue}",
                json={"address": f"{address} {token}".strip()},
                headers={**AUTH, "If-Match": current.headers["etag"]},
            )
            if update.status_code == 200:
                return attempts
            assert update.status_code == 412, update.text

    async def run() -> list[int]:
        clients = [httpx2.AsyncClient(base_url=s.base, timeout=60) for s in two_servers]
        try:
            return list(
                await asyncio.gather(*(writer(clients[i % 2], f"t{i}") for i in range(writers)))
            )
        finally:
            for client in clients:
                await client.aclose()

    attempts = asyncio.run(run())
    (final,) = send(two_servers, [("GET", f"{NS}/venues/{venue}", None, {})])
    tokens = final.json()["address"].split()
    assert sorted(tokens) == sorted(f"t{i}" for i in range(writers))
    assert sum(attempts) > writers  # there were conflicts, and they were retried

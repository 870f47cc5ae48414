"""A server killed in the middle of writes (issue 7): every item that exists is whole — with
its venue, organizer, terms and translation — and counts agree with the links."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Any

import httpx2
import pytest
import sqlalchemy as sa

from eventcal.storage import migrate
from eventcal.storage.db import create_database
from eventcal.storage.tables import (
    CATEGORY_TAXONOMY,
    TAG_TAXONOMY,
    event,
    event_organizer,
    event_term,
    post,
    term,
    translation,
    venue,
)
from tests.faults.conftest import PrivatePostgres
from tests.processes.conftest import AUTH, Server, prepare, start_server

NS = "/cal/events/v1"
WRITES = 80


def body(i: int, organizer: int, categories: list[int]) -> dict[str, Any]:
    return {
        "title": f"Nacht {i}",
        "description": f"Beschreibung {i}",
        "start_date": "2027-03-05 19:00:00",
        "end_date": "2027-03-05 22:00:00",
        "status": "publish",
        "venue": {"venue": f"Halle {i}", "city": "Hamburg"},
        "organizer": [organizer],
        "categories": categories,
        "tags": [f"tag-{i}-a", f"tag-{i}-b"],
    }


async def write_until_killed(server: Server) -> int:
    """Start many creates at once; kill the server (every process, SIGKILL) once some have
    been answered. Returns how many were answered 201."""
    async with httpx2.AsyncClient(base_url=server.base, timeout=60, headers=AUTH) as client:
        organizer = (await client.post(f"{NS}/organizers", json={"organizer": "Crew"})).json()
        categories = [
            (await client.post(f"{NS}/categories", json={"name": name})).json()["id"]
            for name in ("Music", "Night")
        ]
        answered = 0
        some_done = asyncio.Event()

        async def create(i: int) -> int:
            nonlocal answered
            try:
                response = await client.post(
                    f"{NS}/events?translation_language=de",
                    json=body(i, organizer["id"], categories),
                )
            except httpx2.TransportError:
                return 0
            answered += 1
            if answered >= 10:
                some_done.set()
            assert response.status_code == 201, response.text
            return 1

        tasks = [asyncio.create_task(create(i)) for i in range(WRITES)]
        await asyncio.wait_for(some_done.wait(), 60)
        server.stop(signal.SIGKILL)
        return sum(await asyncio.gather(*tasks))


async def check_whole(database_url: str, created: int) -> int:
    db = create_database(database_url)
    await db.startup()
    try:
        async with db.read() as conn:
            events = await conn.all(sa.select(event.c.id, event.c.venue_id))
            ids = [int(e["id"]) for e in events]
            assert len(ids) >= created
            assert all(e["venue_id"] is not None for e in events)
            venues = await conn.scalar(sa.select(sa.func.count()).select_from(venue))
            assert venues == len(ids)
            for event_id in ids:
                organizers = await conn.scalar(
                    sa.select(sa.func.count())
                    .select_from(event_organizer)
                    .where(event_organizer.c.event_id == event_id)
                )
                links = await conn.all(
                    sa.select(term.c.taxonomy)
                    .join(event_term, event_term.c.term_id == term.c.id)
                    .where(event_term.c.event_id == event_id)
                )
                texts = await conn.scalar(
                    sa.select(sa.func.count())
                    .select_from(translation)
                    .where(translation.c.item_id == event_id, translation.c.kind == "event")
                )
                taxonomies = sorted(str(link["taxonomy"]) for link in links)
                assert organizers == 1, event_id
                assert taxonomies == sorted([CATEGORY_TAXONOMY] * 2 + [TAG_TAXONOMY] * 2), event_id
                assert texts == 2, event_id  # the German title and description
            registered = await conn.scalar(
                sa.select(sa.func.count()).select_from(post).where(post.c.type == "event")
            )
            assert registered == len(ids)
            counts = await conn.all(sa.select(term.c.id, term.c.taxonomy, term.c.count))
            for row in counts:
                linked = await conn.scalar(
                    sa.select(sa.func.count())
                    .select_from(event_term)
                    .where(event_term.c.term_id == row["id"])
                )
                assert row["count"] == linked, row
            tags = [r for r in counts if r["taxonomy"] == TAG_TAXONOMY]
            assert len(tags) == 2 * len(ids)
            return len(ids)
    finally:
        await db.shutdown()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_killed_server_leaves_only_whole_items(
    backend: str,
    private_postgres: PrivatePostgres,
    password_hash: str,
    tmp_path: Path,
) -> None:
    if backend == "sqlite":
        url = f"sqlite:///{tmp_path / 'killed.db'}"
        migrate.upgrade(url)
    else:
        url = private_postgres.url
    prepare(url, password_hash)
    server = start_server(url, tmp_path / "server.log")
    created = asyncio.run(write_until_killed(server))
    assert created >= 10
    restarted = start_server(url, tmp_path / "again.log")
    try:
        existing = asyncio.run(check_whole(url, created))
        print(f"{backend}: {created} creates answered, {existing} events exist of {WRITES} sent")
        assert created <= existing <= WRITES
        with httpx2.Client(base_url=restarted.base, headers=AUTH) as client:
            assert client.get(f"{NS}/events?per_page=100").json()["total"] == existing
    finally:
        restarted.stop()

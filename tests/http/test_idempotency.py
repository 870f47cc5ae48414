"""Idempotency-Key (issue 14, item 7; IETF httpapi draft): the first successful response to a
write is stored with the write and replayed to retries of the same request; the key cannot be
reused for another request; a retry after a COMMIT cut short writes once, never twice."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import asyncpg
import httpx2
import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from eventcal.app import create_app
from eventcal.config import Settings
from eventcal.storage import idempotency
from eventcal.storage.db import postgres_dsn
from tests import factories
from tests.conftest import NS, Api, Clock
from tests.http.helpers import NEW_EVENT, assert_error, version
from tests.storage.pg_proxy import FaultyProxy, faulty_proxy

KEY = {"Idempotency-Key": '"8e03978e-40d5-43e8-bc93-6894a57f9324"'}
ALL = f"{NS}/events"


def stored_keys(api: Api) -> int:
    async def count() -> int:
        async with api.database.read() as conn:
            return int(await conn.scalar(sa.text("SELECT count(*) FROM idempotency_key")))

    return api.run(count)


def test_a_retried_create_is_replayed_not_repeated(api: Api) -> None:
    first = api.post(f"{NS}/events", json=NEW_EVENT, headers=KEY)
    assert first.status_code == 201
    assert "idempotent-replayed" not in first.headers
    before = version(api)
    again = api.post(f"{NS}/events", json=NEW_EVENT, headers=KEY)
    assert again.status_code == 201
    assert again.headers["idempotent-replayed"] == "true"
    assert again.content == first.content
    assert again.headers["etag"] == first.headers["etag"]
    assert version(api) == before  # nothing written, not even a version bump
    assert api.get(ALL).json()["total"] == 1


def test_the_same_key_for_another_request_is_422(api: Api) -> None:
    assert api.post(f"{NS}/events", json=NEW_EVENT, headers=KEY).status_code == 201
    changes: list[tuple[str, dict[str, Any]]] = [
        (f"{NS}/events", {"json": {**NEW_EVENT, "title": "Other"}}),
        (f"{NS}/venues", {"json": NEW_EVENT}),
        (f"{NS}/events?status=draft", {"json": NEW_EVENT}),
        (f"{NS}/events", {"data": {**NEW_EVENT, "title": "Other"}}),
    ]
    for path, changed in changes:
        response = api.post(path, headers=KEY, **changed)
        body = assert_error(response, 422, "rest_idempotency_key_reused")
        assert "different request" in body["message"]
    assert api.get(ALL).json()["total"] == 1


def test_the_same_request_encoded_anew_is_replayed(api: Api) -> None:
    """Requests are compared by what they say, not their bytes: a retried multipart form
    has a new boundary, a JSON body may come re-encoded."""
    fields = {name: (None, value) for name, value in NEW_EVENT.items()}
    first = api.post(f"{NS}/events", files=fields, headers=KEY)
    assert first.status_code == 201, first.text
    again = api.post(f"{NS}/events", files=fields, headers=KEY)  # another boundary
    assert again.headers["idempotent-replayed"] == "true"
    reordered = dict(reversed(list(NEW_EVENT.items())))
    as_json = api.post(f"{NS}/events", json=reordered, headers=KEY)
    assert as_json.headers["idempotent-replayed"] == "true"
    assert api.get(ALL).json()["total"] == 1


def test_keys_belong_to_their_caller(api: Api) -> None:
    assert api.post(f"{NS}/events", json=NEW_EVENT, headers=KEY).status_code == 201
    other = api.post(f"{NS}/events", json=NEW_EVENT, headers=KEY, as_="editor")
    assert other.status_code == 201
    assert "idempotent-replayed" not in other.headers
    assert api.get(ALL).json()["total"] == 2


def test_errors_are_not_stored_so_a_corrected_retry_runs(api: Api) -> None:
    refused = api.post(f"{NS}/events", json={"title": "No dates"}, headers=KEY)
    assert refused.status_code == 400
    assert stored_keys(api) == 0
    retried = api.post(f"{NS}/events", json={"title": "No dates"}, headers=KEY)
    assert retried.status_code == 400
    assert "idempotent-replayed" not in retried.headers


def test_every_write_method_is_replayed(api: Api) -> None:
    event = api.run(lambda: factories.make_event(api.database, "Existing"))
    for method in ("PUT", "PATCH", "DELETE"):
        key = {"Idempotency-Key": f"key-{method}"}
        body = {"title": f"By {method}"} if method != "DELETE" else {}
        first = api.request(
            method, f"{NS}/events/{event}", as_="administrator", json=body, headers=key
        )
        again = api.request(
            method, f"{NS}/events/{event}", as_="administrator", json=body, headers=key
        )
        assert first.status_code == 200, first.text
        assert (again.status_code, again.content) == (first.status_code, first.content)
        assert again.headers["idempotent-replayed"] == "true"


def test_reads_and_anonymous_callers_ignore_the_key(api: Api) -> None:
    assert "idempotent-replayed" not in api.get(f"{NS}/events", headers=KEY).headers
    anonymous = api.post(f"{NS}/events", json=NEW_EVENT, headers=KEY, as_=None)
    assert anonymous.status_code == 401
    assert stored_keys(api) == 0


@pytest.mark.parametrize("key", ["", '""', "x" * 256, "naïve", "tab\there"])
def test_a_malformed_key_is_400(api: Api, key: str) -> None:
    response = api.post(f"{NS}/events", json=NEW_EVENT, headers={"Idempotency-Key": key.encode()})
    assert_error(response, 400, "rest_invalid_idempotency_key")
    assert api.get(ALL).json()["total"] == 0


def test_keys_expire_and_are_purged(api: Api, clock: Clock) -> None:
    assert api.post(f"{NS}/events", json=NEW_EVENT, headers=KEY).status_code == 201
    clock.now += timedelta(hours=24, seconds=1)
    again = api.post(f"{NS}/events", json=NEW_EVENT, headers=KEY)
    assert again.status_code == 201
    assert "idempotent-replayed" not in again.headers  # expired: a new request
    assert stored_keys(api) == 1  # the expired response gave way to the new one

    async def purge() -> int:
        async with api.database.transaction(versioned=False) as conn:
            return await idempotency.purge(conn, clock.now + timedelta(hours=25))

    assert api.run(purge) == 1
    assert stored_keys(api) == 0


def test_a_request_still_in_flight_is_409(api: Api, settings: Settings) -> None:
    """Another transaction holds the key (PostgreSQL: its advisory lock)."""
    if settings.is_sqlite:
        pytest.skip("SQLite writers of one database run one at a time: never in flight")
    user = api.user("administrator")

    async def hold_and_post() -> Any:
        holder = await asyncpg.connect(postgres_dsn(settings.database_url))
        try:
            async with holder.transaction():
                await holder.execute(
                    "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
                    f"idempotency:{user}:8e03978e-40d5-43e8-bc93-6894a57f9324",
                )
                return await asyncio.to_thread(
                    api.client.post,
                    f"{NS}/events",
                    json=NEW_EVENT,
                    headers={**KEY, **api.auth("administrator")},
                )
        finally:
            await holder.close()

    response = asyncio.run(hold_and_post())
    assert_error(response, 409, "rest_idempotency_key_in_flight")
    assert response.headers["retry-after"]
    assert api.post(f"{NS}/events", json=NEW_EVENT, headers=KEY).status_code == 201


@pytest.fixture
def proxied(settings: Settings, password_hash: str) -> Iterator[tuple[Api, FaultyProxy]]:
    if settings.is_sqlite:
        pytest.skip("PostgreSQL only")
    with faulty_proxy(settings.database_url) as proxy:
        app = create_app(settings.with_overrides(database_url=proxy.url))
        with TestClient(app, base_url="http://127.0.0.1") as client:
            api = Api(client, app.state.runtime.database, password_hash)
            api.run(lambda: factories.empty_database(api.database))
            yield api, proxy


@pytest.mark.parametrize("cut", ["before", "after"])
def test_a_retry_after_a_commit_cut_short_writes_once(
    proxied: tuple[Api, FaultyProxy], cut: str
) -> None:
    api, proxy = proxied
    assert api.get(ALL, as_="administrator").json()["total"] == 0  # logged in
    proxy.cut_commit = cut
    lost = api.post(f"{NS}/events", json=NEW_EVENT, headers=KEY)
    assert_error(lost, 503, "db_commit_unknown")
    retry = api.post(f"{NS}/events", json=NEW_EVENT, headers=KEY)
    assert retry.status_code == 201, retry.text
    assert ("idempotent-replayed" in retry.headers) == (cut == "after")
    assert api.get(ALL, as_="administrator").json()["total"] == 1


def test_writers_sharing_a_commit_keep_their_own_keys(api: Api, settings: Settings) -> None:
    """SQLite group commit: each request's stored response is inside its own savepoint, so a
    member that fails leaves no key behind and the others keep theirs."""
    if not settings.is_sqlite:
        pytest.skip("group commit is SQLite's")
    app = api.client.app
    auth = api.auth("administrator")
    api.get(f"{NS}/events", as_="administrator")  # logged in: its bookkeeping is done

    async def burst() -> tuple[list[Any], int]:
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            commits = api.database.commits  # type: ignore[attr-defined]
            requests = [
                client.post(
                    f"{NS}/events",
                    json={**NEW_EVENT, "title": f"E{i}"} if i != 2 else {"title": "no dates"},
                    headers={**auth, "Idempotency-Key": f"burst-{i}"},
                )
                for i in range(5)
            ]
            responses = await asyncio.gather(*requests)
            return list(responses), api.database.commits - commits  # type: ignore[attr-defined]

    responses, commits = api.run(burst)
    assert [r.status_code for r in responses] == [201, 201, 400, 201, 201]
    assert commits < 4  # some of them shared a COMMIT
    assert stored_keys(api) == 4
    for i, first in enumerate(responses):
        if i == 2:
            continue
        again = api.post(
            f"{NS}/events",
            json={**NEW_EVENT, "title": f"E{i}"},
            headers={"Idempotency-Key": f"burst-{i}"},
        )
        assert again.headers["idempotent-replayed"] == "true"
        assert again.json()["id"] == first.json()["id"]

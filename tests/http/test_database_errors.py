"""Database faults as clients see them (issue 14, items 5 and 6): 503 with Retry-After, and
for a connection lost during COMMIT its own code, whose message does not claim that nothing
was written."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import asyncpg
import pytest
from starlette.testclient import TestClient

from eventcal.app import create_app
from eventcal.config import Settings
from eventcal.storage.db import postgres_dsn
from tests import factories
from tests.conftest import NS, Api
from tests.http.helpers import NEW_EVENT, assert_error
from tests.storage.pg_proxy import FaultyProxy, faulty_proxy

APP_NAME = "eventcal_fault_test"


@pytest.fixture
def proxied(settings: Settings, password_hash: str) -> Iterator[tuple[Api, FaultyProxy]]:
    """An app whose PostgreSQL connections go through a faulty proxy."""
    if settings.is_sqlite:
        pytest.skip("PostgreSQL only")
    with faulty_proxy(settings.database_url) as proxy:
        url = f"{proxy.url}&application_name={APP_NAME}"
        app = create_app(settings.with_overrides(database_url=url))
        with TestClient(app, base_url="http://127.0.0.1") as client:
            api = Api(client, app.state.runtime.database, password_hash)
            api.run(lambda: factories.empty_database(api.database))
            yield api, proxy


def count_events(api: Api) -> int:
    response = api.get(
        f"{NS}/events?status=publish,draft,pending,private,future", as_="administrator"
    )
    return int(response.json()["total"])


@pytest.mark.parametrize(("cut", "saved"), [("before", 0), ("after", 1)])
def test_a_commit_cut_short_is_503_db_commit_unknown(
    proxied: tuple[Api, FaultyProxy], cut: str, saved: int
) -> None:
    api, proxy = proxied
    assert count_events(api) == 0  # logged in: the login's own bookkeeping is committed
    proxy.cut_commit = cut
    response = api.post(f"{NS}/events", json=NEW_EVENT)
    body = assert_error(response, 503, "db_commit_unknown")
    assert "may or may not" in body["message"]
    assert response.headers["retry-after"]
    assert count_events(api) == saved


def test_connections_found_dead_at_their_first_statement_are_replaced(
    proxied: tuple[Api, FaultyProxy],
) -> None:
    """The server restarted (or ended the sessions) while the pool's connections sat idle,
    and the client has not read the close yet: the first statement of a read, or the BEGIN of
    a write, finds its connection dead. Nothing was sent, so it goes to a new connection: no
    503, and each write lands once."""
    api, proxy = proxied
    before = count_events(api)
    for _ in range(3):
        proxy.end_open_sessions()
        assert api.get(f"{NS}/events?status=draft", as_="administrator").status_code == 200
        proxy.end_open_sessions()
        response = api.post(f"{NS}/events", json=NEW_EVENT)
        assert response.status_code == 201, response.text[:300]
    assert count_events(api) == before + 3


def test_sessions_ended_between_requests_are_replaced(
    proxied: tuple[Api, FaultyProxy], settings: Settings
) -> None:
    api, _ = proxied
    api.user("administrator")

    async def end_sessions() -> None:
        conn = await asyncpg.connect(postgres_dsn(settings.database_url))
        try:
            await conn.execute(
                "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity "
                "WHERE application_name = $1",
                APP_NAME,
            )
        finally:
            await conn.close()

    for _ in range(4):
        asyncio.run(end_sessions())
        for method, status in (("GET", 200), ("POST", 201)):
            kwargs: dict[str, Any] = {"json": NEW_EVENT} if method == "POST" else {}
            response = api.request(method, f"{NS}/events", as_="administrator", **kwargs)
            assert response.status_code == status, response.text[:300]

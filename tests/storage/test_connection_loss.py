"""Connections that break and storage that fails (issue 14, items 5 and 6): every way a
connection can be lost, and a full disk, is :class:`DatabaseUnavailable` (503 with
Retry-After), never a driver error (500); a connection lost during ``COMMIT`` is
:class:`CommitOutcomeUnknown`, whichever way it went.

Faults are made on this test's own connections only: ``pg_terminate_backend`` of its own
sessions, and a proxy (``pg_proxy``) that cuts or refuses connections at exact moments."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import asyncpg
import pytest
import sqlalchemy as sa

from eventcal.config import Settings
from eventcal.storage.db import (
    CommitOutcomeUnknown,
    DatabaseUnavailable,
    UniqueViolation,
    data_version,
    postgres_dsn,
)
from eventcal.storage.postgres import PostgresDatabase
from tests.conftest import NS, Api
from tests.http.helpers import NEW_EVENT
from tests.storage.pg_proxy import FaultyProxy, faulty_proxy

PID = sa.text("SELECT pg_backend_pid()")
ONE = sa.text("SELECT 1")


@pytest.fixture
def postgres(database_url: str) -> str:
    if database_url.startswith("sqlite"):
        pytest.skip("PostgreSQL only")
    return database_url


@pytest.fixture
def proxy(postgres: str) -> Iterator[FaultyProxy]:
    with faulty_proxy(postgres) as running:
        yield running


async def terminate(url: str, pid: int) -> None:
    """End a session of ours and wait until it is gone."""
    killer = await asyncpg.connect(postgres_dsn(url))
    try:
        assert await killer.fetchval("SELECT pg_terminate_backend($1, 5000)", pid)
    finally:
        await killer.close()


async def version_of(url: str) -> int:
    db = PostgresDatabase(url)
    await db.startup()
    try:
        async with db.read() as conn:
            return await data_version(conn)
    finally:
        await db.shutdown()


async def end_own_session_then_query(db: PostgresDatabase, url: str) -> None:
    async with db.transaction() as conn:
        await terminate(url, await conn.scalar(PID))
        await conn.scalar(ONE)


def test_a_session_ended_inside_a_transaction_is_unavailable(postgres: str) -> None:
    """The rollback on the dead connection fails too; the first error is the one raised."""

    async def run() -> BaseException:
        db = PostgresDatabase(postgres)
        await db.startup()
        try:
            with pytest.raises(DatabaseUnavailable) as caught:
                await end_own_session_then_query(db, postgres)
            async with db.read() as conn:  # the pool recovers by itself
                assert await conn.scalar(ONE) == 1
            return caught.value
        finally:
            await db.shutdown()

    error = asyncio.run(run())
    assert not isinstance(error, CommitOutcomeUnknown)


def test_a_session_ended_before_the_commit_is_unavailable(postgres: str) -> None:
    """The last statement of a write (the data version) meets the dead connection."""

    async def run() -> None:
        db = PostgresDatabase(postgres)
        await db.startup()
        try:
            with pytest.raises(DatabaseUnavailable):
                async with db.transaction() as conn:
                    await terminate(postgres, await conn.scalar(PID))
        finally:
            await db.shutdown()

    before = asyncio.run(version_of(postgres))
    asyncio.run(run())
    assert asyncio.run(version_of(postgres)) == before


def test_a_server_starting_up_is_unavailable(proxy: FaultyProxy) -> None:
    """``CannotConnectNowError`` while the pool opens a new connection."""

    async def run() -> None:
        db = PostgresDatabase(proxy.url)
        await db.startup()
        try:
            async with db.read():  # the pool's one connection, busy
                proxy.refuse = 1
                with pytest.raises(DatabaseUnavailable, match="CannotConnectNow"):
                    async with db.read():
                        pass
        finally:
            await db.shutdown()

    asyncio.run(run())
    assert proxy.refuse == 0


@pytest.mark.parametrize(("cut", "saved"), [("before", False), ("after", True)])
def test_a_connection_lost_during_commit_has_an_unknown_outcome(
    proxy: FaultyProxy, postgres: str, cut: str, saved: bool
) -> None:
    async def run() -> None:
        db = PostgresDatabase(proxy.url)
        await db.startup()
        try:
            proxy.cut_commit = cut
            with pytest.raises(CommitOutcomeUnknown):
                async with db.transaction() as conn:
                    await conn.scalar(ONE)
            assert proxy.cuts == 1
        finally:
            await db.shutdown()

    before = asyncio.run(version_of(postgres))
    asyncio.run(run())
    assert asyncio.run(version_of(postgres)) == before + int(saved)


async def insert_twice_deferred(db: PostgresDatabase) -> None:
    async with db.transaction(versioned=False) as conn:
        raw = conn.raw  # type: ignore[attr-defined]
        await raw.execute("CREATE TEMP TABLE d (id INT UNIQUE DEFERRABLE INITIALLY DEFERRED)")
        await raw.execute("INSERT INTO d VALUES (1), (1)")


def test_a_failed_commit_that_is_not_a_lost_connection_is_not_unknown(postgres: str) -> None:
    """A deferred constraint refused at COMMIT: nothing was written, and that is known."""

    async def run() -> None:
        db = PostgresDatabase(postgres)
        await db.startup()
        try:
            with pytest.raises(UniqueViolation):
                await insert_twice_deferred(db)
        finally:
            await db.shutdown()

    asyncio.run(run())


def test_a_full_sqlite_database_is_unavailable(api: Api, settings: Settings) -> None:
    """SQLITE_FULL (a full disk; here the page limit of the write connection) is a 503,
    never a 500, and nothing of the request is kept."""
    if not settings.is_sqlite:
        pytest.skip("SQLite only")
    raw = api.database._write.raw  # type: ignore[attr-defined]
    raw.execute("VACUUM")  # no free pages left by earlier tests for the write to reuse
    pages = raw.execute("PRAGMA page_count").fetchone()[0]
    raw.execute(f"PRAGMA max_page_count = {pages}")
    try:
        event = {**NEW_EVENT, "description": "x" * 60_000}
        response = api.post(f"{NS}/events", json=event)
    finally:
        raw.execute("PRAGMA max_page_count = 4294967294")
    assert response.status_code == 503, response.text
    assert response.json()["code"] == "db_unavailable"
    assert response.headers["retry-after"]
    assert api.get(f"{NS}/events").json()["total"] == 0
    assert api.post(f"{NS}/events", json=NEW_EVENT).status_code == 201

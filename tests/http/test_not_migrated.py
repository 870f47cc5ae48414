"""A database whose schema does not fit the code, as the service sees it: PostgreSQL behind the
code is 503 ``db_not_migrated`` (on ``/readyz`` and on API requests, never 500), also when it was
unreachable at start and comes back unmigrated; a worker refuses to start on it; a newer schema
is served; the scheduler logs a problem once, not every round, and once when it is over.

Uses ``EVENTCAL_TEST_POSTGRES_UNMIGRATED_URL`` (skipped without it) for PostgreSQL."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from eventcal import app as app_module
from eventcal.app import create_app
from eventcal.collections import REGISTRY
from eventcal.config import Settings
from eventcal.resources import scheduling
from eventcal.storage import migrate
from eventcal.storage.db import create_database
from tests.conftest import NS, reset_postgres
from tests.http.helpers import assert_error
from tests.storage.pg_proxy import faulty_proxy

UNMIGRATED = os.environ.get("EVENTCAL_TEST_POSTGRES_UNMIGRATED_URL")
needs_unmigrated = pytest.mark.skipif(
    not UNMIGRATED, reason="EVENTCAL_TEST_POSTGRES_UNMIGRATED_URL is not set"
)
NEEDED = migrate.SCHEMA_REVISION


@pytest.fixture
def unmigrated() -> Iterator[str]:
    assert UNMIGRATED is not None
    reset_postgres(UNMIGRATED)
    yield UNMIGRATED
    reset_postgres(UNMIGRATED)


def start_up(settings: Settings) -> dict[str, object]:
    """The app's answer to ``lifespan.startup`` (a server's worker start-up)."""
    sent: list[dict[str, object]] = []

    async def receive() -> dict[str, object]:
        return {"type": "lifespan.startup"}

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    asyncio.run(create_app(settings)({"type": "lifespan"}, receive, send))  # type: ignore[arg-type]
    return sent[0]


def assert_not_migrated(response: object, current: str = "none") -> None:
    body = assert_error(response, 503, "db_not_migrated")
    assert f"revision {current}" in body["message"]
    assert NEEDED in body["message"]
    assert "eventcal migrate" in body["message"]
    assert response.headers["retry-after"]  # type: ignore[attr-defined]


@needs_unmigrated
def test_back_unmigrated_after_an_outage_at_start_is_503_db_not_migrated(
    unmigrated: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Before: /readyz said "database unavailable" and API requests were 500."""
    with faulty_proxy(unmigrated) as proxy:
        proxy.refuse = 1000  # the server is starting up: the app starts anyway
        app = create_app(Settings(database_url=proxy.url, public_url="http://127.0.0.1"))
        with TestClient(app, base_url="http://127.0.0.1") as client:
            assert_error(client.get("/readyz"), 503, "db_unavailable")
            proxy.refuse = 0
            assert_not_migrated(client.get("/readyz"))
            assert_not_migrated(client.get(f"{NS}/events"))
            german = client.get(f"{NS}/events", headers={"Accept-Language": "de"})
            assert "nicht migriert" in german.json()["message"]
            migrate.upgrade(unmigrated)  # the operator migrates: served at once
            assert client.get("/readyz").status_code == 200
            assert client.get(f"{NS}/events").status_code == 200
    assert "Traceback" not in caplog.text


@needs_unmigrated
def test_a_worker_does_not_start_on_an_unmigrated_postgres(
    unmigrated: str, caplog: pytest.LogCaptureFixture
) -> None:
    assert start_up(Settings(database_url=unmigrated))["type"] == "lifespan.startup.failed"
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r.getMessage() for r in failures] == [
        f"startup failed: database not migrated: at revision none, the code needs {NEEDED}; "
        "run `eventcal migrate`"
    ]
    assert failures[0].exc_info is None


@needs_unmigrated
def test_a_newer_postgres_schema_is_served_with_a_warning(
    unmigrated: str, caplog: pytest.LogCaptureFixture
) -> None:
    migrate.upgrade(unmigrated)

    async def bump() -> None:
        import asyncpg

        conn = await asyncpg.connect(unmigrated)
        await conn.execute("UPDATE alembic_version SET version_num = '9999'")
        await conn.close()

    asyncio.run(bump())
    with TestClient(create_app(Settings(database_url=unmigrated))) as client:
        assert client.get("/readyz").status_code == 200
    assert "newer than this code's" in caplog.text


def test_a_newer_embedded_schema_is_served(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    migrate.upgrade(f"sqlite:///{path}")
    raw = sqlite3.connect(path)
    with raw:
        raw.execute("UPDATE alembic_version SET version_num = '9999'")
    raw.close()
    with TestClient(create_app(Settings(database_url=f"sqlite:///{path}"))) as client:
        assert client.get("/readyz").status_code == 200
        assert client.get(f"{NS}/events").status_code == 200


def test_an_embedded_database_behind_the_code_stops_the_worker(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    migrate.upgrade(f"sqlite:///{path}", "0011")
    answer = start_up(Settings(f"sqlite:///{path}"))
    assert answer == {
        "type": "lifespan.startup.failed",
        "message": f"database not migrated: at revision 0011, the code needs {NEEDED}; "
        "run `eventcal migrate`",
    }


# --- the scheduler -------------------------------------------------------------------------


def scheduler_log(url: str, rounds_before: int, fix: object = None) -> list[logging.LogRecord]:
    """Run the scheduler for some rounds, ``fix()`` the database, run some more; its records."""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    async def scenario() -> None:
        db = create_database(url)
        task = asyncio.create_task(
            app_module._scheduler(db, REGISTRY, app_module.site_from(Settings()), now)
        )
        await asyncio.sleep(0.01 * rounds_before)
        if callable(fix):
            await asyncio.to_thread(fix)
            for _ in range(100):  # until it logs its recovery (or 5 s)
                if any("again" in r.getMessage() for r in records):
                    break
                await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)
        task.cancel()
        await db.shutdown()

    def now() -> datetime:
        return datetime.now(UTC)

    handler = Keep()
    logger = logging.getLogger("eventcal")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        asyncio.run(scenario())
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    return [r for r in records if r.name == "eventcal"]


@pytest.fixture
def fast_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scheduling, "INTERVAL_SECONDS", 0.01)


@needs_unmigrated
@pytest.mark.usefixtures("fast_rounds")
def test_the_scheduler_logs_a_problem_once_and_its_end_once(unmigrated: str) -> None:
    """Before: a traceback every round in every worker."""
    records = scheduler_log(unmigrated, 20, fix=lambda: migrate.upgrade(unmigrated))
    messages = [r.getMessage() for r in records]
    assert len(messages) == 2, messages
    assert messages[0].startswith("the scheduler cannot run (DatabaseNotMigrated: database not")
    assert not records[0].exc_info
    assert messages[1] == "the scheduler runs again"


@pytest.mark.usefixtures("fast_rounds")
def test_an_unexpected_scheduler_error_is_logged_once_with_its_traceback(
    tmp_path: Path,
) -> None:
    path = tmp_path / "no-schema.db"
    records = scheduler_log(f"sqlite:///{path}", 20)
    assert len(records) == 1
    assert records[0].exc_info is not None

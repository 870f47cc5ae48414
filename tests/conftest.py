"""Fixtures: a real database per backend (SQLite always, PostgreSQL when
``EVENTCAL_TEST_POSTGRES_URL`` is set), emptied before every test; an app with a frozen clock;
a client; users of every role."""

from __future__ import annotations

import base64
import os
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import pytest
from starlette.testclient import TestClient

from eventcal.app import create_app
from eventcal.config import Settings
from eventcal.domains.accounts.credentials import hash_password
from eventcal.storage import migrate
from eventcal.storage.db import Database, postgres_dsn
from tests import factories

pytest_plugins = ["tests.two_processes"]
"""Fixtures of two apps on one database (the freshness tests of the caches)."""

T = TypeVar("T")

RECORDED_NOW = datetime(2026, 11, 22, 4, 46, 0, tzinfo=UTC)
"""The moment the reference exchanges were recorded; tests run at that time by default."""

PASSWORD = "pass word 1234"
ROLES = ("administrator", "editor", "author", "contributor", "subscriber")


def _backends() -> list[Any]:
    backends: list[Any] = ["sqlite"]
    if os.environ.get("EVENTCAL_TEST_POSTGRES_URL"):
        backends.append(pytest.param("postgresql", marks=pytest.mark.postgres))
    return backends


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "postgres: runs against PostgreSQL")


@pytest.fixture(scope="session", params=_backends())
def database_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A migrated, empty database for the whole session."""
    if request.param == "sqlite":
        path: Path = tmp_path_factory.mktemp("db") / "eventcal.db"
        url = f"sqlite:///{path}"
    else:
        url = os.environ["EVENTCAL_TEST_POSTGRES_URL"]
        reset_postgres(url)
    migrate.upgrade(url)
    return url


def reset_postgres(url: str) -> None:
    """An empty ``public`` schema in the test database (whatever an earlier run left there)."""
    import asyncio

    import asyncpg

    async def reset() -> None:
        conn = await asyncpg.connect(postgres_dsn(url))
        try:
            await conn.execute("DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;")
        finally:
            await conn.close()

    asyncio.run(reset())


@pytest.fixture(scope="session")
def password_hash() -> str:
    return hash_password(PASSWORD)


class Clock:
    """A settable clock for the app."""

    def __init__(self, now: datetime = RECORDED_NOW) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def settings(database_url: str) -> Settings:
    # Failed logins are answered at once: tests stay fast (the delay has its own test).
    return Settings(
        database_url=database_url, public_url="http://127.0.0.1", login_failure_delay_ms=0
    )


class Api:
    """A test client bound to one app, with helpers for users and direct database work."""

    def __init__(self, client: TestClient, database: Database, password_hash: str) -> None:
        self.client = client
        self.database = database
        self.password_hash = password_hash
        self.users: dict[str, int] = {}

    def run(self, fn: Callable[[], Awaitable[T]]) -> T:
        """Run a coroutine function on the app's event loop."""
        return self.client.portal.call(fn)  # type: ignore[union-attr]

    def user(self, role: str, login: str | None = None) -> int:
        login = login or role
        if login not in self.users:
            self.users[login] = self.run(
                lambda: factories.add_user(self.database, login, role, self.password_hash)
            )
        return self.users[login]

    def auth(self, role_or_login: str | None) -> dict[str, str]:
        if role_or_login is None:
            return {}
        if role_or_login not in self.users:
            self.user(role_or_login)
        token = base64.b64encode(f"{role_or_login}:{PASSWORD}".encode()).decode()
        return {"Authorization": f"Basic {token}"}

    def get(self, path: str, *, as_: str | None = None, **kwargs: Any) -> Any:
        return self.client.get(
            path, headers={**self.auth(as_), **kwargs.pop("headers", {})}, **kwargs
        )

    def post(self, path: str, *, as_: str | None = "administrator", **kwargs: Any) -> Any:
        return self.client.post(
            path, headers={**self.auth(as_), **kwargs.pop("headers", {})}, **kwargs
        )

    def put(self, path: str, *, as_: str | None = "administrator", **kwargs: Any) -> Any:
        return self.client.put(
            path, headers={**self.auth(as_), **kwargs.pop("headers", {})}, **kwargs
        )

    def patch(self, path: str, *, as_: str | None = "administrator", **kwargs: Any) -> Any:
        return self.client.patch(
            path, headers={**self.auth(as_), **kwargs.pop("headers", {})}, **kwargs
        )

    def delete(self, path: str, *, as_: str | None = "administrator", **kwargs: Any) -> Any:
        return self.client.delete(
            path, headers={**self.auth(as_), **kwargs.pop("headers", {})}, **kwargs
        )

    def request(self, method: str, path: str, *, as_: str | None = None, **kwargs: Any) -> Any:
        return self.client.request(
            method, path, headers={**self.auth(as_), **kwargs.pop("headers", {})}, **kwargs
        )

    @property
    def statements(self) -> int:
        return self.database.statement_count


@pytest.fixture
def api(settings: Settings, clock: Clock, password_hash: str) -> Iterator[Api]:
    app = create_app(settings, clock=clock)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        runtime = app.state.runtime
        helper = Api(client, runtime.database, password_hash)
        helper.run(lambda: factories.empty_database(runtime.database))
        yield helper


NS = "/cal/events/v1"

"""The migrations build exactly the tables the code declares, and run both ways."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.ext.asyncio import create_async_engine

from eventcal.storage import migrate
from eventcal.storage.db import postgres_dsn
from eventcal.storage.tables import in_schema, metadata


def _differences(path: Path) -> list[Any]:
    engine = sa.create_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(
                connection, opts={"compare_type": True, "include_object": in_schema("sqlite")}
            )
            return list(compare_metadata(context, metadata))
    finally:
        engine.dispose()


def test_the_migrated_schema_is_the_declared_one(tmp_path: Path) -> None:
    path = tmp_path / "schema.db"
    migrate.upgrade(f"sqlite:///{path}")
    assert migrate.current_revision_sqlite(str(path)) == migrate.head_revision()
    assert _differences(path) == []


def test_the_revision_workers_require_is_the_newest_migration() -> None:
    """Workers compare the database with ``SCHEMA_REVISION`` without loading Alembic."""
    assert migrate.head_revision() == migrate.SCHEMA_REVISION
    code = "import sys, eventcal.app; print('alembic' in sys.modules)"
    loaded = subprocess.run(  # noqa: S603 (our own interpreter and code)
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert loaded == "False"


def test_every_migration_rolls_back_and_forward(tmp_path: Path) -> None:
    path = tmp_path / "schema.db"
    url = f"sqlite:///{path}"
    migrate.upgrade(url)
    migrate.downgrade(url, "0001")
    tables = {
        row[0]
        for row in sqlite3.connect(path).execute(
            "SELECT name FROM sqlite_master WHERE type='table'"
        )
    }
    assert "translation" not in tables
    assert "event" in tables
    migrate.downgrade(url, "base")
    migrate.upgrade(url)
    assert _differences(path) == []


def _revisions() -> list[str]:
    """Every revision, oldest first."""
    script = ScriptDirectory.from_config(migrate.alembic_config("sqlite:///:memory:"))
    return [rev.revision for rev in reversed(list(script.walk_revisions()))]


@pytest.fixture
def fresh_postgres() -> Iterator[str]:
    """A new, empty PostgreSQL database on the test server (dropped afterwards)."""
    url = os.environ.get("EVENTCAL_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("EVENTCAL_TEST_POSTGRES_URL is not set")
    name = f"eventcal_migrations_{os.getpid()}"

    async def admin(statement: str) -> None:
        conn = await asyncpg.connect(postgres_dsn(url))
        try:
            await conn.execute(statement)
        finally:
            await conn.close()

    asyncio.run(admin(f"DROP DATABASE IF EXISTS {name}"))
    asyncio.run(admin(f"CREATE DATABASE {name}"))
    try:
        yield url.rsplit("/", 1)[0] + "/" + name
    finally:
        asyncio.run(admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


def _postgres_differences(url: str) -> list[Any]:
    async def compare() -> list[Any]:
        engine = create_async_engine(migrate.sqlalchemy_url(url))
        try:
            async with engine.connect() as connection:
                return await connection.run_sync(
                    lambda sync: list(
                        compare_metadata(
                            MigrationContext.configure(
                                sync,
                                opts={
                                    "compare_type": True,
                                    "include_object": in_schema("postgresql"),
                                },
                            ),
                            metadata,
                        )
                    )
                )
        finally:
            await engine.dispose()

    return asyncio.run(compare())


def test_every_migration_steps_down_and_up_on_postgresql(fresh_postgres: str) -> None:
    revisions = _revisions()
    migrate.upgrade(fresh_postgres)
    assert _postgres_differences(fresh_postgres) == []
    for target in [*reversed(revisions[:-1]), "base"]:
        migrate.downgrade(fresh_postgres, target)
    for target in revisions:
        migrate.upgrade(fresh_postgres, target)
    assert _postgres_differences(fresh_postgres) == []


def test_every_migration_steps_down_and_up_on_sqlite(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'steps.db'}"
    revisions = _revisions()
    migrate.upgrade(url)
    for target in [*reversed(revisions[:-1]), "base"]:
        migrate.downgrade(url, target)
        assert migrate.current_revision_sqlite(str(tmp_path / "steps.db")) == (
            None if target == "base" else target
        )
    for target in revisions:
        migrate.upgrade(url, target)
    assert _differences(tmp_path / "steps.db") == []

"""The migrations build exactly the tables the code declares, and run both ways."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from eventcal.storage import migrate
from eventcal.storage.tables import metadata


def _differences(path: Path) -> list[Any]:
    engine = sa.create_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            return list(compare_metadata(context, metadata))
    finally:
        engine.dispose()


def test_the_migrated_schema_is_the_declared_one(tmp_path: Path) -> None:
    path = tmp_path / "schema.db"
    migrate.upgrade(f"sqlite:///{path}")
    assert migrate.current_revision_sqlite(str(path)) == migrate.head_revision()
    assert _differences(path) == []


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

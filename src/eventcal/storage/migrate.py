"""Apply, inspect and roll back migrations (Alembic) for either backend.

Alembic is imported only by the functions that need it: a server worker checks the schema
against :data:`SCHEMA_REVISION` and never loads Alembic and the migration scripts (~11 MB of
memory per worker).
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import TYPE_CHECKING

from eventcal.storage.db import DatabaseNotMigrated, postgres_dsn, sqlite_path

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).parent / "migrations"
SCHEMA_REVISION = "0021_create"
"""The schema revision this code needs: the newest migration (a test checks it is Alembic's
head, so a new migration cannot forget it)."""


log = logging.getLogger("eventcal.storage")

MIGRATION_LOCK = 0x6576656E7463616C
"""The PostgreSQL advisory lock ``eventcal migrate`` holds while it migrates ("eventcal")."""


def is_behind(current: str | None) -> bool:
    """The schema at ``current`` is older than the code needs (or absent, or unknown)."""
    if current == SCHEMA_REVISION:
        return False
    ours, theirs = _sequence(SCHEMA_REVISION), _sequence(current)
    # Same number, other id: not ours (another branch), so not known to fit.
    return theirs is None or ours is None or theirs <= ours


def _sequence(revision: str | None) -> int | None:
    """The number a revision id starts with (``0013_media`` → 13); None for none."""
    found = re.match(r"\d+", revision or "")
    return int(found.group()) if found else None


def require(current: str | None) -> None:
    """Refuse a schema older than the code (:class:`DatabaseNotMigrated`). A newer one is
    accepted with a warning: during a rolling upgrade the new code migrates the database while
    the old one still serves (migrations only add, docs/deployment.md)."""
    if is_behind(current):
        raise DatabaseNotMigrated(current, SCHEMA_REVISION)
    if current != SCHEMA_REVISION:
        log.warning(
            "the database is at revision %s, newer than this code's %s: serving it anyway "
            "(rolling upgrade)",
            current,
            SCHEMA_REVISION,
        )


def sqlalchemy_url(database_url: str) -> str:
    """The SQLAlchemy URL Alembic uses (asyncpg for PostgreSQL, pysqlite for SQLite)."""
    if database_url.startswith("sqlite"):
        return "sqlite:///" + sqlite_path(database_url)
    return "postgresql+asyncpg://" + postgres_dsn(database_url).split("://", 1)[1]


def alembic_config(database_url: str) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", sqlalchemy_url(database_url))
    config.set_main_option("file_template", "%%(year)d-%%(month).2d-%%(day).2d_%%(slug)s")
    return config


def upgrade(database_url: str, revision: str = "head") -> None:
    """Bring the schema up to ``revision`` (default: the newest)."""
    from alembic import command

    command.upgrade(alembic_config(database_url), revision)


def downgrade(database_url: str, revision: str) -> None:
    """Roll the schema back to ``revision`` (``base`` removes every table)."""
    from alembic import command

    command.downgrade(alembic_config(database_url), revision)


def head_revision() -> str | None:
    """The newest revision of the migration scripts (Alembic's head)."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config("sqlite:///:memory:")).get_current_head()


def current_revision_sqlite(path: str) -> str | None:
    """The revision a SQLite file is at (None when it has no schema yet)."""
    import sqlite3

    raw = sqlite3.connect(path)
    try:
        has_table = raw.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'"
        ).fetchone()
        if not has_table:
            return None
        row = raw.execute("SELECT version_num FROM alembic_version").fetchone()
        return None if row is None else str(row[0])
    finally:
        raw.close()


__all__ = [
    "MIGRATION_LOCK",
    "SCHEMA_REVISION",
    "alembic_config",
    "current_revision_sqlite",
    "downgrade",
    "head_revision",
    "is_behind",
    "require",
    "upgrade",
]

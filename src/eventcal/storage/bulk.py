"""Whole tables, for export and import: snapshot reads in primary-key order, upserts.

Reads page through a table by its primary key (``WHERE pk > :last ORDER BY pk LIMIT n``, a
row-value comparison for composite keys), so memory stays bounded whatever the table's size and
each page is an index range scan. Writes are upserts by primary key, so writing the same rows
twice leaves the same data and rows with other keys are kept.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import AsyncIterator, Sequence
from typing import Any

import sqlalchemy as sa
from alembic.script import ScriptDirectory
from sqlalchemy.dialects import postgresql as pg_dialects
from sqlalchemy.dialects import sqlite as sqlite_dialects

from eventcal.storage import migrate
from eventcal.storage.db import (
    Connection,
    Database,
    Row,
    in_values,
)
from eventcal.storage.postgres import PostgresConnection
from eventcal.storage.sqlite import SQLiteConnection
from eventcal.storage.tables import metadata, post

PAGE_SIZE = 1000
"""Rows per read (one keyset page)."""

_ALEMBIC_VERSION = sa.table("alembic_version", sa.column("version_num", sa.String))
_HAS_ALEMBIC_VERSION = {
    "sqlite": sa.select(sa.literal_column("1"))
    .select_from(sa.table("sqlite_master", sa.column("type"), sa.column("name")))
    .where(sa.column("type") == "table", sa.column("name") == "alembic_version"),
    "postgresql": sa.select(
        sa.func.to_regclass(sa.literal("alembic_version", sa.Text)).is_not(None)
    ),
}
_POST_TYPES = sa.select(post.c.id, post.c.type).where(in_values(post.c.id, "ids"))


def table(name: str) -> sa.Table:
    """A declared table by name."""
    return metadata.tables[name]


def primary_key(tbl: sa.Table) -> list[sa.Column[Any]]:
    return list(tbl.primary_key.columns)


def self_references(tbl: sa.Table) -> list[sa.Column[Any]]:
    """Columns that point at the same table (``parent_id``): the parent may come later."""
    return [fk.parent for fk in tbl.foreign_keys if fk.column.table is tbl]


def sequenced(tbl: sa.Table) -> bool:
    """Whether the table's id comes from a sequence (SERIAL / AUTOINCREMENT)."""
    key = primary_key(tbl)
    return len(key) == 1 and key[0].autoincrement is True


@contextlib.asynccontextmanager
async def snapshot(database: Database) -> AsyncIterator[Connection]:
    """A read-only connection that sees one consistent state for its whole life.

    SQLite: a deferred transaction on the read connection (WAL: writers go on; the WAL cannot
    be checkpointed past it until it ends). PostgreSQL: ``REPEATABLE READ, READ ONLY``.
    """
    async with database.read() as conn:
        if isinstance(conn, SQLiteConnection):
            conn.raw.execute("BEGIN")
            try:
                yield conn
            finally:
                conn.raw.execute("COMMIT")
        elif isinstance(conn, PostgresConnection):
            async with conn.raw.transaction(isolation="repeatable_read", readonly=True):
                yield conn
        else:  # pragma: no cover - there are two backends
            raise TypeError(f"unknown connection {conn!r}")


async def schema_revision(conn: Connection) -> str | None:
    """The revision the database's schema is at (None when it has none)."""
    if not await conn.scalar(_HAS_ALEMBIC_VERSION[conn.dialect_name]):
        return None
    value = await conn.scalar(sa.select(_ALEMBIC_VERSION.c.version_num))
    return None if value is None else str(value)


@functools.lru_cache(maxsize=1)
def known_revisions() -> tuple[str, ...]:
    """Every revision the code knows, newest (the head) first."""
    script = ScriptDirectory.from_config(migrate.alembic_config("sqlite:///:memory:"))
    return tuple(rev.revision for rev in script.walk_revisions())


def head_revision() -> str:
    """The newest revision the code knows."""
    return known_revisions()[0]


@functools.lru_cache(maxsize=64)
def _count(name: str) -> sa.Select[Any]:
    return sa.select(sa.func.count()).select_from(table(name))


async def count(conn: Connection, tbl: sa.Table) -> int:
    return int(await conn.scalar(_count(tbl.name)))


@functools.lru_cache(maxsize=64)
def _page(name: str, size: int, first: bool) -> sa.Select[Any]:
    tbl = table(name)
    key = primary_key(tbl)
    stmt = sa.select(tbl).order_by(*key).limit(size)
    if first:
        return stmt
    if len(key) == 1:
        return stmt.where(key[0] > sa.bindparam(f"last_{key[0].name}", type_=key[0].type))
    last = [sa.bindparam(f"last_{c.name}", type_=c.type) for c in key]
    return stmt.where(sa.tuple_(*key) > sa.tuple_(*last))


async def pages(conn: Connection, tbl: sa.Table, size: int = PAGE_SIZE) -> AsyncIterator[list[Row]]:
    """Every row of ``tbl`` in primary-key order, ``size`` rows at a time."""
    key = [c.name for c in primary_key(tbl)]
    rows = await conn.all(_page(tbl.name, size, True))
    while rows:
        yield rows
        if len(rows) < size:
            return
        last = rows[-1]
        rows = await conn.all(
            _page(tbl.name, size, False), {f"last_{name}": last[name] for name in key}
        )


@functools.lru_cache(maxsize=128)
def upsert(name: str, dialect_name: str) -> sa.Insert:
    """``INSERT … ON CONFLICT (pk) DO UPDATE`` every other column, one parameter per column.

    ``post`` rows are never updated: an id's type does not change (see :func:`post_types`).
    """
    tbl = table(name)
    insert = pg_dialects.insert if dialect_name == "postgresql" else sqlite_dialects.insert
    stmt = insert(tbl).values({c.name: sa.bindparam(c.name, type_=c.type) for c in tbl.columns})
    key = primary_key(tbl)
    others = [c for c in tbl.columns if c not in key]
    if not others or tbl is post:
        return stmt.on_conflict_do_nothing(index_elements=key)
    return stmt.on_conflict_do_update(
        index_elements=key, set_={c.name: stmt.excluded[c.name] for c in others}
    )


async def upsert_rows(conn: Connection, tbl: sa.Table, rows: Sequence[dict[str, Any]]) -> None:
    """Insert ``rows`` (every column given), or update the rows with the same primary key."""
    await conn.execute_many(upsert(tbl.name, conn.dialect_name), rows)


async def post_types(conn: Connection, ids: Sequence[int]) -> dict[int, str]:
    """The stored type of each of ``ids`` that exists."""
    rows = await conn.all(_POST_TYPES, {"ids": list(ids)})
    return {int(r["id"]): str(r["type"]) for r in rows}


@functools.lru_cache(maxsize=64)
def _existing(name: str) -> sa.Select[Any]:
    (key,) = primary_key(table(name))
    return sa.select(key).where(in_values(key, "ids"))


async def existing_ids(conn: Connection, tbl: sa.Table, ids: Sequence[int]) -> set[int]:
    """Which of ``ids`` are the primary key of a row of ``tbl``."""
    if not ids:
        return set()
    (key,) = primary_key(tbl)
    rows = await conn.all(_existing(tbl.name), {"ids": list(ids)})
    return {int(r[key.name]) for r in rows}


@functools.lru_cache(maxsize=64)
def _set_column(name: str, column: str) -> sa.Update:
    tbl = table(name)
    (key,) = primary_key(tbl)
    return (
        sa.update(tbl)
        .where(key == sa.bindparam("key", type_=key.type))
        .values({column: sa.bindparam("value", type_=tbl.c[column].type)})
    )


async def set_column(
    conn: Connection, tbl: sa.Table, column: str, values: Sequence[tuple[int, Any]]
) -> None:
    """Set ``column`` of the rows with the given primary keys: ``(key, value)`` pairs."""
    await conn.execute_many(
        _set_column(tbl.name, column), [{"key": k, "value": v} for k, v in values]
    )


@functools.lru_cache(maxsize=16)
def _move_sequence(name: str) -> sa.Select[Any]:
    tbl = table(name)
    (key,) = primary_key(tbl)
    sequence = sa.func.pg_get_serial_sequence(sa.literal(name, sa.Text), sa.literal(key.name))
    last_given = sa.func.pg_sequence_last_value(sa.cast(sequence, pg_dialects.REGCLASS))
    highest = sa.select(sa.func.coalesce(sa.func.max(key), 0)).scalar_subquery()
    target = sa.func.greatest(highest, sa.func.coalesce(last_given, 0)) + 1
    return sa.select(sa.func.setval(sequence, target, sa.false()))


async def move_sequences(conn: Connection, tables: Sequence[sa.Table]) -> None:
    """Make the next generated id of each table higher than every id it holds (or handed out).

    PostgreSQL: explicit ids do not advance a sequence, so ``setval`` (never backwards).
    SQLite: AUTOINCREMENT already records the highest id ever inserted in ``sqlite_sequence``.
    """
    if conn.dialect_name != "postgresql":
        return
    for tbl in tables:
        if sequenced(tbl):
            await conn.all(_move_sequence(tbl.name))


async def analyze(conn: Connection) -> None:
    """Refresh the planner's statistics after a bulk load (PostgreSQL; SQLite's planner is
    tuned without them, so it is left alone)."""
    if conn.dialect_name == "postgresql":
        await conn.execute(sa.text("ANALYZE"))

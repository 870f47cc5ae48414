"""Alembic environment: runs against the URL given by eventcal.storage.migrate (sync or async)."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy import pool, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import async_engine_from_config

from eventcal.storage.migrate import MIGRATION_LOCK
from eventcal.storage.tables import in_schema, metadata

config = context.config
target_metadata = metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
        include_object=in_schema(connection.dialect.name),
    )
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            # `eventcal migrate && eventcal serve` in every container: the first one migrates,
            # the others wait here and then find nothing left to do.
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        context.run_migrations()


def run_offline() -> None:
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = config.get_main_option("sqlalchemy.url") or ""
    if url.startswith("postgresql"):

        async def _async() -> None:
            engine = async_engine_from_config(
                {"sqlalchemy.url": url}, prefix="sqlalchemy.", poolclass=pool.NullPool
            )
            async with engine.connect() as conn:
                await conn.run_sync(_run)
            await engine.dispose()

        asyncio.run(_async())
    else:
        from sqlalchemy import create_engine

        engine = create_engine(url, poolclass=pool.NullPool)
        with engine.connect() as conn:
            _run(conn)
        engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()

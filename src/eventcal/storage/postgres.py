"""PostgreSQL through an ``asyncpg`` pool: a transaction per write request, advisory locks,
and the driver's errors mapped to the storage errors (a lost connection is an outage, a commit
whose answer was lost is :class:`CommitOutcomeUnknown`)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql as pg_dialects
from sqlalchemy.sql.expression import Executable

from eventcal.storage import changes as change_log
from eventcal.storage import migrate
from eventcal.storage.db import (
    CommitOutcomeUnknown,
    Connection,
    Database,
    DatabaseUnavailable,
    ForeignKeyViolation,
    Row,
    SharedReads,
    TransactionConflict,
    UniqueViolation,
    _pg_value,
    postgres_dsn,
)

log = logging.getLogger("eventcal.storage")


class PostgresConnection(Connection):
    def __init__(self, database: PostgresDatabase, raw: Any) -> None:
        super().__init__(database)
        self.raw = raw
        self.untried = True
        """No statement has answered on this connection yet since it left the pool: one found
        dead then (the server restarted, or ended the session, while it sat idle in the pool,
        and the client has not seen the close yet) is replaced and the statement sent again.
        Only outside a transaction (reads) and for ``BEGIN``: nothing could have been written."""

    async def _run(self, call: Callable[[Any], Awaitable[Any]]) -> Any:
        try:
            result = await call(self.raw)
        except Exception as exc:
            if not (self.untried and _connection_lost(exc, self.raw)):
                raise _pg_error(exc, self.raw) from exc
            await self.replace()
            try:
                result = await call(self.raw)
            except Exception as again:
                raise _pg_error(again, self.raw) from again
        self.untried = False
        return result

    async def replace(self) -> None:
        """Give the dead connection back to the pool and take a new one. The pool's other
        connections date from before whatever killed this one, so the pool replaces each of
        them too as it next lends it (it cannot tell which of them are dead as well)."""
        database: PostgresDatabase = self.database  # type: ignore[assignment]
        dead, self.raw = self.raw, None
        await database.release(dead, expire_all=True)
        self.raw = await database.acquire()

    async def begin(self) -> Any:
        """Start a transaction (on another connection if this one is found dead)."""
        return await self._run(_begin)

    def _prepare(self, stmt: Executable, params: Mapping[str, Any] | None) -> tuple[str, list[Any]]:
        compiled = self.database.compiled.get(stmt)  # type: ignore[arg-type]
        self.database.statement_count += 1
        values = [
            _pg_value(
                params[name] if params is not None and name in params else compiled.defaults[name]
            )
            for name in compiled.names
        ]
        return compiled.sql, values

    async def all(self, stmt: Executable, params: Mapping[str, Any] | None = None) -> list[Row]:
        sql, values = self._prepare(stmt, params)
        return await self._run(lambda raw: raw.fetch(sql, *values))  # type: ignore[no-any-return]

    async def scalar_planned_for_values(
        self, stmt: Executable, params: Mapping[str, Any] | None = None
    ) -> Any:
        """The statement planned for its values, with pattern tests costed as what they are.

        asyncpg prepares every statement, and after five runs PostgreSQL may keep a generic
        plan, made without the values: for ``ILIKE`` tests it reads the whole listing and tests
        every row. And the planner costs a test at a fraction of a tuple's read, so even for the
        values it prefers testing every row to the trigram indexes: at 10,000 events a search
        total took 30-80 ms where the indexes answer in 3 (bench/README.md, "PostgreSQL with
        writes"). So the statement runs in a transaction of its own with both settings changed
        for it alone (inside a caller's transaction, as it is).
        """
        if self.raw.is_in_transaction():
            return await self.scalar(stmt, params)
        sql, values = self._prepare(stmt, params)

        async def planned(raw: Any) -> Any:
            await raw.execute(_PLAN_FOR_VALUES)
            try:
                value = await raw.fetchval(sql, *values)
            except BaseException:
                await raw.execute("ROLLBACK")
                raise
            await raw.execute("COMMIT")
            return value

        return await self._run(planned)

    async def execute(self, stmt: Executable, params: Mapping[str, Any] | None = None) -> int:
        sql, values = self._prepare(stmt, params)
        status = await self._run(lambda raw: raw.execute(sql, *values))
        tail = status.rsplit(" ", 1)[-1]
        return int(tail) if tail.isdigit() else 0

    async def execute_many(self, stmt: Executable, params: Sequence[Mapping[str, Any]]) -> None:
        if not params:
            return
        compiled = self.database.compiled.get(stmt)  # type: ignore[arg-type]
        self.database.statement_count += 1
        rows = [
            [
                _pg_value(p[name] if name in p else compiled.defaults[name])
                for name in compiled.names
            ]
            for p in params
        ]
        try:
            await self.raw.executemany(compiled.sql, rows)
        except Exception as exc:
            raise _pg_error(exc, self.raw) from exc

    @contextlib.asynccontextmanager
    async def savepoint(self) -> AsyncIterator[None]:
        async with self.raw.transaction():
            yield

    async def lock(self, key: str) -> None:
        await self.all(_ADVISORY_LOCK, {"key": key})

    async def lock_all(self, keys: Sequence[str]) -> None:
        """One statement: ``unnest`` yields the keys in the order given."""
        if keys:
            await self.all(_ADVISORY_LOCKS, {"keys": list(keys)})

    async def try_lock(self, key: str) -> bool:
        return bool(await self.scalar(_TRY_ADVISORY_LOCK, {"key": key}))


async def _begin(raw: Any) -> Any:
    tx = raw.transaction()
    await tx.start()
    return tx


_PLAN_FOR_VALUES = (
    "BEGIN READ ONLY; SET LOCAL plan_cache_mode = force_custom_plan; "
    "SET LOCAL cpu_operator_cost = 0.05"
)
"""See :meth:`PostgresConnection.scalar_planned_for_values`: 20 times the default cost of an
operator, as a case-insensitive pattern test on a short text costs about that against a row's
read (measured: a seq scan of 10,000 events with three ``ILIKE`` tests 30 ms, its rows alone 1)."""
_LOCK_ID = sa.func.hashtextextended(sa.bindparam("key", type_=sa.Text), 0)
_ADVISORY_LOCK = sa.select(sa.func.pg_advisory_xact_lock(_LOCK_ID))
_TRY_ADVISORY_LOCK = sa.select(sa.func.pg_try_advisory_xact_lock(_LOCK_ID))
_ADVISORY_LOCKS = sa.text(
    "SELECT pg_advisory_xact_lock(hashtextextended(k, 0)) FROM unnest(CAST(:keys AS text[])) AS k"
)


def _pg_error(exc: Exception, raw: Any = None) -> Exception:
    """The storage error for an asyncpg error (the error itself when it is none of ours)."""
    import asyncpg

    if isinstance(exc, asyncpg.UniqueViolationError):
        return UniqueViolation(str(exc))
    if isinstance(exc, asyncpg.ForeignKeyViolationError):
        return ForeignKeyViolation(str(exc))
    if isinstance(exc, asyncpg.TransactionRollbackError):  # deadlock, serialization failure
        return TransactionConflict(str(exc))
    if _connection_lost(exc, raw):
        return DatabaseUnavailable(f"{type(exc).__name__}: {exc}")
    return exc


def _connection_lost(exc: BaseException, raw: Any = None) -> bool:
    """The error says the server is out of reach, or the connection (``raw``) broke.

    Network errors and timeouts (``OSError``), connection errors (SQLSTATE class 08), the
    server stopping, starting or terminating the session (class 57: ``CannotConnectNowError``,
    ``AdminShutdownError``…), a full server; and asyncpg's client-side errors
    (``InterfaceError``, ``InternalClientError``) once the connection is closed (with the
    connection still open they are bugs, and stay 500).
    """
    import asyncpg

    if isinstance(
        exc,
        OSError
        | asyncpg.PostgresConnectionError
        | asyncpg.OperatorInterventionError
        | asyncpg.TooManyConnectionsError,
    ):
        return True
    if isinstance(exc, asyncpg.InterfaceError | asyncpg.InternalClientError):
        return raw is None or _closed(raw)
    return False


def _closed(raw: Any) -> bool:
    import asyncpg

    try:
        return bool(raw.is_closed())
    except asyncpg.InterfaceError:
        return True  # the pool took back the connection when it closed


class PostgresDatabase(Database):
    dialect_name = "postgresql"
    dialect = pg_dialects.asyncpg.dialect()  # type: ignore[no-untyped-call]

    def __init__(self, url: str, pool_size: int = 10) -> None:
        super().__init__()
        self.dsn = postgres_dsn(url)
        self.pool_size = pool_size
        self._pool: Any = None
        self._versions = SharedReads(super().current_version)

    async def current_version(self) -> int:
        """One query answers every request that asked while the previous one ran (a round
        trip per request would cost PostgreSQL more than serving a cached response)."""
        return await self._versions.get()

    async def startup(self) -> None:
        import asyncpg

        if self._pool is None:
            try:
                self._pool = await asyncpg.create_pool(
                    self.dsn, min_size=1, max_size=self.pool_size, command_timeout=60
                )
            except (asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                raise DatabaseUnavailable(str(exc)) from exc
            except Exception as exc:
                if _connection_lost(exc):
                    raise DatabaseUnavailable(str(exc)) from exc
                raise
            try:
                migrate.require(await self.schema_revision())
            except BaseException:
                # Checked again on the next use: the operator may migrate meanwhile.
                pool, self._pool = self._pool, None
                await pool.close()
                raise

    async def schema_revision(self) -> str | None:
        """The revision the database is at (None when it has no schema yet)."""
        import asyncpg

        async with self.read() as conn:
            raw = conn.raw  # type: ignore[attr-defined]
            try:
                value = await raw.fetchval("SELECT version_num FROM alembic_version")
            except asyncpg.UndefinedTableError:
                return None
            except Exception as exc:
                raise _pg_error(exc, raw) from exc
        return None if value is None else str(value)

    async def shutdown(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    async def acquire(self) -> Any:
        if self._pool is None:
            await self.startup()
        try:
            return await self._pool.acquire()
        except Exception as exc:
            # Acquiring may open a connection: the server may be down, starting up or
            # shutting down (CannotConnectNowError), or drop the connection at once.
            if _connection_lost(exc):
                raise DatabaseUnavailable(f"{type(exc).__name__}: {exc}") from exc
            raise

    async def release(self, raw: Any, *, expire_all: bool = False) -> None:
        if raw is None or self._pool is None:
            return
        if expire_all:
            await self._pool.expire_connections()
        try:
            await self._pool.release(raw)
        except Exception:
            # The pool discards a connection it cannot reset; the request's own outcome
            # (an answer, or the error that is propagating) is what matters.
            log.warning("a connection could not be returned to the pool", exc_info=True)

    @contextlib.asynccontextmanager
    async def read(self) -> AsyncIterator[Connection]:
        conn = PostgresConnection(self, await self.acquire())
        try:
            yield conn
        finally:
            await self.release(conn.raw)

    @contextlib.asynccontextmanager
    async def transaction(self, *, versioned: bool = True) -> AsyncIterator[Connection]:
        async with self.read() as conn:
            assert isinstance(conn, PostgresConnection)
            tx = await conn.begin()
            raw = conn.raw
            try:
                yield conn
                if versioned:
                    try:
                        version = int(await raw.fetchval(change_log.NEXT_VERSION))
                    except Exception as exc:
                        raise _pg_error(exc, raw) from exc
                    if conn.changes:
                        await conn.execute(
                            change_log.INSERT, change_log.params(conn.changes, version)
                        )
            except BaseException:
                try:
                    await tx.rollback()
                except Exception:
                    # On a broken connection the rollback fails too; the server rolls the
                    # transaction back when the session ends. The first error is the answer.
                    log.warning("rollback failed", exc_info=True)
                raise
            try:
                await tx.commit()
            except Exception as exc:
                if _connection_lost(exc, raw):
                    raise CommitOutcomeUnknown(f"{type(exc).__name__}: {exc}") from exc
                raise _pg_error(exc, raw) from exc

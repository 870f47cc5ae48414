"""Database access: SQLAlchemy Core statements, compiled once, run on the drivers directly.

Measured on this machine, a SQLAlchemy execution costs more than the query itself on a 10-event
page, and a thread or ``aiosqlite`` hop costs more again. So statements are built with
SQLAlchemy Core (portable, no SQL strings), compiled once per dialect and cached, and executed
by ``sqlite3`` inline or by ``asyncpg``.

* SQLite (embedded default): one read connection and one write connection per process, WAL,
  ``synchronous=FULL`` (an acknowledged write survives a power cut), foreign keys on. Writers in
  one process queue on an asyncio lock and share commits (group commit: see
  :class:`SQLiteDatabase`); across processes SQLite's own lock and ``busy_timeout``.
* PostgreSQL: an ``asyncpg`` pool; a transaction per write request.

Services receive a :class:`Connection` and never commit: the HTTP layer opens one transaction per
write request, which commits (on SQLite, possibly together with other requests' transactions) or
rolls back on any error.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from datetime import UTC, date, datetime
from typing import Any, Protocol
from urllib.parse import unquote, urlsplit

import orjson
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql as pg_dialects
from sqlalchemy.dialects import sqlite as sqlite_dialects
from sqlalchemy.engine.interfaces import Dialect
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.elements import ColumnElement
from sqlalchemy.sql.expression import ClauseElement, Executable

from eventcal.storage import changes as change_log
from eventcal.storage.changes import Change

log = logging.getLogger("eventcal.storage")


class Row(Protocol):
    """A result row: values by column name (``sqlite3.Row`` and ``asyncpg.Record`` both fit)."""

    def __getitem__(self, key: str, /) -> Any: ...

    def keys(self) -> Iterable[str]: ...


class StorageError(Exception):
    """Base of the errors the storage layer raises."""


class UniqueViolation(StorageError):
    """An insert or update broke a unique constraint (for example a live slug)."""


class ForeignKeyViolation(StorageError):
    """A row referenced something that does not exist (any more)."""


class DatabaseUnavailable(StorageError):
    """The database cannot be reached."""


class CommitOutcomeUnknown(DatabaseUnavailable):
    """The connection broke while ``COMMIT`` was under way: the server may have committed the
    transaction before it went, or not. Only reading again (or an idempotency key) can tell."""


class TransactionConflict(DatabaseUnavailable):
    """PostgreSQL broke a deadlock or a serialization conflict by rolling this transaction
    back: nothing was written, and the same request sent again succeeds (so: 503, retry)."""


# --- IN lists that do not change the statement text --------------------------------------------


class in_values(ColumnElement[bool]):  # noqa: N801 - reads like a SQL function in statements
    """``column IN (<list parameter>)`` with a single parameter, so statements stay cacheable.

    SQLite: ``column IN (SELECT value FROM json_each(?))`` with a JSON array.
    PostgreSQL: ``column = ANY($1::INTEGER[])`` with a native array.
    """

    inherit_cache = True
    type = sa.Boolean()
    # A comparison already: without this, backends without a boolean type get ``(…) = 1``
    # appended, which hides the IN from SQLite's planner (no index is used).
    _is_implicitly_boolean = True

    def __init__(self, column: ColumnElement[Any], name: str, item_type: Any = None) -> None:
        self.column = column
        self.item_type = item_type if item_type is not None else column.type
        self.param = sa.bindparam(name, type_=pg_dialects.ARRAY(self.item_type))


@compiles(in_values, "sqlite")
def _in_values_sqlite(element: in_values, compiler: Any, **kw: Any) -> str:
    column = compiler.process(element.column, **kw)
    param = compiler.process(element.param, **kw)
    # Both parts are compiler output (a column name and a placeholder), never client data.
    return f"{column} IN (SELECT value FROM json_each({param}))"  # noqa: S608


@compiles(in_values, "postgresql")
def _in_values_postgresql(element: in_values, compiler: Any, **kw: Any) -> str:
    column = compiler.process(element.column, **kw)
    param = compiler.process(element.param, **kw)
    return f"{column} = ANY({param})"


def in_constants(column: ColumnElement[Any], values: Iterable[Any]) -> ColumnElement[bool]:
    """``column IN (...)`` for a fixed list, with one plain parameter per value (SQLAlchemy's
    own ``in_`` with plain values needs its execution machinery, which we bypass)."""
    return column.in_([sa.literal(v) for v in values])


# --- compiled statement cache ------------------------------------------------------------------


class _Compiled:
    __slots__ = ("defaults", "names", "sql")

    def __init__(self, sql: str, names: Sequence[str], defaults: Mapping[str, Any]) -> None:
        self.sql = sql
        self.names = tuple(names)
        self.defaults = dict(defaults)


class _CompileCache:
    """Compiled SQL per statement object. Statements are module constants or come from
    ``functools.lru_cache`` builders, so the set is bounded; the LRU bound is a safety net."""

    def __init__(self, dialect: Dialect, size: int = 2048) -> None:
        self.dialect = dialect
        self.size = size
        self._cache: OrderedDict[ClauseElement, _Compiled] = OrderedDict()

    def get(self, stmt: ClauseElement) -> _Compiled:
        compiled = self._cache.get(stmt)
        if compiled is None:
            result = stmt.compile(dialect=self.dialect)
            if "POSTCOMPILE" in result.string:
                raise TypeError("use in_values/in_constants instead of in_() with plain values")
            names: Sequence[str] = getattr(result, "positiontup", None) or ()
            compiled = _Compiled(result.string, names, result.params or {})
            self._cache[stmt] = compiled
            if len(self._cache) > self.size:
                self._cache.popitem(last=False)
        return compiled


def _sqlite_value(value: Any) -> Any:
    if isinstance(value, datetime):
        if value.tzinfo is not None:
            value = value.astimezone(UTC).replace(tzinfo=None)
        return value.isoformat(" ", "seconds")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return orjson.dumps(list(value)).decode()
    return value


def _pg_value(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    return value


# --- connections -------------------------------------------------------------------------------


class Connection(ABC):
    """What services use: run statements with named parameters."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.changes: list[Change] = []
        """The change log records of the write transaction under way (see ``changes``)."""

    @property
    def dialect_name(self) -> str:
        return self.database.dialect_name

    @abstractmethod
    async def all(self, stmt: Executable, params: Mapping[str, Any] | None = None) -> list[Row]:
        """Every row of a query."""

    async def first(self, stmt: Executable, params: Mapping[str, Any] | None = None) -> Row | None:
        """The first row, or None."""
        rows = await self.all(stmt, params)
        return rows[0] if rows else None

    async def scalar(self, stmt: Executable, params: Mapping[str, Any] | None = None) -> Any:
        """The first column of the first row, or None."""
        row = await self.first(stmt, params)
        return None if row is None else row[next(iter(row.keys()))]

    @abstractmethod
    async def execute(self, stmt: Executable, params: Mapping[str, Any] | None = None) -> int:
        """Run a statement that returns no rows; the number of rows it touched."""

    @abstractmethod
    async def execute_many(self, stmt: Executable, params: Sequence[Mapping[str, Any]]) -> None:
        """Run one statement for each parameter set."""

    @abstractmethod
    def savepoint(self) -> contextlib.AbstractAsyncContextManager[None]:
        """A nested transaction: an error inside rolls back only what happened inside."""

    @abstractmethod
    async def lock(self, key: str) -> None:
        """Hold a lock named ``key`` until the transaction ends, so "find or create" steps of
        concurrent writers run one after the other."""

    @abstractmethod
    async def try_lock(self, key: str) -> bool:
        """Take the lock named ``key`` until the transaction ends if no other transaction
        holds it; False (at once) if one does."""


class Database(ABC):
    """One database, for the life of the process."""

    dialect_name: str
    dialect: Dialect

    def __init__(self) -> None:
        self.compiled = _CompileCache(self.dialect)
        self.statement_count = 0
        """Statements run so far (tests pin query counts with it)."""

    @abstractmethod
    async def startup(self) -> None:
        """Open connections."""

    @abstractmethod
    async def shutdown(self) -> None:
        """Close connections."""

    @abstractmethod
    def read(self) -> contextlib.AbstractAsyncContextManager[Connection]:
        """A connection for reading (autocommit; sees committed data)."""

    async def current_version(self) -> int:
        """The data version now: read after this call began, so it counts every write
        committed before (a response built from data read afterwards is never older)."""
        async with self.read() as conn:
            return await data_version(conn)

    @abstractmethod
    def transaction(
        self, *, versioned: bool = True
    ) -> contextlib.AbstractAsyncContextManager[Connection]:
        """A connection inside a transaction: committed on success, rolled back on error.

        ``versioned=False`` for bookkeeping that changes nothing the API serves (failed-login
        counts): it leaves the data version, and so every cached response, as it is.
        """


class SQLiteConnection(Connection):
    def __init__(self, database: SQLiteDatabase, raw: sqlite3.Connection) -> None:
        super().__init__(database)
        self.raw = raw
        self._savepoints = 0

    def _prepare(
        self, stmt: Executable, params: Mapping[str, Any] | None
    ) -> tuple[str, tuple[Any, ...]]:
        compiled = self.database.compiled.get(stmt)  # type: ignore[arg-type]
        self.database.statement_count += 1
        if not compiled.names:
            return compiled.sql, ()
        values = []
        for name in compiled.names:
            value = (
                params[name] if params is not None and name in params else compiled.defaults[name]
            )
            values.append(_sqlite_value(value))
        return compiled.sql, tuple(values)

    async def all(self, stmt: Executable, params: Mapping[str, Any] | None = None) -> list[Row]:
        sql, values = self._prepare(stmt, params)
        try:
            return self.raw.execute(sql, values).fetchall()
        except sqlite3.IntegrityError as exc:
            raise _sqlite_integrity(exc) from exc
        except sqlite3.OperationalError as exc:
            raise _sqlite_operational(exc) from exc

    async def execute(self, stmt: Executable, params: Mapping[str, Any] | None = None) -> int:
        sql, values = self._prepare(stmt, params)
        try:
            return self.raw.execute(sql, values).rowcount
        except sqlite3.IntegrityError as exc:
            raise _sqlite_integrity(exc) from exc
        except sqlite3.OperationalError as exc:
            raise _sqlite_operational(exc) from exc

    async def execute_many(self, stmt: Executable, params: Sequence[Mapping[str, Any]]) -> None:
        if not params:
            return
        compiled = self.database.compiled.get(stmt)  # type: ignore[arg-type]
        self.database.statement_count += 1
        rows = [
            tuple(
                _sqlite_value(p[name] if name in p else compiled.defaults[name])
                for name in compiled.names
            )
            for p in params
        ]
        try:
            self.raw.executemany(compiled.sql, rows)
        except sqlite3.IntegrityError as exc:
            raise _sqlite_integrity(exc) from exc
        except sqlite3.OperationalError as exc:
            raise _sqlite_operational(exc) from exc

    async def lock(self, key: str) -> None:
        """Nothing to do: a SQLite write transaction already excludes every other writer."""
        del key

    async def try_lock(self, key: str) -> bool:
        """Always free: a SQLite write transaction already excludes every other writer."""
        del key
        return True

    @contextlib.asynccontextmanager
    async def savepoint(self) -> AsyncIterator[None]:
        self._savepoints += 1
        name = f"sp{self._savepoints}"
        self.raw.execute(f"SAVEPOINT {name}")
        try:
            yield
        except BaseException:
            # Some errors (a full disk, I/O) make SQLite roll back the whole transaction, and
            # the savepoint with it: the error that did it is the one to raise.
            if self.raw.in_transaction:
                self.raw.execute(f"ROLLBACK TO {name}")
                self.raw.execute(f"RELEASE {name}")
            raise
        else:
            self.raw.execute(f"RELEASE {name}")


def _sqlite_integrity(exc: sqlite3.IntegrityError) -> StorageError:
    text = str(exc)
    if "FOREIGN KEY" in text:
        return ForeignKeyViolation(text)
    return UniqueViolation(text)


_SQLITE_OUTAGES = ("SQLITE_FULL", "SQLITE_IOERR", "SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_CANTOPEN")
"""Error names (and their extended forms) that say the storage cannot serve now: a full
disk, an I/O error, a lock held past the busy timeout. Others (a wrong statement) are bugs."""


def _sqlite_operational(exc: sqlite3.OperationalError) -> Exception:
    name = getattr(exc, "sqlite_errorname", "") or ""
    if name.startswith(_SQLITE_OUTAGES):
        return DatabaseUnavailable(f"{name}: {exc}")
    return exc


def sqlite_path(url: str) -> str:
    """The file path of a ``sqlite:///path`` URL (``sqlite:////abs/path`` for absolute)."""
    parts = urlsplit(url)
    path = unquote(parts.path)
    if path.startswith("/"):
        path = path[1:]
    return path or ":memory:"


def open_sqlite(path: str, busy_timeout_ms: int) -> sqlite3.Connection:
    """A connection with the pragmas the service relies on."""
    raw = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    raw.row_factory = sqlite3.Row
    raw.execute("PRAGMA journal_mode=WAL")
    raw.execute("PRAGMA synchronous=FULL")
    raw.execute("PRAGMA foreign_keys=ON")
    raw.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
    return raw


class _Batch:
    """Write transactions that share one SQLite transaction and so one ``COMMIT``."""

    __slots__ = ("committed", "members")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.committed: asyncio.Future[None] = loop.create_future()
        self.members = 0


class SQLiteDatabase(Database):
    """SQLite with group commit.

    A ``COMMIT`` waits for ``fsync`` (``synchronous=FULL``), ~0.2–0.3 ms here, which is a
    large share of a whole create. So the write transactions of this process that are ready to
    run one after the other share a transaction: the first opens it (``BEGIN IMMEDIATE``) and
    schedules the commit; each one runs inside its own savepoint, which an error rolls back
    alone; and each waits for the shared ``COMMIT`` before it returns, so nothing is
    acknowledged before it is durable. The commit runs once the writers that were already
    queued on the event loop have had their turn, so a batch is as large as the queue, never
    waits for more, and a single writer commits at once. If the ``COMMIT`` fails, every member
    gets :class:`DatabaseUnavailable` and nothing of the batch is written.
    """

    dialect_name = "sqlite"
    dialect = sqlite_dialects.dialect(paramstyle="qmark")

    def __init__(self, url: str, busy_timeout_ms: int = 10_000) -> None:
        super().__init__()
        self.path = sqlite_path(url)
        self.busy_timeout_ms = busy_timeout_ms
        self._read: SQLiteConnection | None = None
        self._write: SQLiteConnection | None = None
        self._write_lock = asyncio.Lock()
        self._batch: _Batch | None = None
        self._committer: asyncio.Task[None] | None = None
        self.commits = 0
        """``COMMIT`` statements run so far (tests check that writers share them)."""

    async def startup(self) -> None:
        if self._read is None:
            self._read = SQLiteConnection(self, open_sqlite(self.path, self.busy_timeout_ms))
            self._write = SQLiteConnection(self, open_sqlite(self.path, self.busy_timeout_ms))

    async def shutdown(self) -> None:
        if self._committer is not None:
            with contextlib.suppress(Exception):
                await self._committer
        for conn in (self._read, self._write):
            if conn is not None:
                conn.raw.close()
        self._read = self._write = None

    @contextlib.asynccontextmanager
    async def read(self) -> AsyncIterator[Connection]:
        if self._read is None:
            raise DatabaseUnavailable("the database is not open")
        yield self._read

    @contextlib.asynccontextmanager
    async def transaction(self, *, versioned: bool = True) -> AsyncIterator[Connection]:
        async with self._write_lock:
            conn = self._write
            if conn is None:
                raise DatabaseUnavailable("the database is not open")
            raw = conn.raw
            batch = self._batch
            if batch is None:
                batch = self._open_batch(conn)
            elif not raw.in_transaction:
                # An earlier member's error made SQLite roll the batch back; a savepoint now
                # would start (and its release commit) a transaction of its own.
                raise DatabaseUnavailable("the write transaction was rolled back")
            raw.execute("SAVEPOINT write_request")
            conn.changes.clear()
            try:
                yield conn
                if versioned:
                    version = int(raw.execute(change_log.NEXT_VERSION).fetchone()[0])
                    await conn.execute_many(
                        change_log.INSERT, change_log.rows(conn.changes, version)
                    )
            except BaseException:
                # Some errors (disk full, I/O) make SQLite roll back the whole transaction:
                # then the batch's COMMIT fails and every member learns it.
                if raw.in_transaction:
                    raw.execute("ROLLBACK TO write_request")
                    raw.execute("RELEASE write_request")
                raise
            finally:
                conn.changes.clear()
            raw.execute("RELEASE write_request")
            batch.members += 1
        await asyncio.shield(batch.committed)

    def _open_batch(self, conn: SQLiteConnection) -> _Batch:
        try:
            conn.raw.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise DatabaseUnavailable(str(exc)) from exc
        loop = asyncio.get_running_loop()
        self._batch = _Batch(loop)
        self._committer = loop.create_task(self._commit())
        return self._batch

    async def _commit(self) -> None:
        """Commit the open batch once the writers queued before this task have run."""
        async with self._write_lock:
            batch, self._batch = self._batch, None
            assert batch is not None
            assert self._write is not None
            raw = self._write.raw
            try:
                if not raw.in_transaction:
                    raise DatabaseUnavailable("the write transaction was rolled back")
                raw.execute("COMMIT")
                self.commits += 1
            except Exception as exc:
                if raw.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        raw.execute("ROLLBACK")
                failure = exc if isinstance(exc, DatabaseUnavailable) else None
                batch.committed.set_exception(failure or DatabaseUnavailable(str(exc)))
                batch.committed.exception()  # retrieved: a batch may have no members
            else:
                batch.committed.set_result(None)


class PostgresConnection(Connection):
    def __init__(self, database: PostgresDatabase, raw: Any) -> None:
        super().__init__(database)
        self.raw = raw

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
        try:
            return await self.raw.fetch(sql, *values)  # type: ignore[no-any-return]
        except Exception as exc:
            raise _pg_error(exc, self.raw) from exc

    async def execute(self, stmt: Executable, params: Mapping[str, Any] | None = None) -> int:
        sql, values = self._prepare(stmt, params)
        try:
            status = await self.raw.execute(sql, *values)
        except Exception as exc:
            raise _pg_error(exc, self.raw) from exc
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

    async def try_lock(self, key: str) -> bool:
        return bool(await self.scalar(_TRY_ADVISORY_LOCK, {"key": key}))


_LOCK_ID = sa.func.hashtextextended(sa.bindparam("key", type_=sa.Text), 0)
_ADVISORY_LOCK = sa.select(sa.func.pg_advisory_xact_lock(_LOCK_ID))
_TRY_ADVISORY_LOCK = sa.select(sa.func.pg_try_advisory_xact_lock(_LOCK_ID))


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


def postgres_dsn(url: str) -> str:
    """An asyncpg DSN from ``postgresql://`` or ``postgresql+asyncpg://`` URLs."""
    scheme, rest = url.split("://", 1)
    del scheme
    return "postgresql://" + rest


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

    async def shutdown(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    @contextlib.asynccontextmanager
    async def read(self) -> AsyncIterator[Connection]:
        if self._pool is None:
            await self.startup()
        acquired = self._pool.acquire()
        try:
            raw = await acquired.__aenter__()
        except Exception as exc:
            # Acquiring may open a connection: the server may be down, starting up or
            # shutting down (CannotConnectNowError), or drop the connection at once.
            if _connection_lost(exc):
                raise DatabaseUnavailable(f"{type(exc).__name__}: {exc}") from exc
            raise
        try:
            yield PostgresConnection(self, raw)
        finally:
            try:
                await acquired.__aexit__(None, None, None)
            except Exception:
                # The pool discards a connection it cannot reset; the request's own outcome
                # (an answer, or the error that is propagating) is what matters.
                log.warning("a connection could not be returned to the pool", exc_info=True)

    @contextlib.asynccontextmanager
    async def transaction(self, *, versioned: bool = True) -> AsyncIterator[Connection]:
        async with self.read() as conn:
            raw = conn.raw  # type: ignore[attr-defined]
            tx = raw.transaction()
            try:
                await tx.start()
            except Exception as exc:
                raise _pg_error(exc, raw) from exc
            try:
                yield conn
                if versioned:
                    try:
                        version = int(await raw.fetchval(change_log.NEXT_VERSION))
                    except Exception as exc:
                        raise _pg_error(exc, raw) from exc
                    await conn.execute_many(
                        change_log.INSERT, change_log.rows(conn.changes, version)
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


class SharedReads:
    """One read answering every caller that asked since the previous read began.

    A caller never gets the answer of a read that began before it asked (that read could miss a
    write the caller already saw acknowledged): it joins the next read, which begins when the
    running one ends. So each answer is as fresh as a read of the caller's own, and under load
    one read serves a whole batch of callers.
    """

    def __init__(self, read: Callable[[], Awaitable[int]]) -> None:
        self._read = read
        self._waiting: asyncio.Future[int] | None = None
        """The next read's answer, for the callers that asked since the running read began."""
        self._runner: asyncio.Task[None] | None = None

    async def get(self) -> int:
        if self._waiting is None:
            self._waiting = asyncio.get_running_loop().create_future()
        waiting = self._waiting
        if self._runner is None:
            self._runner = asyncio.create_task(self._run())
        return await asyncio.shield(waiting)

    async def _run(self) -> None:
        try:
            while self._waiting is not None:
                answer, self._waiting = self._waiting, None
                try:
                    answer.set_result(await self._read())
                except Exception as exc:
                    answer.set_exception(exc)
        finally:
            self._runner = None


DATA_VERSION = sa.text("SELECT version FROM data_version WHERE id = 1")


async def data_version(conn: Connection) -> int:
    """How many write transactions have committed (only ever grows)."""
    return int(await conn.scalar(DATA_VERSION) or 0)


def create_database(url: str, *, pool_size: int = 10, busy_timeout_ms: int = 10_000) -> Database:
    """The database for a ``sqlite:///`` or ``postgresql://`` URL."""
    if url.startswith("sqlite"):
        return SQLiteDatabase(url, busy_timeout_ms)
    return PostgresDatabase(url, pool_size)


def as_utc(value: Any) -> datetime:
    """A UTC-aware datetime from a stored value (SQLite returns text, asyncpg datetimes)."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)  # type: ignore[no-any-return]
    return value.astimezone(UTC)  # type: ignore[no-any-return]


def as_local(value: Any) -> datetime:
    """A naive wall-clock datetime from a stored value."""
    if isinstance(value, str):
        return datetime.fromisoformat(value)
    return value  # type: ignore[no-any-return]

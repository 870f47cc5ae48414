"""Database access: SQLAlchemy Core statements, compiled once, run on the drivers directly.

Measured on this machine, a SQLAlchemy execution costs more than the query itself on a 10-event
page, and a thread or ``aiosqlite`` hop costs more again. So statements are built with
SQLAlchemy Core (portable, no SQL strings), compiled once per dialect and cached, and executed
by ``sqlite3`` inline or by ``asyncpg``.

The engines live beside this module: :mod:`eventcal.storage.sqlite` and
:mod:`eventcal.storage.postgres`.

* SQLite (embedded default): one read connection and one write connection per process, WAL,
  ``synchronous=FULL`` (an acknowledged write survives a power cut), foreign keys on. Writers in
  one process queue on an asyncio lock and share commits (group commit: see
  :class:`~eventcal.storage.sqlite.SQLiteDatabase`); across processes SQLite's own lock and
  ``busy_timeout``.
* PostgreSQL: an ``asyncpg`` pool; a transaction per write request.

Services receive a :class:`Connection` and never commit: the HTTP layer opens one transaction per
write request, which commits (on SQLite, possibly together with other requests' transactions) or
rolls back on any error.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from datetime import UTC, date, datetime
from typing import Any, Protocol
from urllib.parse import unquote, urlsplit

import orjson
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql as pg_dialects
from sqlalchemy.engine.interfaces import Dialect
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.elements import ColumnElement
from sqlalchemy.sql.expression import ClauseElement, Executable

from eventcal.storage.changes import Change
from eventcal.storage.rowsets import Rows

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


class DatabaseNotMigrated(DatabaseUnavailable):
    """The database answers but its schema is older than the code (``eventcal migrate`` has
    not been run): nothing can be served until an operator migrates it."""

    def __init__(self, current: str | None, needed: str) -> None:
        self.current = current or "none"
        self.needed = needed
        super().__init__(
            f"database not migrated: at revision {self.current}, the code needs {needed}; "
            "run `eventcal migrate`"
        )


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


_ROWS_JSON = orjson.OPT_OMIT_MICROSECONDS
"""Dates in a :class:`Rows` as orjson writes them, to the second as SQLite stores them (see
storage/rowsets.py)."""


_AS_IS = frozenset({int, str, float, bytes, bool, type(None)})
"""Types sqlite3 binds as they are (most parameters: checked first, by type)."""


def _sqlite_parameters(compiled: _Compiled, params: Mapping[str, Any] | None) -> tuple[Any, ...]:
    """A statement's parameter values in its order, as sqlite3 binds them (defaults for the
    names ``params`` lacks)."""
    defaults = compiled.defaults
    values = []
    for name in compiled.names:
        value = params[name] if params is not None and name in params else defaults[name]
        values.append(value if type(value) in _AS_IS else _sqlite_value(value))
    return tuple(values)


def _sqlite_value(value: Any) -> Any:
    if isinstance(value, Rows):
        # Dates as orjson writes them: the statement reads them with datetime() (rowsets.py).
        return orjson.dumps(value.rows, default=_sqlite_value, option=_ROWS_JSON).decode()
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
    if isinstance(value, Rows):
        # Naive datetimes as UTC, as asyncpg binds them to ``timestamptz``; a ``timestamp``
        # (without zone) cast ignores the offset.
        return orjson.dumps(value.rows, option=orjson.OPT_NAIVE_UTC).decode()
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

    async def scalar_planned_for_values(
        self, stmt: Executable, params: Mapping[str, Any] | None = None
    ) -> Any:
        """:meth:`scalar` for a statement whose best plan depends on its values, such as text
        patterns tested row by row (PostgreSQL plans it for them each time: see
        ``storage/postgres.py``)."""
        return await self.scalar(stmt, params)

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

    async def lock_all(self, keys: Sequence[str]) -> None:
        """:meth:`lock` each of ``keys``, in the order given."""
        for key in keys:
            await self.lock(key)

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
    rows = await conn.all(DATA_VERSION)
    return int(rows[0]["version"] or 0) if rows else 0


def sqlite_path(url: str) -> str:
    """The file path of a ``sqlite:///path`` URL (``sqlite:////abs/path`` for absolute)."""
    parts = urlsplit(url)
    path = unquote(parts.path)
    if path.startswith("/"):
        path = path[1:]
    return path or ":memory:"


def postgres_dsn(url: str) -> str:
    """An asyncpg DSN from ``postgresql://`` or ``postgresql+asyncpg://`` URLs."""
    scheme, rest = url.split("://", 1)
    del scheme
    return "postgresql://" + rest


def create_database(url: str, *, pool_size: int = 10, busy_timeout_ms: int = 10_000) -> Database:
    """The database for a ``sqlite:///`` or ``postgresql://`` URL."""
    # The engines build on this module's base classes, so they are imported here, not above.
    if url.startswith("sqlite"):
        from eventcal.storage.sqlite import SQLiteDatabase

        return SQLiteDatabase(url, busy_timeout_ms)
    from eventcal.storage.postgres import PostgresDatabase

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

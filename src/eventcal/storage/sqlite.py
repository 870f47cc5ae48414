"""The embedded SQLite engine: one read and one write connection per process, group commit.

Writers in one process queue on an asyncio lock and the transactions queued together share one
``COMMIT`` (each in its own savepoint, each answered only after the shared commit reached the
disk): see :class:`SQLiteDatabase`. Across processes SQLite's own lock and ``busy_timeout``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

from sqlalchemy.dialects import sqlite as sqlite_dialects
from sqlalchemy.sql.expression import Executable

from eventcal.storage import changes as change_log
from eventcal.storage import wal
from eventcal.storage.db import (
    Connection,
    Database,
    DatabaseUnavailable,
    ForeignKeyViolation,
    Row,
    StorageError,
    UniqueViolation,
    _sqlite_parameters,
    data_version,
    sqlite_path,
)

log = logging.getLogger("eventcal.storage")


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
        return compiled.sql, _sqlite_parameters(compiled, params)

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
        rows = [_sqlite_parameters(compiled, p) for p in params]
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
    """Write transactions that share one SQLite transaction and so one ``COMMIT``: one future
    per member, told the outcome of the ``COMMIT`` as soon as it is known."""

    __slots__ = ("members",)

    def __init__(self) -> None:
        self.members: list[asyncio.Future[None]] = []

    def join(self) -> asyncio.Future[None]:
        """A new member's future (its own: a member cancelled while it waits cancels only
        its own wait)."""
        member: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.members.append(member)
        return member

    def tell(self, failure: Exception | None) -> None:
        for member in self.members:
            if member.done():  # cancelled
                continue
            if failure is None:
                member.set_result(None)
            else:
                member.set_exception(failure)


class SQLiteDatabase(Database):
    """SQLite with group commit.

    A ``COMMIT`` waits for ``fsync`` (``synchronous=FULL``), ~0.2–0.3 ms here, which is a
    large share of a whole create. So the write transactions of this process that are ready to
    run one after the other share a transaction: the first opens it (``BEGIN IMMEDIATE``) and
    schedules the commit; each one runs inside its own savepoint, which an error rolls back
    alone; and each waits for the shared ``COMMIT`` before it returns, so nothing is
    acknowledged before it is durable. The commit runs once the writers that were already
    queued on the event loop have had their turn, so a batch is as large as the queue, never
    waits for more, and a single writer commits at once. The ``COMMIT`` runs in a thread, so
    the event loop serves reads while it waits for the disk, and the writers that arrive
    meanwhile form the next batch. If the ``COMMIT`` fails, every member gets
    :class:`DatabaseUnavailable` and nothing of the batch is written.

    The WAL is checkpointed off the commit path: SQLite would run its automatic checkpoint
    inside the ``COMMIT`` that crosses 1,000 WAL pages, copying them into the database file and
    waiting for a second ``fsync`` before the writers are answered (a two-year daily series
    writes ~2,000 pages: every such create paid a checkpoint). The write connection has it
    off; after a commit that left :data:`~eventcal.storage.wal.CHECKPOINT_FRAMES` frames in
    the WAL not yet copied (SQLite's own rule, read from the wal-index), a ``PASSIVE``
    checkpoint runs in a thread on a connection of its own, started as the members are told,
    while they, readers and the next writers go on. The commit's durability is the WAL's
    ``fsync``, as before.
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
        self._checkpointer: sqlite3.Connection | None = None
        self._checkpoint: asyncio.Future[None] | None = None
        self._wal_index: int | None = None
        """A descriptor of the ``-shm`` file (:mod:`eventcal.storage.wal`)."""
        self.commits = 0
        """``COMMIT`` statements run so far (tests check that writers share them)."""
        self.checkpoints = 0
        """Background WAL checkpoints run so far."""

    async def startup(self) -> None:
        if self._read is None:
            self._read = SQLiteConnection(self, open_sqlite(self.path, self.busy_timeout_ms))
            self._write = SQLiteConnection(self, open_sqlite(self.path, self.busy_timeout_ms))
            self._write.raw.execute("PRAGMA wal_autocheckpoint=0")
            # Every write request runs in a savepoint of its batch, which copies each page it
            # changes to the savepoint's journal first. Past 64 KiB SQLite spills that journal
            # to a temporary file: a create (~55 pages) made ~110 write system calls to
            # /var/tmp (bench/README.md). The read connection keeps the default, so a large
            # sort still spills to a file instead of growing in memory.
            self._write.raw.execute("PRAGMA temp_store=MEMORY")
            self._checkpointer = open_sqlite(self.path, self.busy_timeout_ms)
            self._wal_index = wal.open_index(self.path)

    async def shutdown(self) -> None:
        if self._committer is not None:
            # Never raises: a failed or cancelled commit was told to its members.
            await asyncio.wait([self._committer])
        if self._checkpoint is not None:
            # Read after the commit, which may have started one; never raises (its failures
            # are logged). Its thread uses the connection closed below.
            await asyncio.wait([self._checkpoint])
        for conn in (self._read, self._write):
            if conn is not None:
                conn.raw.close()
        if self._checkpointer is not None:
            self._checkpointer.close()
        if self._wal_index is not None:
            os.close(self._wal_index)
            self._wal_index = None
        self._read = self._write = self._checkpointer = None

    @contextlib.asynccontextmanager
    async def read(self) -> AsyncIterator[Connection]:
        if self._read is None:
            raise DatabaseUnavailable("the database is not open")
        yield self._read

    async def current_version(self) -> int:
        """Read on the read connection itself, without the context of :meth:`read`: every
        GET asks it first."""
        if self._read is None:
            raise DatabaseUnavailable("the database is not open")
        return await data_version(self._read)

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
                    if conn.changes:
                        await conn.execute(
                            change_log.INSERT, change_log.params(conn.changes, version)
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
            committed = batch.join()
        await committed

    def _open_batch(self, conn: SQLiteConnection) -> _Batch:
        try:
            conn.raw.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise DatabaseUnavailable(str(exc)) from exc
        self._batch = _Batch()
        self._committer = asyncio.get_running_loop().create_task(self._commit())
        return self._batch

    async def _commit(self) -> None:
        """Commit the open batch once the writers queued before this task have run.

        The ``COMMIT`` waits for fsync (and now and then a WAL checkpoint): it runs in a
        thread, so reads go on meanwhile; the lock is held, so nothing else uses this
        connection, and writers arriving meanwhile queue for the next batch. The thread hands
        the outcome to the loop itself (``call_soon_threadsafe``), which tells the members at
        once: on a loop busy with reads, every extra hand-over (a task to start, a future to
        chain) costs the writers a whole turn of the loop."""
        async with self._write_lock:
            batch, self._batch = self._batch, None
            assert batch is not None
            assert self._write is not None
            raw = self._write.raw
            if not raw.in_transaction:
                self._settle(batch, DatabaseUnavailable("the write transaction was rolled back"))
                return
            loop = asyncio.get_running_loop()
            told: asyncio.Future[None] = loop.create_future()

            def tell(failure: Exception | None) -> None:  # on the loop
                self._settle(batch, failure)
                if not told.done():
                    told.set_result(None)

            def commit() -> None:  # in the thread
                failure: Exception | None = None
                try:
                    raw.execute("COMMIT")
                except Exception as exc:  # told to the members
                    failure = exc
                loop.call_soon_threadsafe(tell, failure)

            thread = loop.run_in_executor(None, commit)
            try:
                await told
            except asyncio.CancelledError:
                # The connection is the thread's until it has finished; the members are told
                # its outcome all the same (``tell`` runs before the thread's future is done).
                await asyncio.wait([thread])
                raise

    def _start_checkpoint(self) -> None:
        """A background checkpoint once the WAL holds enough frames not yet copied (one at a
        time): a plain future of the executor, which nothing cancels while its thread runs."""
        if self._write is None or self._checkpointer is None:
            return
        if self._checkpoint is not None and not self._checkpoint.done():
            return
        pending = wal.pending_frames(self._wal_index)
        if pending is not None and pending < wal.CHECKPOINT_FRAMES:
            return
        loop = asyncio.get_running_loop()
        self._checkpoint = loop.run_in_executor(None, self._run_checkpoint, self._checkpointer)

    def _run_checkpoint(self, checkpointer: sqlite3.Connection) -> None:
        """In the thread. ``PASSIVE``: copies what no reader still needs, never waits for
        anyone; what it leaves is copied by a later one."""
        try:
            checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error as exc:
            log.warning("WAL checkpoint failed: %s", exc)
        else:
            self.checkpoints += 1

    def _settle(self, batch: _Batch, failure: Exception | None) -> None:
        """Tell the batch's members how its ``COMMIT`` went (a failure rolls it back)."""
        if failure is None:
            self._start_checkpoint()
            self.commits += 1
            batch.tell(None)
            return
        assert self._write is not None
        raw = self._write.raw
        if raw.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                raw.execute("ROLLBACK")
        error = failure if isinstance(failure, DatabaseUnavailable) else None
        batch.tell(error or DatabaseUnavailable(str(failure)))

"""SQLite group commit: writers queued together share one ``COMMIT``, each one's error rolls
back only its own writes, nothing returns before it is durable, and a failed ``COMMIT`` fails
every member of its batch."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from eventcal.storage import migrate
from eventcal.storage.db import DatabaseUnavailable, data_version
from eventcal.storage.sqlite import SQLiteDatabase


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("group-commit") / "template.db"
    migrate.upgrade(f"sqlite:///{path}")
    return path


@pytest.fixture
def path(migrated: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "db.sqlite"
    copy.write_bytes(migrated.read_bytes())
    with sqlite3.connect(copy) as conn:
        conn.execute("CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
        conn.execute(
            "CREATE TABLE child (id INTEGER PRIMARY KEY,"
            " note_id INTEGER NOT NULL REFERENCES note (id))"
        )
    return copy


def notes(path: Path) -> list[str]:
    """What a fresh connection (another process, after a power cut) sees."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return [row[0] for row in conn.execute("SELECT text FROM note ORDER BY id")]


def run(path: Path, scenario: Callable[[SQLiteDatabase], Awaitable[None]]) -> SQLiteDatabase:
    async def main() -> SQLiteDatabase:
        db = SQLiteDatabase(f"sqlite:///{path}")
        await db.startup()
        try:
            await scenario(db)
        finally:
            await db.shutdown()
        return db

    return asyncio.run(main())


async def write(db: SQLiteDatabase, path: Path, text: str, seen: dict[str, list[str]]) -> None:
    async with db.transaction() as conn:
        raw = conn.raw  # type: ignore[attr-defined]
        raw.execute("INSERT INTO note (text) VALUES (?)", (text,))
        if text.startswith("bad"):
            raise ValueError(text)
    # Returned: already durable, visible to any other connection.
    seen[text] = notes(path)


def test_writers_queued_together_share_one_commit_and_each_returns_durable(path: Path) -> None:
    seen: dict[str, list[str]] = {}

    async def scenario(db: SQLiteDatabase) -> None:
        async with db.read() as conn:
            before = await data_version(conn)
        await asyncio.gather(*(write(db, path, f"note {i}", seen) for i in range(5)))
        async with db.read() as conn:
            assert await data_version(conn) == before + 5  # one step per write, as before
        assert db.commits == 1

    db = run(path, scenario)
    assert db.commits == 1
    expected = [f"note {i}" for i in range(5)]
    assert notes(path) == expected
    for text in expected:
        assert text in seen[text]


def test_a_lone_writer_commits_at_once_and_the_next_one_opens_a_new_batch(path: Path) -> None:
    seen: dict[str, list[str]] = {}

    async def scenario(db: SQLiteDatabase) -> None:
        await write(db, path, "first", seen)
        assert seen["first"] == ["first"]
        await write(db, path, "second", seen)
        assert db.commits == 2

    run(path, scenario)
    assert notes(path) == ["first", "second"]


def test_an_error_rolls_back_only_its_own_writes(path: Path) -> None:
    seen: dict[str, list[str]] = {}

    async def scenario(db: SQLiteDatabase) -> None:
        results = await asyncio.gather(
            write(db, path, "good 1", seen),
            write(db, path, "bad 2", seen),
            write(db, path, "good 3", seen),
            return_exceptions=True,
        )
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], ValueError)
        assert db.commits == 1

    run(path, scenario)
    assert notes(path) == ["good 1", "good 3"]
    assert seen["good 3"] == ["good 1", "good 3"]


def test_a_failed_commit_fails_every_member_and_writes_nothing(path: Path) -> None:
    """A deferred foreign key is checked only at ``COMMIT``: the batch's commit fails."""

    async def breaks_at_commit(db: SQLiteDatabase) -> None:
        async with db.transaction() as conn:
            raw = conn.raw  # type: ignore[attr-defined]
            raw.execute("PRAGMA defer_foreign_keys = ON")
            raw.execute("INSERT INTO note (text) VALUES ('broken')")
            raw.execute("INSERT INTO child (note_id) VALUES (999)")

    async def scenario(db: SQLiteDatabase) -> None:
        async with db.read() as conn:
            before = await data_version(conn)
        results = await asyncio.gather(
            write(db, path, "good", {}), breaks_at_commit(db), return_exceptions=True
        )
        assert all(isinstance(r, DatabaseUnavailable) for r in results), results
        assert db.commits == 0
        async with db.read() as conn:
            assert await data_version(conn) == before
        # The next writer starts a clean batch.
        await write(db, path, "after", {})
        assert db.commits == 1

    run(path, scenario)
    assert notes(path) == ["after"]


def test_after_sqlite_rolled_the_batch_back_later_members_write_nothing(path: Path) -> None:
    """Some errors (disk full, I/O) make SQLite roll back the whole transaction: the members
    that join afterwards must not write on their own, and every member fails."""

    async def rolled_back(db: SQLiteDatabase) -> None:
        async with db.transaction() as conn:
            raw = conn.raw  # type: ignore[attr-defined]
            raw.execute("INSERT INTO note (text) VALUES ('lost')")
            raw.execute("ROLLBACK")  # what SQLite does by itself on such an error
            raise sqlite3.OperationalError("disk I/O error")

    async def scenario(db: SQLiteDatabase) -> None:
        results = await asyncio.gather(
            write(db, path, "before", {}),
            rolled_back(db),
            write(db, path, "after", {}),
            return_exceptions=True,
        )
        assert isinstance(results[0], DatabaseUnavailable), results
        assert isinstance(results[1], sqlite3.OperationalError), results
        assert isinstance(results[2], DatabaseUnavailable), results
        assert notes(path) == []
        await write(db, path, "later", {})

    run(path, scenario)
    assert notes(path) == ["later"]


def test_the_commit_runs_off_the_event_loop_thread(path: Path) -> None:
    """A ``COMMIT`` waits for ``fsync``: the loop's thread must stay free for reads meanwhile."""
    commits: list[int] = []

    async def scenario(db: SQLiteDatabase) -> None:
        loop_thread = threading.get_ident()
        assert db._write is not None

        def trace(sql: str) -> None:
            if sql.strip().upper() == "COMMIT":
                commits.append(threading.get_ident())

        db._write.raw.set_trace_callback(trace)
        await asyncio.gather(*(write(db, path, f"note {i}", {}) for i in range(3)))
        await write(db, path, "alone", {})
        assert len(commits) == 2
        assert loop_thread not in commits

    run(path, scenario)
    assert notes(path) == ["note 0", "note 1", "note 2", "alone"]


def test_a_commit_cancelled_in_its_thread_still_tells_its_members(path: Path) -> None:
    """Cancelling the commit task (a worker shutting down) while the ``COMMIT`` runs in its
    thread: the task waits for the thread, each member learns the outcome (no member waits
    for ever) and the connection is free for the next writer afterwards."""
    in_commit = threading.Event()

    def slow_commit(sql: str) -> None:
        if sql.strip().upper() == "COMMIT":
            in_commit.set()
            time.sleep(0.2)  # in the commit's thread: a slow disk

    async def scenario(db: SQLiteDatabase) -> None:
        assert db._write is not None
        db._write.raw.set_trace_callback(slow_commit)
        writer = asyncio.create_task(write(db, path, "note", {}))
        while not in_commit.is_set():
            await asyncio.sleep(0.005)
        assert db._committer is not None
        db._committer.cancel()
        outcome = await asyncio.wait_for(asyncio.gather(writer, return_exceptions=True), 5)
        assert list(outcome) == [None]  # the COMMIT completed in its thread: the write is in
        assert notes(path) == ["note"]
        db._write.raw.set_trace_callback(None)
        await write(db, path, "after", {})

    run(path, scenario)
    assert notes(path) == ["note", "after"]


def checkpoint_of(db: SQLiteDatabase) -> asyncio.Future[None] | None:
    return db._checkpoint


def test_a_large_commit_is_answered_before_the_wal_is_checkpointed(path: Path) -> None:
    """A write of more than 1,000 WAL pages (SQLite's automatic checkpoint would copy them into
    the database file inside its ``COMMIT``) is answered, durable, with the database file as it
    was; the checkpoint follows in the background. Small writes start none."""
    release = threading.Event()
    size = path.stat().st_size

    async def scenario(db: SQLiteDatabase) -> None:
        checkpoint = db._run_checkpoint

        def held(checkpointer: sqlite3.Connection) -> None:  # in the checkpoint's thread
            release.wait(10)
            checkpoint(checkpointer)

        db._run_checkpoint = held  # type: ignore[method-assign]
        try:
            await write(db, path, "small", {})
            assert checkpoint_of(db) is None
            async with db.transaction() as conn:
                raw = conn.raw  # type: ignore[attr-defined]
                raw.executemany("INSERT INTO note (text) VALUES (?)", [("x" * 3000,)] * 1500)
            assert len(notes(path)) == 1501  # answered: durable, seen by any connection
            assert path.stat().st_size == size  # ... from the WAL: nothing copied back yet
        finally:
            release.set()
        started = checkpoint_of(db)
        assert started is not None
        await started
        assert db.checkpoints == 1
        assert path.stat().st_size > size + 1500 * 3000

    run(path, scenario)


class _TimedCommit:
    """The write connection, noting the loop turn at which its ``COMMIT`` returned."""

    def __init__(self, raw: sqlite3.Connection, turns: list[int]) -> None:
        self._raw = raw
        self._turns = turns
        self.returned: int | None = None

    def __getattr__(self, name: str) -> object:
        return getattr(self._raw, name)

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        cursor = self._raw.execute(sql, *args)
        if sql.strip().upper() == "COMMIT":
            self.returned = self._turns[0]
        return cursor


def test_the_checkpoint_waits_for_1000_wal_pages_however_many_rows_changed(path: Path) -> None:
    """SQLite's rule, pages not rows: a batch of group-committed creates changes ~640 rows in
    ~300 pages, and checkpointing after each cost a create ~40 µs more than SQLite did."""

    async def insert(db: SQLiteDatabase, rows: list[tuple[str]]) -> None:
        async with db.transaction() as conn:
            conn.raw.executemany("INSERT INTO note (text) VALUES (?)", rows)  # type: ignore[attr-defined]

    async def scenario(db: SQLiteDatabase) -> None:
        await insert(db, [("x",)] * 2000)  # 2,000 rows in a few pages
        assert checkpoint_of(db) is None
        for _ in range(3):  # ~300 pages each
            await insert(db, [("x" * 3000,)] * 300)
            assert checkpoint_of(db) is None
        await insert(db, [("x" * 3000,)] * 300)  # past 1,000
        started = checkpoint_of(db)
        assert started is not None
        await started
        assert db.checkpoints == 1

    run(path, scenario)


def test_writers_resume_within_a_few_turns_of_the_loop_after_their_commit(path: Path) -> None:
    """On a loop busy with reads every hand-over between the commit's thread and the writers
    (a task to start, a future chained to another) costs them a whole turn of the loop: the
    thread hands the outcome over itself and the writers are told at once."""
    turns = [0]
    waits: list[int] = []

    async def ticker() -> None:
        while True:
            turns[0] += 1
            await asyncio.sleep(0)

    async def scenario(db: SQLiteDatabase) -> None:
        assert db._write is not None
        timed = _TimedCommit(db._write.raw, turns)
        db._write.raw = timed  # type: ignore[assignment]
        ticking = asyncio.create_task(ticker())
        for i in range(5):
            await write(db, path, f"note {i}", {})
            assert timed.returned is not None
            waits.append(turns[0] - timed.returned)
        ticking.cancel()
        db._write.raw = timed._raw

    run(path, scenario)
    assert max(waits) <= 3, waits  # two: the hand-over, then the writer (it was six)


def _temporary_files() -> list[str]:
    """SQLite's temporary files open in this process (it unlinks them as it opens them)."""
    found = []
    for fd in Path("/proc/self/fd").iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            if "etilqs_" in target:
                found.append(target)
    return found


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
def test_a_large_write_keeps_its_savepoint_journal_in_memory(path: Path) -> None:
    # A write request's savepoint copies every page it changes to the savepoint's journal;
    # past 64 KiB SQLite would spill it to a temporary file, a write system call per page.
    with contextlib.closing(sqlite3.connect(path)) as conn, conn:
        conn.executemany("INSERT INTO note (text) VALUES (?)", [("x" * 4000,)] * 200)
    seen: list[list[str]] = []

    async def scenario(db: SQLiteDatabase) -> None:
        async with db.transaction() as conn:
            raw = conn.raw  # type: ignore[attr-defined]
            raw.execute("UPDATE note SET text = 'y' || substr(text, 2)")  # ~800 KB of pages
            seen.append(_temporary_files())

    run(path, scenario)
    assert seen == [[]]
    assert {text[:2] for text in notes(path)} == {"yx"}

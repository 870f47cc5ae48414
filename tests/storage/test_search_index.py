"""SQLite's search index (migration 0015_search) after any sequence of writes: one row per text
(single events, series, occurrences whose text is not their series'), and the search's source
finds every event whose text has the word exactly once, whoever wrote the rows."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy.dialects import sqlite as sqlite_dialect

from eventcal.domains.events import search
from eventcal.storage import migrate
from eventcal.storage.tables import SEARCH_FIELDS, event

WORDS = ("jazz", "blues", "gala", "Night")
TEXTS = st.sampled_from(["", "jazz", "Blues night", "gala jazz", "JAZZ gala", "quiet"])
SOURCE, SOURCE_CONDITIONS = search.source(True)
FOUND = (
    sa.select(event.c.id)
    .select_from(SOURCE)
    .where(*SOURCE_CONDITIONS)
    .compile(dialect=sqlite_dialect.dialect(), compile_kwargs={"render_postcompile": True})
)
"""The events the listing's search starts from (``search.source``) for a word."""
INDEXED = "SELECT rowid FROM event_search WHERE event_search MATCH ?"


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = Path(tmp_path_factory.mktemp("search")) / "search.db"
    migrate.upgrade(f"sqlite:///{path}")
    return path


def _insert(db: sqlite3.Connection, series_id: int | None, texts: tuple[str, ...]) -> int:
    post_id = db.execute("INSERT INTO post (type) VALUES ('event') RETURNING id").fetchone()[0]
    db.execute(
        "INSERT INTO event (id, status, title, excerpt, description, published_at, modified_at,"
        " timezone, start_local, end_local, start_at, end_at, series_id, slug)"
        " VALUES (?, 'publish',"
        " ?, ?, ?, '2026-01-01', '2026-01-01', 'UTC', '2027-01-01', '2027-01-01', '2027-01-01',"
        " '2027-01-01', ?, 'e' || ?)",
        (post_id, *texts, series_id, post_id),
    )
    return int(post_id)


def _apply(
    db: sqlite3.Connection, step: tuple[Any, ...], ids: list[int], masters: list[int]
) -> None:
    kind = step[0]
    if kind == "single":
        ids.append(_insert(db, None, step[1]))
    elif kind == "series":
        # A master, then occurrences copying its text (as the service inserts them).
        master = _insert(db, None, step[1])
        masters.append(master)
        ids.extend(_insert(db, master, step[1]) for _ in range(step[2]))
    elif kind == "text" and ids + masters:
        rows = ids + masters
        column = SEARCH_FIELDS[step[2]]
        db.execute(
            f"UPDATE event SET {column} = ? WHERE id = ?", (step[3], rows[step[1] % len(rows)])
        )
    elif kind == "propagate" and masters:
        # A series edit: the master, then its occurrences in one statement.
        master = masters[step[1] % len(masters)]
        db.execute("UPDATE event SET title = ? WHERE id = ?", (step[2], master))
        db.execute("UPDATE event SET title = ? WHERE series_id = ?", (step[2], master))
    elif kind == "attach" and ids:
        # An occurrence moves to another series, or a single event becomes one, or leaves it.
        series = masters[step[2] % len(masters)] if masters and step[3] else None
        db.execute("UPDATE event SET series_id = ? WHERE id = ?", (series, ids[step[1] % len(ids)]))
    elif kind == "delete" and ids + masters:
        pool = masters if step[2] and masters else ids
        if pool:
            db.execute("DELETE FROM event WHERE id = ?", (pool.pop(step[1] % len(pool)),))


STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("single"), st.tuples(TEXTS, TEXTS, TEXTS)),
        st.tuples(st.just("series"), st.tuples(TEXTS, TEXTS, TEXTS), st.integers(0, 4)),
        st.tuples(st.just("text"), st.integers(0, 99), st.integers(0, 2), TEXTS),
        st.tuples(st.just("propagate"), st.integers(0, 99), TEXTS),
        st.tuples(st.just("attach"), st.integers(0, 99), st.integers(0, 99), st.booleans()),
        st.tuples(st.just("delete"), st.integers(0, 99), st.booleans()),
    ),
    max_size=25,
)


@settings(max_examples=150, derandomize=True, database=None, deadline=None)
@given(steps=STEPS)
def test_search_finds_each_event_with_the_word_once(database: Path, steps: list[Any]) -> None:
    db = sqlite3.connect(database, isolation_level=None)
    db.execute("BEGIN")
    try:
        ids: list[int] = []
        masters: list[int] = []
        for step in steps:
            _apply(db, step, ids, masters)
        rows = db.execute("SELECT id, series_id, title, excerpt, description FROM event").fetchall()
        texts = {row[0]: tuple(row[2:]) for row in rows}
        # One row per text: none for occurrences with their master's text.
        own = {i for i, series, *text in rows if series is None or texts.get(series) != tuple(text)}
        for word in WORDS:
            has = {i for i, t in texts.items() if any(word.lower() in f.lower() for f in t)}
            found = db.execute(FOUND.string, (search.phrase(word),) * 2).fetchall()
            assert sorted(r[0] for r in found) == sorted(has), (word, rows)
            indexed = db.execute(INDEXED, (search.phrase(word),)).fetchall()
            assert sorted(r[0] for r in indexed) == sorted(has & own), (word, rows)
        db.execute("INSERT INTO event_search (event_search, rank) VALUES ('integrity-check', 0)")
    finally:
        db.execute("ROLLBACK")
        db.close()


def test_migrating_merges_the_index_into_one_segment(tmp_path: Path) -> None:
    """0021_create runs FTS5's ``optimize``: a migrated index in many segments (what 0008's
    and 0015's ``rebuild`` left) made every later create pay FTS5's automerge."""
    path = tmp_path / "segments.db"
    migrate.upgrade(f"sqlite:///{path}", "0020_filter_totals")
    with sqlite3.connect(path) as raw:
        for n in range(1, 41):  # one segment per transaction, merged now and then
            raw.execute(
                "INSERT INTO event_search (rowid, title, excerpt, description)"
                " VALUES (?, ?, '', '')",
                (n, f"jazz night {n:03d}"),
            )
            raw.commit()
        segments = "SELECT count(DISTINCT segid) FROM event_search_idx"
        assert raw.execute(segments).fetchone()[0] > 1
    migrate.upgrade(f"sqlite:///{path}")
    with sqlite3.connect(path) as raw:
        assert raw.execute(segments).fetchone()[0] == 1
        found = raw.execute(
            "SELECT rowid FROM event_search WHERE event_search MATCH '\"night 007\"'"
        )
        assert sorted(r[0] for r in found) == [7]

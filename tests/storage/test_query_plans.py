"""The statements on hot paths use indexes (SQLite's plan): no table scan, and the listing page
reads in index order (no sort), so its cost does not grow with the number of events."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.sql.expression import ClauseElement

from eventcal.services import translations
from eventcal.storage import migrate
from eventcal.storage import queries as q
from eventcal.storage.db import _CompileCache, _sqlite_value

NOW = datetime(2026, 11, 22, tzinfo=UTC)
WINDOW = q.EventListFilter(
    statuses=("publish",), start_min=NOW - timedelta(days=1), end_max=NOW + timedelta(days=730)
)


@pytest.fixture(scope="module")
def raw(tmp_path_factory: pytest.TempPathFactory) -> sqlite3.Connection:
    path = Path(tmp_path_factory.mktemp("plans")) / "plans.db"
    migrate.upgrade(f"sqlite:///{path}")
    return sqlite3.connect(path)


def plan(raw: sqlite3.Connection, stmt: ClauseElement, params: dict[str, Any]) -> list[str]:
    compiled = _CompileCache(sqlite_dialect.dialect()).get(stmt)
    values = [_sqlite_value(params.get(n, compiled.defaults.get(n))) for n in compiled.names]
    return [row[3] for row in raw.execute("EXPLAIN QUERY PLAN " + compiled.sql, values)]


IDS = {"ids": [1, 2, 3]}
STATEMENTS = {
    "listing count": (q.event_count_stmt(WINDOW.shape()), WINDOW.params()),
    "listing page": (
        q.event_page_stmt(WINDOW.shape()),
        {**WINDOW.params(), "limit": 10, "offset": 0},
    ),
    "event by id": (q.EVENT_BY_ID, {"id": 1}),
    "venues of a page": (q.VENUES_BY_IDS, IDS),
    "organizers of a page": (q.ORGANIZERS_OF_EVENTS, IDS),
    "terms of a page": (q.TERMS_OF_EVENTS, IDS),
    "media of a page": (q.MEDIA_BY_IDS, IDS),
    "translations of a page": (
        translations._LOAD,
        {"language": "de", "post_ids": [1, 2], "term_ids": [3]},
    ),
    "translated slug": (
        translations._SLUG_OWNERS,
        {"kind": "event", "language": "de", "slug": "x"},
    ),
    "terms by slug": (q.TERMS_BY_SLUGS, {"taxonomy": "post_tag", "slugs": ["a"]}),
    "event ids by slug": (q.EVENT_IDS_BY_SLUG, {"slug": "a"}),
}


@pytest.mark.parametrize("name", list(STATEMENTS))
def test_hot_statements_search_indexes(raw: sqlite3.Connection, name: str) -> None:
    stmt, params = STATEMENTS[name]
    steps = plan(raw, stmt, params)
    scans = [s for s in steps if s.startswith("SCAN") and "json_each" not in s]
    assert not scans, steps
    assert any(s.startswith("SEARCH") for s in steps), steps


def test_the_listing_page_needs_no_sort(raw: sqlite3.Connection) -> None:
    stmt, params = STATEMENTS["listing page"]
    steps = plan(raw, stmt, params)
    assert not [s for s in steps if "TEMP B-TREE" in s], steps
    assert any("ix_event_listing" in s for s in steps), steps

"""The statements on hot paths use indexes (SQLite's plan): no table scan, and the listing page
reads in index order (no sort), so its cost does not grow with the number of events."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

import pytest
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.sql.expression import ClauseElement

from eventcal.collections import REGISTRY
from eventcal.context import Call, Site, Urls
from eventcal.domains.events import left_out, link_pages, links, search, sides
from eventcal.domains.events.listing import LISTING
from eventcal.domains.events.totals import (
    LINKED_COUNTS,
    WINDOW_COUNT,
    SearchOrder,
    window_count_params,
)
from eventcal.http.args import Params
from eventcal.http.request import RequestState
from eventcal.permissions import ANONYMOUS
from eventcal.resources import translations
from eventcal.resources.listing import ListQuery
from eventcal.resources.loading import link_query
from eventcal.resources.posts.rules import statements
from eventcal.storage import migrate
from eventcal.storage import queries as q
from eventcal.storage.db import _CompileCache, _sqlite_value
from eventcal.storage.queries import like_pattern
from eventcal.storage.tables import event

NOW = datetime(2026, 11, 22, tzinfo=UTC)


def window(*words: str) -> ListQuery:
    """The default listing's conditions (published, listed, in the window), with search words
    as the events listing binds them."""
    query = ListQuery(1, 10)
    query.on("listed")
    query.on("status", status="publish")
    query.on("start_min", start_min=NOW - timedelta(days=1))
    query.on("end_max", end_max=NOW + timedelta(days=730))
    if words:
        patterns = {f"word{i}": like_pattern(w) for i, w in enumerate(words)}
        query.on("words", search.Words(len(words), False, False), **patterns)
        indexed = search.indexed_words(words)
        query.values["search_match"] = " AND ".join(search.phrase(w) for w in indexed)
    return query


WINDOW = window()
SEARCH = window("jazz", "ni")


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
    "listing count": (LISTING.count_statement(WINDOW.key), WINDOW.values),
    "listing page": (
        LISTING.page_statement(WINDOW.key, "default"),
        {**WINDOW.values, "limit": 10, "offset": 0},
    ),
    "listing total from the day summary": (WINDOW_COUNT, window_count_params(WINDOW)),
    "search total": (LISTING.count_statement(SEARCH.key, search_index=True), SEARCH.values),
    "search exact total": (
        LISTING.count_statement(SEARCH.key, search_index=True, exact=True),
        SEARCH.values,
    ),
    "search page": (
        LISTING.page_statement(SEARCH.key, SearchOrder(page_index=True, exact=False)),
        {**SEARCH.values, "limit": 10, "offset": 0},
    ),
    "event by id": (statements(event).by_id, {"id": 1}),
    "venues of a page": (link_query(links.VENUE.link, REGISTRY["venues"]), IDS),
    "organizers of a page": (link_query(links.ORGANIZERS.link, REGISTRY["organizers"]), IDS),
    "terms of a page": (link_query(links.EVENT_TERMS, REGISTRY["categories"]), IDS),
    "media of a page": (q.MEDIA_BY_IDS, IDS),
    "translations of a page": (
        translations._LOAD,
        {"language": "de", "ids": [1, 2, 3], "kinds": ["event", "tribe_events_cat"]},
    ),
    "translated slug": (
        translations._SLUG_OWNERS,
        {"kind": "event", "language": "de", "slug": "x"},
    ),
    "terms by slug": (q.TERMS_BY_SLUGS, {"taxonomy": "post_tag", "slugs": ["a"]}),
    "event ids by slug": (statements(event).ids_by_slug, {"slug": "a"}),
}


@pytest.mark.parametrize("name", list(STATEMENTS))
def test_hot_statements_search_indexes(raw: sqlite3.Connection, name: str) -> None:
    stmt, params = STATEMENTS[name]
    steps = plan(raw, stmt, params)
    # json_each: a list parameter; page: the page's own ids (at most ``limit`` rows); constant
    # row: a SELECT without FROM (the total adds up three subqueries).
    # event_search: the FTS5 index, read by MATCH (index ``M``); hits: the events its matches
    # stand for (search.source).
    harmless = ("SCAN page", "SCAN CONSTANT ROW", "SCAN hits")
    scans = [
        s
        for s in steps
        if s.startswith("SCAN")
        and "json_each" not in s
        and "event_search VIRTUAL TABLE INDEX 0:M" not in s
        and s not in harmless
    ]
    assert not scans, steps
    assert any(s.startswith("SEARCH") for s in steps), steps


def plan_tree(raw: sqlite3.Connection, stmt: ClauseElement, params: dict[str, Any]) -> Any:
    """(id, parent id, detail) of every step of SQLite's plan."""
    compiled = _CompileCache(sqlite_dialect.dialect()).get(stmt)
    values = [_sqlite_value(params.get(n, compiled.defaults.get(n))) for n in compiled.names]
    return [(r[0], r[1], r[3]) for r in raw.execute("EXPLAIN QUERY PLAN " + compiled.sql, values)]


def test_the_listing_page_reads_its_ids_from_the_index_in_order(raw: sqlite3.Connection) -> None:
    """The page's ids come from ``ix_event_listing`` alone, in its order (no sort of the window,
    no table row read for the rows of earlier pages); only the page's own rows are then read
    by primary key and put in order."""
    stmt, params = STATEMENTS["listing page"]
    steps = plan_tree(raw, stmt, params)
    (page_id,) = [i for i, _, detail in steps if detail == "MATERIALIZE page"]
    ids_steps = [detail for _, parent, detail in steps if parent == page_id]
    assert ids_steps == [ids_steps[0]], steps
    assert ids_steps[0].startswith("SEARCH event USING COVERING INDEX ix_event_listing "), steps
    assert any("INTEGER PRIMARY KEY" in detail for _, _, detail in steps), steps


def test_the_listing_total_reads_the_summary_and_the_edge_days(raw: sqlite3.Connection) -> None:
    stmt, params = STATEMENTS["listing total from the day summary"]
    steps = plan(raw, stmt, params)
    searches = [s for s in steps if s.startswith("SEARCH")]
    assert any(s.startswith("SEARCH event_day_count USING ") for s in searches), steps
    assert any("COVERING INDEX ix_event_listing " in s for s in searches), steps
    assert any("COVERING INDEX ix_event_listing_end " in s for s in searches), steps


def filtered(name: str, shape: Any = None, **values: Any) -> ListQuery:
    """The default listing narrowed by one of the events listing's filters."""
    query = window()
    query.on(name, shape, **values)
    return query


FILTERS = {
    "venue": filtered("venue", venue_ids=[1, 2]),
    "event status": filtered("event_status", "usual", event_statuses=["scheduled"]),
    "geoloc": filtered("geoloc", (True, False)),
    "geoloc near": filtered(
        "geoloc",
        (None, True),
        lat_min=0.0,
        lat_max=1.0,
        lng_min=0.0,
        lng_max=1.0,
        lat0=0.5,
        lng0=0.5,
        cos_lat=1.0,
        radius_deg2=0.1,
    ),
    "no geoloc": filtered("geoloc", (False, False)),
}


@pytest.mark.parametrize("name", list(FILTERS))
def test_filtered_totals_and_pages_read_no_event_row(raw: sqlite3.Connection, name: str) -> None:
    """A total filtered by venue, venue location or event status is counted in an index alone
    (``ix_event_venue_listing``, led by the venue: 0019_filter_indexes; the event status in
    ``ix_event_listing_end``), and its page's ids in the listing index: the events of the
    window are never read one by one (issue 18), nor the venue once per event."""
    query = FILTERS[name]
    count = plan_tree(raw, LISTING.count_statement(query.key), query.values)
    page = plan_tree(
        raw, LISTING.page_statement(query.key, "default"), {**query.values, "limit": 10}
    )
    (page_id,) = [i for i, _, detail in page if detail == "MATERIALIZE page"]
    page_steps = [(i, p, d) for i, p, d in page if p == page_id]
    counted_in = "ix_event_listing_end " if name == "event status" else "ix_event_venue_listing "
    for steps, index in ((count, counted_in), (page_steps, "ix_event_listing ")):
        reads = [d for _, _, d in steps if d.startswith("SEARCH event ")]
        # One range of the index; two for ``geoloc=0`` (no venue, or an unlocated one).
        assert 1 <= len(reads) <= 2, steps
        assert all(r.startswith(f"SEARCH event USING COVERING INDEX {index}") for r in reads)
        assert not any("CORRELATED" in d for _, _, d in steps), steps


LINKED = {
    "categories": filtered("categories", category_ids=[1, 2]),
    "tags": filtered("tags", tag_ids=[3]),
    "organizer": filtered("organizer", organizer_ids=[4]),
}


@pytest.mark.parametrize("name", list(LINKED))
def test_linked_filters_count_by_id_and_page_in_listing_order(
    raw: sqlite3.Connection, name: str
) -> None:
    """A listing filtered through a link table (terms, organizers) counts the linked events by
    id (the window's columns from ``ix_event_search_row``), never walking every event of the
    window; its page walks ``ix_event_listing`` in start order and stops after its rows, never
    reading the whole window from ``ix_event_listing_end`` to sort it (what SQLite chose once
    both indexes covered as much: 2.7x the plain page)."""
    query = LINKED[name]
    count = plan(raw, LISTING.count_statement(query.key), query.values)
    reads = [d for d in count if d.startswith("SEARCH event ")]
    assert reads == [
        "SEARCH event USING COVERING INDEX ix_event_search_row (id=? AND status=? "
        "AND hide_from_listings=? AND start_at>?)"
    ], count
    page = plan_tree(
        raw, LISTING.page_statement(query.key, "default"), {**query.values, "limit": 10}
    )
    (page_id,) = [i for i, _, detail in page if detail == "MATERIALIZE page"]
    steps = [d for i, p, d in page if p == page_id]
    reads = [d for d in steps if d.startswith("SEARCH event ")]
    assert reads and reads[0].startswith("SEARCH event USING COVERING INDEX ix_event_listing ("), (
        steps
    )
    assert not any("TEMP B-TREE" in d for d in steps), steps


@pytest.mark.parametrize("name", list(LINKED))
def test_one_linked_item_counts_its_summary_and_probes_the_edge_days(
    raw: sqlite3.Connection, name: str
) -> None:
    """One category, tag or organizer: its total reads its rows of ``event_link_day_count``
    (0020_filter_totals) and the edge days' events in the listing indexes, each probed by the
    link's key; a probing page walks ``ix_event_listing`` in order (no sort), probing each
    event; the page's choice reads the summaries' keys (``link_pages``)."""
    query = LINKED[name]
    params = {**window_count_params(query), "link_kind": "term", "linked_id": 1}
    steps = plan(raw, LINKED_COUNTS[name][2], params)
    searches = [d for d in steps if d.startswith(("SEARCH", "SCAN"))]
    link = "event_organizer" if name == "organizer" else "event_term"
    assert any(
        d.startswith("SEARCH event_link_day_count USING INDEX sqlite_autoindex") for d in searches
    )
    assert any("COVERING INDEX ix_event_listing " in d for d in searches), steps
    assert any("COVERING INDEX ix_event_listing_end " in d for d in searches), steps
    assert not any(d.startswith("SCAN event") for d in searches), steps
    assert sum(d.startswith(f"SEARCH {link} USING ") and "event_id=?" in d for d in searches) == 2
    key = frozenset({*(i for i in query.key if i[0] != name), (name, "probe")})
    page = plan_tree(raw, LISTING.page_statement(key, "default"), {**query.values, "limit": 10})
    (page_id,) = [i for i, _, detail in page if detail == "MATERIALIZE page"]
    inner = [d for i, p, d in page if p == page_id]
    assert inner[0].startswith("SEARCH event USING COVERING INDEX ix_event_listing ("), inner
    assert not any("TEMP B-TREE" in d or "LIST SUBQUERY" in d for d in inner), inner
    for statement in (link_pages.FIRST_DAYS, link_pages.WALK):
        steps = plan(raw, statement, {**params, "need": 10, "reached": None})
        assert not any(d.startswith("SCAN event") for d in steps), steps


def test_the_featured_total_reads_its_summary_and_the_edge_days_only(
    raw: sqlite3.Connection,
) -> None:
    """``featured=1`` alone counts from ``event_link_day_count`` (item 1 of 'featured') and the
    edge days: the last day's events are found in ``ix_event_listing_end`` (SQLite would walk
    every featured event after the first day in ``ix_event_featured``)."""
    params = {**window_count_params(WINDOW), "link_kind": "featured", "linked_id": 1}
    steps = plan(raw, LINKED_COUNTS["featured"][2], params)
    searches = [d for d in steps if d.startswith(("SEARCH", "SCAN"))]
    assert any(d.startswith("SEARCH event_link_day_count USING INDEX") for d in searches), steps
    assert any(" INDEX ix_event_listing_end (" in d for d in searches), steps
    edges = [d for d in searches if d.startswith("SEARCH event USING")]
    assert len(edges) == 2 and all("start_at<?" in d or "end_at<?" in d for d in edges), steps


def test_featured_counts_in_the_index_of_featured_events(raw: sqlite3.Connection) -> None:
    """``featured=1`` counts in ``ix_event_featured`` alone, which holds only featured events
    (so series that are not featured add nothing to it): the filter's literal ``featured = 1``
    is what lets SQLite use a partial index. ``featured=0`` reads the listing index."""
    for wanted in (True, False):
        query = prepared({"featured": str(int(wanted))}, {"featured": wanted})
        assert query.active["featured"] is wanted
        full = window()
        full.on("featured", wanted)
        count = plan(raw, LISTING.count_statement(full.key), full.values)
        reads = [d for d in count if d.startswith(("SEARCH event ", "SCAN event"))]
        index = "ix_event_featured " if wanted else "ix_event_listing_end "
        assert len(reads) == 1, count
        assert reads[0].startswith("SEARCH event USING "), count
        assert index in reads[0], count
        assert ("COVERING" in reads[0]) is wanted, count


RARE = {
    "a rare event status": filtered("event_status", "rare", event_statuses=["cancelled"]),
    "the other event statuses": filtered("event_status", "other", event_statuses=["scheduled"]),
    "a rare attendance mode": filtered("attendance_mode", "rare", attendance_modes=["online"]),
    "the other attendance modes": filtered(
        "attendance_mode", "other", attendance_modes=["offline", "mixed"]
    ),
}


@pytest.mark.parametrize("name", list(RARE))
def test_rare_values_count_and_page_in_their_partial_index(
    raw: sqlite3.Connection, name: str
) -> None:
    """Event statuses other than ``scheduled`` (attendance modes other than ``offline``) are
    counted and paged in their partial index (0017_occurrence_indexes), which holds only them:
    the other side of ``event_status=scheduled`` (``sides``), and a rare value asked, never
    walk the window (at 1,000,000 events: 187 ms for ``event_status=scheduled``'s total; a
    page of a value no event has walked the whole window). The filter's literal
    ``<> 'scheduled'`` is what lets SQLite use the partial index."""
    query = RARE[name]
    column = "event_status" if "status" in name else "attendance_mode"
    index = f"ix_event_{column}_start_at"
    requests = prepared({column: "x"}, {column: ["x", "scheduled", "offline"]})
    assert requests.active[column] == "usual"
    assert prepared({column: "x"}, {column: ["cancelled"]}).active[column] == "rare"
    count = plan(raw, LISTING.count_statement(query.key), query.values)
    reads = [d for d in count if d.startswith(("SEARCH event ", "SCAN event"))]
    assert len(reads) == 1 and f"INDEX {index}" in reads[0], count
    bounded = plan(raw, sides._bounded(LISTING, query.key), {**query.values, "cap": 10})
    assert any(f"INDEX {index}" in d for d in bounded), bounded
    page = plan_tree(
        raw, LISTING.page_statement(query.key, "default"), {**query.values, "limit": 10}
    )
    (page_id,) = [i for i, _, detail in page if detail == "MATERIALIZE page"]
    steps = [d for i, p, d in page if p == page_id]
    reads = [d for d in steps if d.startswith(("SEARCH event ", "SCAN event"))]
    assert len(reads) == 1 and f"INDEX {index}" in reads[0], steps


def test_a_featured_page_reads_the_index_of_featured_events(raw: sqlite3.Connection) -> None:
    """A page of ``featured=1`` walks ``ix_event_featured`` in start order (covering, only
    featured events) and stops after its rows: in ``ix_event_listing`` it read each event's row
    until it had its featured ones (~200 rows for page 1 when 5% are featured)."""
    query = window()
    query.on("featured", True)
    page = plan_tree(
        raw, LISTING.page_statement(query.key, "default"), {**query.values, "limit": 10}
    )
    (page_id,) = [i for i, _, detail in page if detail == "MATERIALIZE page"]
    steps = [d for i, p, d in page if p == page_id]
    reads = [d for d in steps if d.startswith(("SEARCH event ", "SCAN event"))]
    assert reads and reads[0].startswith("SEARCH event USING COVERING INDEX ix_event_featured ("), (
        steps
    )
    assert not any("TEMP B-TREE" in d for d in steps), steps


def test_include_reads_its_ids_by_primary_key(raw: sqlite3.Connection) -> None:
    """``include`` ignores the date window: its total and page start from the ids (one
    primary-key read each), never from the index of every published event."""
    query = ListQuery(1, 10)
    query.on("listed")
    query.on("status", status="publish")
    query.on("include", include=[3, 1, 2])
    query.values["included"] = [3, 1, 2]
    count = LISTING.count_statement(query.key, included=True)
    page = LISTING.page_statement(query.key, "included")
    for stmt in (count, page):
        steps = [
            s
            for s in plan(raw, stmt, {**query.values, "limit": 10, "offset": 0})
            if s.startswith(("SCAN", "SEARCH")) and s != "SCAN page"
        ]
        assert steps[0].startswith("SCAN included VIRTUAL TABLE"), steps
        assert steps[1] == "SEARCH event USING INTEGER PRIMARY KEY (rowid=?)", steps
        assert not any("ix_event_listing" in s for s in steps), steps
    assert prepared_include([5, 7]).order == "included"
    assert prepared_include([5, 7]).values["included"] == [5, 7]


def test_search_reads_the_trigram_index(raw: sqlite3.Connection) -> None:
    """Words of 3 characters or more find the events in ``event_search`` (FTS5) first; only
    those rows are read (by id, and occurrences by their series), never the whole window."""
    assert search.indexed_words(("jazz", "ni")) == ["jazz"]  # "ni" is too short for it
    assert SEARCH.values["search_match"] == '"jazz"'
    for name in ("search total", "search page"):
        stmt, params = STATEMENTS[name]
        steps = [s for s in plan(raw, stmt, params) if s.startswith(("SCAN", "SEARCH"))]
        assert steps[0].startswith("SCAN event_search VIRTUAL TABLE INDEX 0:M"), steps
        # A match is its event (by id) and the occurrences sharing its row (by series).
        index = "SEARCH occurrence USING COVERING INDEX ix_event_series_id_start_at (series_id=?)"
        assert index in steps, steps
        assert "SEARCH event USING INTEGER PRIMARY KEY (rowid=?)" in steps, steps
        assert not [
            s
            for s in steps
            if s.startswith("SCAN")
            and "event_search" not in s
            and s not in ("SCAN hits", "SCAN page")
        ], steps
    # An exact total reads the events' conditions from ix_event_search_row, not their rows.
    stmt, params = STATEMENTS["search exact total"]
    steps = [s for s in plan(raw, stmt, params) if s.startswith(("SCAN", "SEARCH"))]
    row_index = "SEARCH event USING INDEX ix_event_search_row (id=?"
    assert any(s.startswith(row_index) for s in steps), steps
    # In another language than the default the words may be in a translation instead.
    assert "search_match" not in prepared_search("jazz", language="de").values
    assert prepared_search("jazz").values["search_match"] == '"jazz"'


def prepared_search(text: str, language: str = "en") -> ListQuery:
    """The events listing's query for ``search=text`` (its own ``prepare``), on SQLite."""
    return prepared({"search": text}, {"search": text}, language)


def prepared_include(ids: list[int]) -> ListQuery:
    """The events listing's query for ``include=ids`` (its own ``prepare``), on SQLite."""
    return prepared({"include": ",".join(map(str, ids))}, {"include": ids})


def prepared(raw: dict[str, Any], parsed: dict[str, Any], language: str = "en") -> ListQuery:
    """The events listing's query for these parameters (as sent and as parsed), on SQLite."""

    class SQLite:
        dialect_name = "sqlite"

        async def scalar(self, *_: object) -> int:
            return 0  # the search index's probes: an empty index (no word is common)

    call = Call(
        conn=cast(Any, SQLite()),
        actor=ANONYMOUS,
        site=Site.build("UTC", 10),
        urls=Urls.build("http://127.0.0.1"),
        now=NOW,
        registry=REGISTRY,
        language=language,
    )
    state = RequestState("GET", {}, raw, call)
    params = Params({"page": 1, "per_page": 10, **parsed}, frozenset(parsed))

    async def prepare() -> ListQuery:
        query: ListQuery = await LISTING.prepare(state, params, REGISTRY["events"])
        return query

    return asyncio.run(prepare())


def test_a_total_from_the_left_out_events_reads_indexes_only(raw: sqlite3.Connection) -> None:
    """``left_out``: the events a listing leaves out are ranges of the listing indexes (and
    the protected events' partial index), the occurrences of matching series come from the
    index of ``series_id``; the window's events are never walked, the index's matches once."""
    query = window("jazz")
    query.values.update(statuses=["publish"], cap=10)
    words = dict(query.active)["words"]
    assert isinstance(words, search.Words)
    statements = (
        left_out._left_out_bound(words.protected, words.count),
        left_out._correction(LISTING, query.key, words.protected, words.count),
    )
    harmless = ("SCAN seen_status", "SCAN left_out", "SCAN left_out_matches", "SCAN CONSTANT ROW")
    for stmt in statements:
        steps = plan(raw, stmt, query.values)
        scans = [
            s
            for s in steps
            if s.startswith("SCAN")
            and "json_each" not in s
            and s not in harmless
            and s != "SCAN event USING INDEX ix_event_protected"
            and not s.startswith("SCAN event_search VIRTUAL TABLE INDEX 0:M")
        ]
        assert not scans, steps
        # The matches are read once, not asked of FTS5 once per left-out id (rowid=?).
        assert not any("event_search VIRTUAL TABLE INDEX 0:=" in s for s in steps), steps
    assert any("ix_event_series_id_start_at (series_id=?" in s for s in steps), steps

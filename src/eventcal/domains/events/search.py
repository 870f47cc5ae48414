"""``search`` of the events listing: every word is a case-insensitive substring of the title,
excerpt or description (``-word`` excludes).

PostgreSQL answers the ILIKE tests from trigram indexes (pg_trgm); SQLite first narrows the
events down with its FTS5 trigram table ``event_search`` (migration 0008), whose matches are a
superset of what the ILIKE tests accept, and the tests still decide. The protected text of
password-protected events is searched only for callers who may read it all (a match would reveal
it: spec README §6.4).
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.compiler import compiles

from eventcal.storage.db import Connection
from eventcal.storage.queries import translated_match
from eventcal.storage.tables import (
    SEARCH_FIELDS,
    SQLITE_SEARCH_ROW_INDEX,
    SQLITE_SEARCH_TABLE,
    event,
)

SQLITE_LISTING_INDEX = "ix_event_listing"
"""The listing's index in start order (``storage.tables``): see :class:`_InListingOrder`."""
_SEARCH_TOKEN = re.compile(r'"([^"]*)"?|([^\s",+]+)')
MAX_SEARCH_WORDS = 12
MIN_INDEXED_WORD = 3
"""The trigram index finds words of 3 characters or more."""
PROBE_CAP = 1000
"""How many index matches of each word :func:`index_query` counts at most."""


def split_search(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Words of a search (quoted phrases kept whole); ``-word`` excludes (WordPress search)."""
    terms: list[str] = []
    excluded: list[str] = []
    for match in _SEARCH_TOKEN.finditer(text):
        phrase, word = match.group(1), match.group(2)
        item = (phrase if phrase is not None else word).strip()
        if not item:
            continue
        if word is not None and item.startswith("-") and len(item) > 1:
            excluded.append(item[1:])
        elif item != "-":
            terms.append(item)
    return tuple(terms[:MAX_SEARCH_WORDS]), tuple(excluded[:MAX_SEARCH_WORDS])


@dataclass(frozen=True, slots=True)
class Words:
    """The shape of a search condition: how many words, and what they may match."""

    count: int
    translated: bool
    """Words also match the request's language's text (a language other than the default)."""
    protected: bool
    """Words also match the description and excerpt of password-protected events."""


def word_match(name: str, translated: bool, protected: bool) -> sa.ColumnElement[bool]:
    """The word bound as ``name`` is in the title, excerpt or description."""
    pattern = sa.bindparam(name, type_=sa.String)
    if protected:
        match = sa.or_(*(event.c[f].ilike(pattern, escape="\\") for f in SEARCH_FIELDS))
        if translated:
            match = sa.or_(match, translated_match("event", event.c.id, SEARCH_FIELDS, [name]))
        return match
    content = ("excerpt", "description")
    title: sa.ColumnElement[bool] = event.c.title.ilike(pattern, escape="\\")
    body = sa.or_(*(event.c[f].ilike(pattern, escape="\\") for f in content))
    if translated:
        title = sa.or_(title, translated_match("event", event.c.id, ("title",), [name]))
        body = sa.or_(body, translated_match("event", event.c.id, content, [name]))
    return sa.or_(title, sa.and_(event.c.post_password == "", body))


def words_condition(words: Words) -> list[sa.ColumnElement[bool]]:
    return [word_match(f"word{i}", words.translated, words.protected) for i in range(words.count)]


def excluded_condition(words: Words) -> list[sa.ColumnElement[bool]]:
    return [
        sa.not_(word_match(f"notword{i}", words.translated, words.protected))
        for i in range(words.count)
    ]


# --- SQLite's search index -----------------------------------------------------------------

SEARCH_INDEX = sa.table(SQLITE_SEARCH_TABLE, sa.column("rowid"), sa.column(SQLITE_SEARCH_TABLE))
"""SQLite's FTS5 trigram index of the events' title, excerpt and description (migration 0008);
the column named like the table stands for the whole row in ``MATCH``."""


class _CrossJoin(sa.Join):
    """``left CROSS JOIN right ON …``: SQLite's documented way to make ``left`` the outer
    loop (its planner never reorders a CROSS JOIN)."""

    inherit_cache = True


class _CrossJoinRowIndex(_CrossJoin):
    """The same, reading the events through ``ix_event_search_row`` (``INDEXED BY``: SQLite
    would rather read each row by its primary key, 2-3× slower for a total)."""

    inherit_cache = True


class _Indexed(sa.Join):
    """``event INDEXED BY <index>`` on SQLite (``event`` elsewhere), for the statements whose
    plan SQLite (which plans without statistics) gets wrong. A join only so that ``event``'s
    columns belong to it; its right side is never rendered."""

    inherit_cache = True
    index: str

    def __init__(self) -> None:
        super().__init__(event, _UNUSED, sa.true())


class _InListingOrder(_Indexed):
    """A page of the listing walks the events in start order and stops after its rows.
    Otherwise SQLite may read the whole window from ``ix_event_listing_end`` and sort it (it did
    for a category's page once that index covered as much: 2.7× the plain page)."""

    inherit_cache = True
    index = SQLITE_LISTING_INDEX


class _ById(_Indexed):
    """A total filtered through a link table (terms, organizers) reads the linked events by id
    (the window's columns are in ``ix_event_search_row``), not every event of the window: a
    category holds a fraction of the events (10,000 events: 2.4 → 0.3 ms)."""

    inherit_cache = True
    index = str(SQLITE_SEARCH_ROW_INDEX.name)


class InIndex(_Indexed):
    """``event INDEXED BY`` the given index (a filter's own: ``totals.FILTER_INDEXES``)."""

    inherit_cache = True

    def __init__(self, index: str) -> None:
        super().__init__()
        self.index = index


class BySeries(_Indexed):
    """The occurrences of given series, read from the index of ``series_id``: SQLite would
    rather walk the window in a listing index and test every event's series."""

    inherit_cache = True
    index = "ix_event_series_id_start_at"


_UNUSED = sa.table("unused")


@compiles(_Indexed)
def _indexed(element: _Indexed, compiler: Any, **kw: Any) -> str:
    kw["asfrom"] = True
    return str(compiler.process(element.left, **kw))


@compiles(_Indexed, "sqlite")
def _indexed_sqlite(element: _Indexed, compiler: Any, **kw: Any) -> str:
    return f"{_indexed(element, compiler, **kw)} INDEXED BY {element.index}"


@compiles(_CrossJoin, "sqlite")
def _cross_join_sqlite(element: _CrossJoin, compiler: Any, **kw: Any) -> str:
    kw["asfrom"] = True
    left = compiler.process(element.left, **kw)
    right = compiler.process(element.right, **kw)
    if isinstance(element, _CrossJoinRowIndex):
        right += f" INDEXED BY {SQLITE_SEARCH_ROW_INDEX.name}"
    return f"{left} CROSS JOIN {right} ON {compiler.process(element.onclause, **kw)}"


_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def phrase(word: str) -> str:
    """An FTS5 string (a phrase of the word's trigrams) in SQLite's ``lower``, as the index
    holds the texts (migration 0015_search): it matches where ``ILIKE '%word%'`` does."""
    return '"' + word.translate(_ASCII_LOWER).replace('"', '""') + '"'


def indexed_words(words: tuple[str, ...]) -> list[str]:
    """The search words the trigram index can find (3 characters or more)."""
    return [w for w in words if len(w) >= MIN_INDEXED_WORD]


_MASTER = event.alias("search_master")
SHARES_ROW = (
    sa.exists()
    .where(
        _MASTER.c.id == event.c.series_id,
        *(_MASTER.c[f] == event.c[f] for f in SEARCH_FIELDS),
    )
    .correlate(event)
)
"""The event is an occurrence with its master's text: it has no row of its own in
``event_search`` and is found through its master's (migration 0015_search)."""


INCLUDED = (
    sa.func.json_each(sa.bindparam("included", type_=sa.String))
    .table_valued("value")
    .alias("included")
)
"""The ids of ``include`` as rows (SQLite): see :func:`source`."""


def source(
    search_index: bool,
    *,
    row_index: bool = False,
    included: bool = False,
    page: bool = False,
    by_id: bool = False,
) -> tuple[sa.FromClause, list[Any]]:
    """The FROM clause of the listing and the conditions it brings: a search with words of 3
    characters or more on SQLite starts from the events whose text contains them all in
    ``event_search``, so it reads only those rows, never the whole window. With ``included``
    (``include``, which ignores the date window, on SQLite) it starts from those ids, one
    primary-key read each; otherwise SQLite estimates the id list longer than the index range
    of every published event and walks that (133 ms at 1,000,000 events). With ``page`` (a
    page's ids, in start order) the plain listing reads ``ix_event_listing``; with ``by_id``
    (a total filtered through a link table) the events are read by id.

    ``event_search`` holds one row per text: an event's own (single events, series, overridden
    occurrences), or a series' for every occurrence that has the series' text. So a matching
    row stands for its event and for the occurrences of its series (read from the index of
    ``series_id``) that share it; each event comes once: by its own row, or else its series'.
    """
    if included:
        return _CrossJoin(INCLUDED, event, event.c.id == INCLUDED.c.value), []
    if not search_index:
        return (_InListingOrder() if page else _ById() if by_id else event), []
    match = SEARCH_INDEX.c[SQLITE_SEARCH_TABLE].match(sa.bindparam("search_match", type_=sa.String))
    occurrence = event.alias("occurrence")
    hits = sa.union_all(
        sa.select(SEARCH_INDEX.c.rowid.label("id"), sa.false().label("shared")).where(match),
        sa.select(occurrence.c.id, sa.true())
        .select_from(
            _CrossJoin(SEARCH_INDEX, occurrence, occurrence.c.series_id == SEARCH_INDEX.c.rowid)
        )
        .where(match),
    ).subquery("hits")
    join = _CrossJoinRowIndex if row_index else _CrossJoin
    joined = join(hits, event, event.c.id == hits.c.id)
    return joined, [sa.or_(hits.c.shared == sa.false(), SHARES_ROW)]


def exact_conditions(words: Words) -> list[sa.ColumnElement[bool]]:
    """What the index's exact matches leave to test (``IndexPlan.exact``): for callers who may
    not read protected text, the words of a password-protected event must be in its title."""
    if words.protected:
        return []
    title = (
        event.c.title.ilike(sa.bindparam(f"word{i}", type_=sa.String), escape="\\")
        for i in range(words.count)
    )
    return [sa.or_(event.c.post_password == "", sa.and_(*title))]


_INDEX_PROBE = sa.select(sa.func.count()).select_from(
    sa.select(SEARCH_INDEX.c.rowid)
    .where(SEARCH_INDEX.c[SQLITE_SEARCH_TABLE].match(sa.bindparam("match", type_=sa.String)))
    .limit(sa.bindparam("cap", type_=sa.Integer))
    .subquery("probe")
)


COMMON = 1000
"""A search whose index query has at least this many matches, and at least one per
:data:`COMMON_SHARE` events (up to :data:`COMMON_MAX`), is common: its page is read in listing
order with the word tests (about ``10 × events / matches`` rows for page 1, so at most ~100 for
page 1 of a word that common) instead of sorting all its matches; its exact total still starts
from the index. At 10,000 events a word in one event of eight (1,250 matches) is common: its
search costs 1.4× the plain page instead of 2.8×."""
COMMON_SHARE = 10
COMMON_MAX = 5000

_EVENTS_BOUND = sa.select(sa.func.max(event.c.id))
"""How many events there are at most (ids are shared with venues, organizers and media: an
upper bound, so a search is common a little later than it could be, never sooner)."""


@dataclass(frozen=True, slots=True)
class IndexPlan:
    match: str
    """The FTS5 query (:func:`index_query`)."""
    common: bool
    """Enough events match it (see :data:`COMMON`)."""
    exact: bool = False
    """It has every word: its matches are exactly the events whose text has them all (as
    ``ILIKE`` tests it; see :func:`phrase`), when every word is indexed."""


async def _matches(conn: Connection, match: str, cap: int) -> int:
    return int(await conn.scalar(_INDEX_PROBE, {"match": match, "cap": cap}) or 0)


async def index_plan(conn: Connection, words: list[str]) -> IndexPlan:
    """How a search uses the index: its FTS5 query, and whether it is common.

    For ``"Summer" AND "gala" AND "9999"`` FTS5 reads much of the list of every word: with
    1,000,000 events 5.7 ms, against 0.2 ms for ``"9999"`` alone (280 events). So each word's
    matches are counted up to :data:`PROBE_CAP` (~0.1 ms each), and when the rarest has fewer,
    the index is asked for that word alone: the ILIKE tests of every word still decide, so the
    result is the same. When every word is common, the index intersects them all, and its
    matches are counted up to the number that makes it common (:data:`COMMON`).
    """
    if len(words) >= 2:
        counts = []
        for word in words:
            counts.append((await _matches(conn, phrase(word), PROBE_CAP), -len(word), word))
        fewest, _, rarest = min(counts)
        if fewest < PROBE_CAP:
            return IndexPlan(phrase(rarest), common=False)
    match = " AND ".join(phrase(word) for word in words)
    events = int(await conn.scalar(_EVENTS_BOUND) or 0)
    common = min(max(COMMON, events // COMMON_SHARE), COMMON_MAX)
    return IndexPlan(match, await _matches(conn, match, common) >= common, exact=True)


async def index_query(conn: Connection, words: list[str]) -> str:
    """The FTS5 query for ``words``: the rarest word alone when one is rare."""
    return (await index_plan(conn, words)).match

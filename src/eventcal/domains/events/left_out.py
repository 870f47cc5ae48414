"""A common search's exact total counted from the other side (SQLite, issue 18).

The default listing with a common word (``jazz`` in one event of eight) has to count every
match of the index that the listing keeps: at 1,000,000 events, 124,862 matches looked up one
by one in ``ix_event_search_row`` (~110 ms). But the listing keeps most events: only those of
other statuses, hidden ones (series masters among them), those outside the window and, for
callers who may not search protected text, protected events whose title lacks a word are
*left out*. When they are few, the total is

    matches of the index − matches among the left-out events
    + occurrences that share the text of a matching series and that the listing keeps

(an occurrence with its series' text has no row of its own in ``event_search``: it is found
through its master's, and masters are hidden, so always left out). The left-out events are
read from the listing's indexes (ranges on status, hidden flag, start and end) and the matches
from the search index alone (no event is looked up per match); it is chosen when the left-out
events are fewer than the matches divided by :data:`RATIO`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import sqlalchemy as sa

from eventcal.domains.events import search
from eventcal.resources.listing import Active, Listing
from eventcal.storage.db import Connection, in_values
from eventcal.storage.queries import other_values
from eventcal.storage.tables import SQLITE_SEARCH_TABLE, UtcDateTime, event

RATIO: float = 2
"""Counted from the other side when the left-out events are fewer than the matches divided by
this. Measured at 1,000,000 events (``jazz``: 124,862 matches; raw ``sqlite3``, CPU): counting
the matches one by one costs ~0.9 µs each; this way costs ~0.2 µs per match (the index read
twice: its count, then its matches tested against the left-out ids) and 0.8-1.4 µs per
left-out event (found in the listing indexes, kept in a temporary index, then probed). When
it is not chosen, the count and the bound were spent for nothing (~10 ms + 0.1 µs × cap)."""

_MATCH = search.SEARCH_INDEX.c[SQLITE_SEARCH_TABLE].match(
    sa.bindparam("search_match", type_=sa.String)
)
_MATCHES = sa.select(sa.func.count()).select_from(search.SEARCH_INDEX).where(_MATCH)


@lru_cache(maxsize=8)
def left_out(protected: bool, word_count: int) -> sa.CompoundSelect[Any]:
    """The ids of the events the default listing leaves out (some more than once)."""
    listed_status = in_values(event.c.status, "statuses", sa.String())
    shown = event.c.hide_from_listings == sa.false()
    arms = [
        sa.select(event.c.id).where(event.c.status.in_(other_values(event.c.status, "statuses"))),
        sa.select(event.c.id).where(listed_status, event.c.hide_from_listings == sa.true()),
        sa.select(event.c.id).where(
            listed_status, shown, event.c.start_at < sa.bindparam("start_min", type_=UtcDateTime)
        ),
        sa.select(event.c.id).where(
            listed_status, shown, event.c.end_at > sa.bindparam("end_max", type_=UtcDateTime)
        ),
    ]
    if not protected:
        # A protected event matches only by its title for these callers (search.exact_conditions).
        arms.append(
            sa.select(event.c.id).where(
                event.c.post_password != sa.literal_column("''"),
                sa.not_(sa.and_(*search.exact_conditions(search.Words(word_count, False, False)))),
            )
        )
    return sa.union_all(*arms)


@lru_cache(maxsize=8)
def _left_out_bound(protected: bool, word_count: int) -> sa.Select[Any]:
    """How many left-out ids there are, counted up to ``cap``."""
    ids = left_out(protected, word_count).limit(sa.bindparam("cap", type_=sa.Integer))
    return sa.select(sa.func.count()).select_from(ids.subquery("left_out"))


@lru_cache(maxsize=64)
def _correction(
    listing: Listing, active: Active, protected: bool, word_count: int
) -> sa.Select[Any]:
    """What to add to the index's matches: the occurrences that share the text of a matching
    left-out master and pass the listing's conditions, minus the matching left-out events.
    ``rowid + 0``: the index's matches are read once and tested against the left-out ids; with
    ``rowid IN`` SQLite would ask FTS5 once per left-out id (~70 µs each at 1,000,000 events)."""
    ids = left_out(protected, word_count)
    matched = (
        sa.select(search.SEARCH_INDEX.c.rowid.label("id"))
        .where(_MATCH, (search.SEARCH_INDEX.c.rowid + 0).in_(ids))
        .cte("left_out_matches")
    )
    words = search.Words(word_count, False, protected)
    shared = (
        sa.select(sa.func.count())
        .select_from(search.BySeries())
        .where(
            event.c.series_id.in_(sa.select(matched.c.id)),
            search.SHARES_ROW,
            *search.exact_conditions(words),
            *listing.where(frozenset(item for item in active if item[0] != "words")),
        )
    )
    removed = sa.select(sa.func.count()).select_from(matched)
    return sa.select(shared.scalar_subquery() - removed.scalar_subquery())


async def count(
    conn: Connection, listing: Listing, active: Active, values: dict[str, Any]
) -> int | None:
    """The exact total counted from the other side, or None when the left-out events are not
    few enough (the caller counts the matches it keeps)."""
    words = dict(active)["words"]
    assert isinstance(words, search.Words)
    statuses = values.get("statuses") or [values["status"]]
    params = {**values, "statuses": list(statuses)}
    matches = int(await conn.scalar(_MATCHES, params))
    cap = int(matches / RATIO)
    bound = _left_out_bound(words.protected, words.count)
    left = int(await conn.scalar(bound, {**params, "cap": cap}))
    if left >= cap:
        return None
    if left == 0:
        return matches  # nothing left out (so no series master either)
    correction = _correction(listing, active, words.protected, words.count)
    return matches + int(await conn.scalar(correction, params))

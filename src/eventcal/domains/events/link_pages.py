"""How a page of the default listing filtered by one category, tag or organizer finds its rows
(issue 18).

The page walks ``ix_event_listing`` in start order. The item's events can be listed first
(``id IN (…)``: ~0.11 µs per linked event at 1,000,000 events, whatever the page: 11 ms for a
category's 100,000) or each event of the window probed for the link (~1 µs per event walked:
a page of an item with a tenth of the events finds its rows after ~10 × its offset). Which is
cheaper depends on how far the window must be walked, which the per-day summaries tell
(``event_link_day_count``, ``event_day_count``: migrations 0007 and 0020): the first start day
by which the item has the page's rows, and how many events of the window start by then. A
skewed item (its events late in the window) is so listed first, never walked to.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from eventcal.storage.db import Connection, in_values
from eventcal.storage.tables import event_day_count, event_link_day_count

FEW = 2000
"""An item with fewer events in the window lists them first without asking the summaries
(listing them costs ~0.2 ms at most, about what the two statements of :func:`probes` cost)."""
PROBE_PER_LISTED = 9
"""A probe costs about as much as listing this many linked events (measured at 1,000,000
events: 1.0 µs against 0.11 µs)."""


_DAYS = event_link_day_count.c
_FIRST_DAY = sa.bindparam("first_day", type_=sa.Date)
_LAST_DAY = sa.bindparam("last_day", type_=sa.Date)
_ITEM = (
    _DAYS.link == sa.bindparam("link_kind", type_=sa.String),
    _DAYS.item_id == sa.bindparam("linked_id", type_=sa.Integer),
    in_values(_DAYS.status, "statuses", sa.String()),
    _DAYS.start_day >= _FIRST_DAY,
    _DAYS.end_day <= _LAST_DAY,
)
FIRST_DAYS = (
    sa.select(_DAYS.start_day, _DAYS.events)
    .where(*_ITEM)
    .order_by(_DAYS.start_day)
    .limit(sa.bindparam("need", type_=sa.Integer))
)
"""The item's first days in the window (each has an event or more, so ``need`` of them hold
at least the page's rows: read in the summary's key order, and only those)."""


def _walk_statement() -> sa.Select[Any]:
    """(the item's events in the window's days, the window's events that start by
    ``reached``)."""
    item = sa.select(sa.func.coalesce(sa.func.sum(_DAYS.events), 0)).where(*_ITEM)
    window = event_day_count.c
    walked = sa.select(sa.func.coalesce(sa.func.sum(window.events), 0)).where(
        in_values(window.status, "statuses", sa.String()),
        window.start_day >= _FIRST_DAY,
        window.start_day <= sa.bindparam("reached", type_=sa.Date),
        window.end_day <= _LAST_DAY,
    )
    return sa.select(item.scalar_subquery().label("item"), walked.scalar_subquery().label("walked"))


WALK = _walk_statement()


async def probes(conn: Connection, params: dict[str, Any]) -> bool:
    """Whether the page (``need``: its offset and size) should probe the window's events for
    the link rather than list the item's events first. ``params``: the window's
    (``totals.window_count_params``), ``link_kind`` and ``linked_id``."""
    found = 0
    for row in await conn.all(FIRST_DAYS, params):
        found += int(row["events"])
        if found >= params["need"]:
            reached = row["start_day"]
            break
    else:
        return False  # the item has fewer events than the page needs: listed first
    walk = await conn.first(WALK, {**params, "reached": reached})
    assert walk is not None
    return int(walk["walked"]) * PROBE_PER_LISTED < int(walk["item"])

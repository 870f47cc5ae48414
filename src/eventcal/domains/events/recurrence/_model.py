"""The values of the recurrence engine: limits, the error, a parsed rule and an occurrence."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, tzinfo
from functools import lru_cache
from typing import Any

from eventcal.timezones import resolve_timezone

FREQUENCIES = ("DAILY", "WEEKLY", "MONTHLY", "YEARLY")
WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
"""RFC 5545 weekday codes; the index is Python's ``weekday()`` (Monday is 0)."""

MAX_LINES = 1000
MAX_LINE_LENGTH = 20_000
MAX_DATES = 1000
"""Per property: at most this many RDATE values, and as many EXDATE values."""
MAX_INTERVAL = 1000
MAX_COUNT = 1_000_000
DEFAULT_LIMIT = 10_000
"""Occurrences a series may make before the horizon (see ``check_limit``)."""


class RecurrenceError(Exception):
    """The client's ``recurrence`` cannot be used.

    ``message`` is an English message id (marked with ``N_``, translated in the catalogs) with
    named placeholders; ``message_args`` fills them (``Exception.args`` keeps its usual meaning).
    """

    def __init__(self, message: str, **message_args: Any) -> None:
        super().__init__(message.format(**message_args))
        self.message = message
        self.message_args = message_args


@dataclass(frozen=True, slots=True)
class Pattern:
    """A validated RRULE. Empty tuples mean the part is absent."""

    freq: str
    interval: int = 1
    count: int | None = None
    until: datetime | None = None
    """Inclusive, an aware UTC instant. For all-day series: the end (23:59:59) of the last day
    in the event's zone."""
    bymonth: tuple[int, ...] = ()
    bymonthday: tuple[int, ...] = ()
    byday: tuple[tuple[int, int], ...] = ()
    """(weekday, ordinal) pairs; ordinal 0 means every such weekday of the period."""
    bysetpos: tuple[int, ...] = ()
    wkst: int = 0


@dataclass(frozen=True, slots=True)
class Rule:
    """A normalised recurrence, bound to the series start it was parsed with.

    ``lines`` is what to store and show; the other fields are what the functions of this package
    need. Parse the lines again when the event's start, time zone or all-day flag change.
    """

    lines: tuple[str, ...]
    start: datetime
    """The first occurrence's nominal start: naive wall-clock in the event's zone (00:00:00 for
    all-day series)."""
    zone_name: str
    all_day: bool
    pattern: Pattern | None
    rdates: tuple[datetime, ...]
    """Nominal starts added to the series (naive, event zone), sorted and unique."""
    exdates: tuple[datetime, ...]
    """Nominal starts removed from the series, sorted and unique."""

    @property
    def zone(self) -> tzinfo:
        return _zone(self.zone_name)


@lru_cache(maxsize=64)
def _zone(name: str) -> tzinfo:
    """A rule's zone (an expansion asks for it per occurrence: resolved once per name)."""
    zone = resolve_timezone(name)
    assert zone is not None
    return zone


@dataclass(frozen=True, slots=True)
class Occurrence:
    """One occurrence of a series.

    ``original`` is its identity: the nominal start the rule gives it (naive, event zone), which
    stays the same when other occurrences are edited or cancelled. ``start_local``/``end_local``
    are the wall-clock times shown (naive, event zone); they differ from the nominal time only
    when that falls in a daylight-saving gap (02:30 on a spring-forward day shows 03:30).
    ``start_at``/``end_at`` are aware UTC instants.
    """

    original: datetime
    start_local: datetime
    end_local: datetime
    start_at: datetime
    end_at: datetime

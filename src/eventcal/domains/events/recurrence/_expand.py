"""Expansion: a Rule's occurrences before a horizon, computed by python-dateutil's ``rrule``.

The series is DTSTART (always its first occurrence, RFC 5545 §3.3.10: "The DTSTART property
value always counts as the first occurrence", so COUNT includes it even when it does not match
the rule), the RRULE's occurrences (COUNT, UNTIL), plus RDATEs, minus EXDATEs, without
duplicates (two nominal times with the same instant are one occurrence). dateutil iterates
naive nominal times; instants are computed afterwards (see ``_values``).

dateutil checks UNTIL only against the candidates a rule produces, so a rule that produces none
(``FREQ=DAILY;INTERVAL=7;BYDAY=TU`` from a Monday, ``FREQ=MONTHLY;BYDAY=1MO;BYMONTHDAY=15``)
runs to year 9999 however close UNTIL is: seconds of CPU for a DAILY rule. So dateutil computes
a translated copy of the series: the whole computation moves forward by as many years as keep
every year of the needed span on a year with the same calendar (leap year and weekday of
1 January; any multiple of 400 years does), landing as close to 9999 as possible. dateutil's own
stop at its MAXYEAR then comes within a few decades of the horizon, and the results are moved
back. Occurrences the datetime type cannot represent end the series.
"""

from __future__ import annotations

import calendar
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from functools import lru_cache

from dateutil import rrule as dateutil_rrule  # type: ignore[import-untyped]

from eventcal.domains.events.recurrence._model import (
    DEFAULT_LIMIT,
    Occurrence,
    RecurrenceError,
    Rule,
)
from eventcal.domains.events.recurrence._values import (
    END_OF_DAY,
    instant,
    nominal_bound,
    wall_clock,
)
from eventcal.i18n import N_

_FREQUENCIES = {
    "DAILY": dateutil_rrule.DAILY,
    "WEEKLY": dateutil_rrule.WEEKLY,
    "MONTHLY": dateutil_rrule.MONTHLY,
    "YEARLY": dateutil_rrule.YEARLY,
}
_LAST_YEAR = 9998
"""The latest year a translated span may reach: dateutil may step a week into the next year."""


@lru_cache(maxsize=10_000)
def _calendar(year: int) -> tuple[bool, int]:
    return calendar.isleap(year), date(year, 1, 1).weekday()


@lru_cache(maxsize=1024)
def _translation(first: int, last: int) -> int:
    """Years to add to every year from ``first`` to ``last`` (one more on each side) so that
    each lands on a year with the same calendar, as late as possible; 0 when none fits."""
    low, high = max(first - 1, 1), last + 1
    for delta in range(_LAST_YEAR - high, 0, -1):
        if all(_calendar(year) == _calendar(year + delta) for year in range(low, high + 1)):
            return delta
    return 0


def _moved(value: datetime, years: int) -> datetime:
    return value.replace(year=value.year + years)


def _pattern_starts(rule: Rule, bound: datetime) -> Iterator[datetime]:
    """The RRULE's nominal starts from DTSTART on, ascending, through ``bound`` (nominal)."""
    pattern = rule.pattern
    assert pattern is not None
    delta = _translation(rule.start.year, bound.year)
    engine = dateutil_rrule.rrule(
        _FREQUENCIES[pattern.freq],
        dtstart=_moved(rule.start, delta),
        interval=pattern.interval,
        wkst=pattern.wkst,
        until=_moved(bound, delta),
        bymonth=pattern.bymonth or None,
        bymonthday=pattern.bymonthday or None,
        byweekday=[dateutil_rrule.weekday(day, ordinal or None) for day, ordinal in pattern.byday]
        or None,
        bysetpos=pattern.bysetpos or None,
        cache=False,
    )
    iterator = iter(engine)
    while True:
        try:
            value: datetime = next(iterator)
        except StopIteration:
            return
        except (ValueError, OverflowError):  # dateutil stepped past year 9999
            return
        yield _moved(value, -delta)


def _at(original: datetime, rule: Rule) -> datetime | None:
    try:
        return instant(original, rule.zone)
    except OverflowError:
        return None


def rule_set(rule: Rule, bound: datetime) -> Iterator[datetime]:
    """Nominal starts of DTSTART and the RRULE (COUNT and UNTIL applied; EXDATEs not), in
    order, through the nominal ``bound``."""
    if rule.start > bound:
        return
    yield rule.start
    pattern = rule.pattern
    if pattern is None:
        return
    left = None if pattern.count is None else pattern.count - 1
    if left == 0:
        return
    if pattern.until is not None:
        bound = min(bound, nominal_bound(pattern.until, rule.zone))
    for value in _pattern_starts(rule, bound):
        if value == rule.start:
            continue
        moment = _at(value, rule)
        if moment is None:
            return
        if pattern.until is not None and moment > pattern.until:
            continue
        yield value
        if left is not None:
            left -= 1
            if left == 0:
                return


def _excluded(rule: Rule) -> set[datetime]:
    return {moment for value in rule.exdates if (moment := _at(value, rule)) is not None}


def _too_many(limit: int, until: datetime) -> RecurrenceError:
    return RecurrenceError(
        N_("The rule makes more than {limit} occurrences before {horizon}"),
        limit=limit,
        horizon=until.date().isoformat(),
    )


_RECENT: dict[tuple[Rule, datetime], list[tuple[datetime, datetime]]] = {}
"""The last few complete expansions: a write checks the rule's limit, then materialises the
same rule up to the same horizon (the same list, so it is computed once)."""
RECENT_SIZE = 8


def _starts(rule: Rule, until: datetime, limit: int | None) -> list[tuple[datetime, datetime]]:
    """(instant, original) of the occurrences starting before ``until``, by instant (a
    complete expansion is the same whatever ``limit`` was: it is remembered)."""
    key = (rule, until)
    known = _RECENT.get(key)
    if known is None:
        known = _expansion(rule, until, limit)
        if len(_RECENT) >= RECENT_SIZE:
            del _RECENT[next(iter(_RECENT))]
        _RECENT[key] = known
    if limit is not None and len(known) > limit:
        raise _too_many(limit, until)
    return known


def _expansion(rule: Rule, until: datetime, limit: int | None) -> list[tuple[datetime, datetime]]:
    excluded = _excluded(rule)
    found: dict[datetime, datetime] = {}
    for original in rule_set(rule, nominal_bound(until, rule.zone)):
        moment = _at(original, rule)
        if moment is None:
            break
        if moment < until and moment not in excluded and moment not in found:
            found[moment] = original
            if limit is not None and len(found) > limit:
                raise _too_many(limit, until)
    for original in rule.rdates:
        moment = _at(original, rule)
        if moment is not None and moment < until and moment not in excluded:
            found.setdefault(moment, original)
    if limit is not None and len(found) > limit:
        raise _too_many(limit, until)
    return sorted(found.items())


def _occurrence(rule: Rule, original: datetime, moment: datetime, end: datetime) -> Occurrence:
    """The occurrence at ``original``; ``end`` is the first occurrence's end (nominal)."""
    zone = rule.zone
    if rule.all_day:
        days = max((end.date() - rule.start.date()).days, 0)
        last = datetime.combine(original.date() + timedelta(days=days), END_OF_DAY)
        return Occurrence(original, original, last, moment, instant(last, zone))
    shown = wall_clock(moment, zone)
    end_at = instant(shown + max(end - rule.start, timedelta(0)), zone)
    return Occurrence(original, shown, wall_clock(end_at, zone), moment, end_at)


def expand(
    rule: Rule, *, end_local: datetime, until: datetime, limit: int | None = None
) -> list[Occurrence]:
    """Every occurrence starting before ``until`` (an aware instant), by start.

    ``end_local`` is the event's end (naive wall-clock): each occurrence lasts as long on the
    wall clock (10:00-11:00 stays 10:00-11:00 across DST changes; an all-day series keeps its
    number of days, ending at 23:59:59). An occurrence whose nominal start falls in a DST gap
    starts at the instant RFC 5545 gives it and shows that instant's wall-clock time (02:30 →
    03:30), keeping its length. With ``limit``, raises RecurrenceError when more than ``limit``
    occurrences start before ``until``; counting stops there.

    The work grows with the window from the series start to ``until`` (one dateutil step per
    period: per day for a DAILY rule), so callers expand up to a horizon, not to year 9999.
    """
    occurrences = []
    for moment, original in _starts(rule, until, limit):
        try:
            occurrences.append(_occurrence(rule, original, moment, end_local))
        except OverflowError:
            break
    return occurrences


def check_limit(rule: Rule, *, until: datetime, limit: int = DEFAULT_LIMIT) -> None:
    """Raise RecurrenceError when more than ``limit`` occurrences start before ``until``;
    counting stops at ``limit + 1``."""
    _starts(rule, until, limit)


def is_finite(rule: Rule) -> bool:
    """Whether the series ends (COUNT, UNTIL, or dates only) rather than going on forever."""
    return rule.pattern is None or rule.pattern.count is not None or rule.pattern.until is not None


def continues_after(rule: Rule, moment: datetime) -> bool:
    """Whether the series may have occurrences starting at or after ``moment`` (an instant):
    what a scheduler asks before extending the materialised occurrences past a horizon.

    Never False for a series that has such occurrences; True for a rule without COUNT or UNTIL
    even when it happens to produce nothing more (extending it finds nothing, cheaply).
    """
    excluded = _excluded(rule)
    for original in (rule.start, *rule.rdates):
        at = _at(original, rule)
        if at is not None and at >= moment and at not in excluded:
            return True
    pattern = rule.pattern
    if pattern is None:
        return False
    if pattern.until is not None:
        return pattern.until >= moment
    if pattern.count is not None:
        earlier = 0
        for original in rule_set(rule, nominal_bound(moment, rule.zone)):
            at = _at(original, rule)
            earlier += at is not None and at < moment
        return earlier < pattern.count
    return True

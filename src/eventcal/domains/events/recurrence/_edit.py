"""Edits of a series: cancel one occurrence, split the series in two ("this and following").

Occurrences are named by ``original``, their nominal start (see ``Occurrence``). The results
are normalised Rules, None when what remains is a single event.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime, time, timedelta

from eventcal.domains.events.recurrence._expand import rule_set
from eventcal.domains.events.recurrence._lines import make_rule
from eventcal.domains.events.recurrence._model import RecurrenceError, Rule
from eventcal.domains.events.recurrence._values import end_of_day, instant
from eventcal.i18n import N_


def _nominal(rule: Rule, original: datetime) -> datetime:
    original = original.replace(microsecond=0, tzinfo=None)
    return datetime.combine(original.date(), time()) if rule.all_day else original


def _after_start(rule: Rule, original: datetime) -> None:
    if original <= rule.start:
        raise RecurrenceError(N_("A series cannot be split at its first occurrence"))


def _shown(rule: Rule, original: datetime) -> str:
    return original.date().isoformat() if rule.all_day else original.isoformat(" ")


def without(rule: Rule, original: datetime) -> Rule:
    """The rule with the occurrence at ``original`` cancelled (an EXDATE added)."""
    return make_rule(
        start=rule.start,
        zone_name=rule.zone_name,
        all_day=rule.all_day,
        pattern=rule.pattern,
        rdates=rule.rdates,
        exdates=(*rule.exdates, _nominal(rule, original)),
    )


def until_before(rule: Rule, original: datetime) -> Rule | None:
    """The series ending just before ``original`` (the old half of a split).

    The RRULE gets an UNTIL one second before that occurrence (for all-day series: the day
    before); a COUNT rule becomes an UNTIL rule unless its count runs out earlier anyway.
    RDATEs and EXDATEs from ``original`` on are dropped: they belong to the new series.
    """
    original = _nominal(rule, original)
    _after_start(rule, original)
    zone = rule.zone
    cut = instant(original, zone)
    start_at = instant(rule.start, zone)
    if rule.all_day:
        until = end_of_day(original - timedelta(days=1), zone)
    else:
        until = max(cut - timedelta(seconds=1), start_at)
    pattern = rule.pattern
    if pattern is not None and (pattern.until is None or pattern.until > until):
        earlier = sum(1 for value in rule_set(rule, original) if instant(value, zone) < cut)
        if pattern.count is None or earlier < pattern.count:
            pattern = dataclasses.replace(pattern, count=None, until=until)
    rdates = [value for value in rule.rdates if instant(value, zone) < cut]
    if pattern is None and not rdates:
        return None
    return make_rule(
        start=rule.start,
        zone_name=rule.zone_name,
        all_day=rule.all_day,
        pattern=pattern,
        rdates=rdates,
        exdates=[value for value in rule.exdates if instant(value, zone) < cut],
    )


def starting_at(rule: Rule, original: datetime) -> Rule | None:
    """The series from ``original`` on (the new half of a split), whose start is ``original``.

    A COUNT rule keeps the occurrences it has left (the two halves add up to the old COUNT);
    UNTIL, RDATEs and EXDATEs after ``original`` stay. ``original`` must be an occurrence; an
    added date (RDATE) only when the rule has nothing after it, because a rule's times and
    weekdays come from its start.
    """
    original = _nominal(rule, original)
    _after_start(rule, original)
    zone = rule.zone
    cut = instant(original, zone)
    if cut in {instant(value, zone) for value in rule.exdates}:
        raise RecurrenceError(
            N_("{original} is not an occurrence of this series"), original=_shown(rule, original)
        )
    pattern = rule.pattern
    members = list(rule_set(rule, original))
    if pattern is not None and members[-1] == original:
        if pattern.count is not None:
            pattern = dataclasses.replace(pattern, count=pattern.count - (len(members) - 1))
    elif original in rule.rdates:
        if pattern is not None and _goes_on(rule, members, cut):
            raise RecurrenceError(
                N_("A series cannot be split at an added date ({original}) while its rule goes on"),
                original=_shown(rule, original),
            )
        pattern = None
    else:
        raise RecurrenceError(
            N_("{original} is not an occurrence of this series"), original=_shown(rule, original)
        )
    rdates = [value for value in rule.rdates if instant(value, zone) > cut]
    if pattern is None and not rdates:
        return None
    return make_rule(
        start=original,
        zone_name=rule.zone_name,
        all_day=rule.all_day,
        pattern=pattern,
        rdates=rdates,
        exdates=[value for value in rule.exdates if instant(value, zone) > cut],
    )


def _goes_on(rule: Rule, members: list[datetime], cut: datetime) -> bool:
    """Whether the RRULE may make occurrences after ``cut``, given its ``members`` up to it."""
    pattern = rule.pattern
    assert pattern is not None
    if pattern.until is not None and pattern.until < cut:
        return False
    return pattern.count is None or len(members) < pattern.count

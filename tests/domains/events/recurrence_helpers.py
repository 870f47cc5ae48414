"""Shared by the recurrence tests: a parsed rule, its occurrences, dates written briefly."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from eventcal.domains.events import recurrence
from eventcal.domains.events.recurrence import Occurrence, Rule

BERLIN = "Europe/Berlin"
NEW_YORK = "America/New_York"
MONDAY = datetime(2027, 1, 4, 10, 0)
"""Monday 4 January 2027, 10:00: the start of most series below."""
HORIZON = datetime(2029, 1, 1, tzinfo=UTC)


def rule_of(
    lines: object, start: datetime = MONDAY, zone: str = BERLIN, *, all_day: bool = False
) -> Rule:
    rule = recurrence.parse(lines, start_local=start, zone_name=zone, all_day=all_day)
    assert rule is not None
    return rule


def occurrences(
    rule: Rule, *, end: datetime | None = None, until: datetime = HORIZON
) -> list[Occurrence]:
    return recurrence.expand(rule, end_local=end or rule.start + timedelta(hours=1), until=until)


def starts(rule: Rule, until: datetime = HORIZON) -> list[datetime]:
    return [item.start_local for item in occurrences(rule, until=until)]


def days(*values: str) -> list[datetime]:
    """``"01-04"`` → 2027-01-04 10:00; ``"2028-01-04"`` and ``"01-20 15:00"`` also read."""
    result = []
    for value in values:
        day, _, clock = value.partition(" ")
        full = day if len(day) > 5 else f"2027-{day}"
        result.append(datetime.fromisoformat(f"{full} {clock or '10:00'}"))
    return result


def originals(rule: Rule | None) -> list[datetime]:
    assert rule is not None
    return [item.original for item in occurrences(rule)]

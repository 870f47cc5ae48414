"""The calendar's geometry: which days a view shows, which days an event covers, and the
previous/next dates of each view. Pure functions of dates (no I/O, no language)."""

from __future__ import annotations

import calendar
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

VIEWS = ("month", "week", "day", "list")
FIRST_WEEKDAY = 0
"""Weeks start on Monday (ISO 8601), in every language the pages speak."""


@dataclass(slots=True)
class Day:
    """One day of a view with the events that cover it (in their start order)."""

    date: date
    in_month: bool = True
    events: list[dict[str, Any]] = field(default_factory=list)


def local_datetime(text: str) -> datetime:
    """``2026-11-24 10:00:00`` (an event's local time as its JSON writes it)."""
    return datetime.fromisoformat(text)


def covered_days(event: dict[str, Any]) -> tuple[date, date]:
    """The first and last day an event covers, in its own zone. An end at midnight belongs
    to the day before (an event 20:00–00:00 is on one day), unless it also starts then."""
    start = local_datetime(event["start_date"])
    end = local_datetime(event["end_date"])
    last = end.date()
    if end.time() == datetime.min.time() and end > start:
        last = (end - timedelta(seconds=1)).date()
    return start.date(), max(last, start.date())


def month_days(day: date) -> list[Day]:
    """The weeks of the month of ``day``, whole weeks (days of the months around marked)."""
    weeks = calendar.Calendar(FIRST_WEEKDAY).monthdatescalendar(day.year, day.month)
    return [Day(d, d.month == day.month) for week in weeks for d in week]


def week_days(day: date) -> list[Day]:
    first = day - timedelta(days=(day.weekday() - FIRST_WEEKDAY) % 7)
    return [Day(first + timedelta(days=i)) for i in range(7)]


def view_days(view: str, day: date) -> list[Day]:
    """The days a grid view shows (the list view has none of its own)."""
    if view == "month":
        return month_days(day)
    if view == "week":
        return week_days(day)
    return [Day(day)]


def place(days: list[Day], events: list[dict[str, Any]]) -> None:
    """Put each event on every day of ``days`` it covers (multi-day events on each)."""
    if not days:
        return
    index = {d.date: d for d in days}
    first, last = days[0].date, days[-1].date
    for event in events:
        start, end = covered_days(event)
        current = max(start, first)
        stop = min(end, last)
        while current <= stop:
            index[current].events.append(event)
            current += timedelta(days=1)


def shift(view: str, day: date, steps: int) -> date:
    """The date ``steps`` views before or after (months keep the day within the month)."""
    if view == "month":
        month = day.month - 1 + steps
        year = day.year + month // 12
        month = month % 12 + 1
        if not date.min.year <= year <= date.max.year:
            return day
        return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))
    span = 7 if view == "week" else 1
    try:
        return day + timedelta(days=span * steps)
    except OverflowError:
        return day


def group_by_day(events: list[dict[str, Any]]) -> list[Day]:
    """The list view: events under the day they start on, days in order."""
    days: dict[date, Day] = {}
    for event in events:
        start, _ = covered_days(event)
        days.setdefault(start, Day(start)).events.append(event)
    return [days[d] for d in sorted(days)]

"""Recurring events: RFC 5545 recurrence lines, validated, normalised, expanded and described.

An event's ``recurrence`` is a list of lines as in Google Calendar's API: at most one ``RRULE``
plus ``RDATE`` and ``EXDATE`` lines. The event's own start and end are the first occurrence;
the others keep its wall-clock time of day and its length in the event's zone. Pure functions,
no database; python-dateutil's ``rrule`` does the expansion.

- :func:`parse` — client lines → :class:`Rule` (normalised ``lines``) or None (single event).
- :func:`check_limit` — refuse a rule that makes too many occurrences before the horizon.
- :func:`expand` — the :class:`Occurrence` list before a horizon, ``original`` as identity.
- :func:`is_finite`, :func:`continues_after` — whether a scheduler must extend the horizon.
- :func:`without`, :func:`until_before`, :func:`starting_at` — cancel one occurrence, split.
- :func:`describe` — the human sentence (en/de/es).

Every refusal is a :class:`RecurrenceError` with a translatable message.
"""

from eventcal.domains.events.recurrence._describe import describe
from eventcal.domains.events.recurrence._edit import starting_at, until_before, without
from eventcal.domains.events.recurrence._expand import (
    check_limit,
    continues_after,
    expand,
    is_finite,
)
from eventcal.domains.events.recurrence._model import (
    DEFAULT_LIMIT,
    MAX_COUNT,
    MAX_DATES,
    MAX_INTERVAL,
    MAX_LINE_LENGTH,
    MAX_LINES,
    Occurrence,
    Pattern,
    RecurrenceError,
    Rule,
)
from eventcal.domains.events.recurrence._parse import parse

__all__ = [
    "DEFAULT_LIMIT",
    "MAX_COUNT",
    "MAX_DATES",
    "MAX_INTERVAL",
    "MAX_LINES",
    "MAX_LINE_LENGTH",
    "Occurrence",
    "Pattern",
    "RecurrenceError",
    "Rule",
    "check_limit",
    "continues_after",
    "describe",
    "expand",
    "is_finite",
    "parse",
    "starting_at",
    "until_before",
    "without",
]

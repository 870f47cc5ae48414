"""What a write of an event sets for its series: the rule (validated and limited) and whether
the master is listed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from eventcal.context import Call
from eventcal.domains.events import recurrence as rules
from eventcal.domains.events.series._model import (
    horizon,
    refused,
)
from eventcal.errors import invalid
from eventcal.http.args import Invalid
from eventcal.i18n import N_
from eventcal.storage.db import Row, as_local

# --- what a write of an event sets -----------------------------------------------------------


def lines(value: Any, state: Any) -> list[str]:
    """``recurrence`` as sent: RFC 5545 lines (a list, or one string of lines); ``[]``, ``""``
    and ``null`` mean a single event. The lines themselves are read with the event's dates."""
    if value is None or value in ("", []):
        return []
    if isinstance(value, str):
        return value.splitlines()
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        if len(value) > rules.MAX_LINES:
            raise Invalid(N_("{param} has more than {max} items."), max=rules.MAX_LINES)
        return list(value)
    raise Invalid(N_("{param} must be a list of RFC 5545 lines (RRULE, RDATE, EXDATE)."))


def columns(
    call: Call, sent: Mapping[str, Any], current: Row | None, dates: Mapping[str, Any]
) -> dict[str, Any]:
    """The series columns of a write: its rule, read with its dates (validated and limited),
    and whether it is listed (a series' master never is; ``series_hidden`` keeps the series'
    own ``hide_from_listings``)."""
    if current is not None and current["series_id"] is not None:
        if "recurrence" in sent:
            raise invalid(
                "recurrence",
                N_("An occurrence has no rule of its own: send recurrence with scope=all."),
            )
        return {}
    stored = str(current["recurrence"]) if current is not None else ""
    values: dict[str, Any] = {}
    if "recurrence" in sent or (stored and dates):
        wanted = sent["recurrence"] if "recurrence" in sent else stored.split("\n")
        values["recurrence"] = _rule_text(call, wanted, current, dates)
    recurring = bool(values.get("recurrence", stored))
    if "hide_from_listings" in sent:
        hidden = bool(sent["hide_from_listings"])
    elif current is None:
        hidden = False
    else:
        hidden = bool(current["series_hidden"] if stored else current["hide_from_listings"])
    if recurring:
        values.update(hide_from_listings=True, series_hidden=hidden)
    elif stored:
        values.update(hide_from_listings=hidden, series_hidden=False)
    return values


def _rule_text(
    call: Call, wanted: Sequence[str], current: Row | None, dates: Mapping[str, Any]
) -> str:
    def value(name: str) -> Any:
        if name in dates:
            return dates[name]
        assert current is not None
        return current[name]

    try:
        rule = rules.parse(
            list(wanted),
            start_local=as_local(value("start_local")),
            zone_name=str(value("timezone")),
            all_day=bool(value("all_day")),
        )
        if rule is not None:
            rules.check_limit(rule, until=horizon(call), limit=call.site.recurrence_limit)
    except rules.RecurrenceError as error:
        raise refused(error) from None
    return "\n".join(rule.lines) if rule is not None else ""

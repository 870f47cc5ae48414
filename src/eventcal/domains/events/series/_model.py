"""A series' master row: which fields its occurrences copy, its rule, its horizon."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from eventcal.context import Call
from eventcal.domains.events import recurrence as rules
from eventcal.errors import InvalidParams, ParamError
from eventcal.storage.db import Row, as_local

FIELD_COLUMNS: dict[str, tuple[str, ...]] = {
    "author": ("author_id",),
    "status": ("status", "status_before_trash"),
    "date": ("published_at", "date_floating"),
    "date_utc": ("published_at", "date_floating"),
    "title": ("title",),
    "description": ("description",),
    "excerpt": ("excerpt",),
    "post_password": ("post_password",),
    "image": ("image_id", "image_url"),
    "cost": ("cost", "currency_symbol", "currency_position"),
    "website": ("website",),
    "show_map": ("show_map",),
    "show_map_link": ("show_map_link",),
    "hide_from_listings": ("hide_from_listings",),
    "sticky": ("sticky",),
    "featured": ("featured",),
    "ticketed": ("ticketed",),
    "venue": ("venue_id",),
    "event_status": ("event_status",),
    "status_reason": ("status_reason",),
    "attendance_mode": ("attendance_mode",),
    "online_url": ("online_url",),
}
"""The fields an occurrence copies from its series, and their columns (an override of a field
keeps its columns)."""
TEMPLATE = (
    *dict.fromkeys(c for columns in FIELD_COLUMNS.values() for c in columns),
    "modified_at",
)
DATE_FIELDS = ("start_date", "end_date", "timezone", "all_day")
TRANSLATED = ("title", "description", "excerpt", "status_reason")
"""The fields with a text per language."""
SERIES_FIELDS = frozenset({"recurrence", "scope"})
"""Fields that are the series' own: never an occurrence's override."""


def is_master(row: Row | Mapping[str, Any]) -> bool:
    return bool(row["recurrence"])


def counts(row: Row) -> bool:
    """Published occurrences and single events count in term counts; a series' master does
    not (its occurrences do)."""
    return bool(row["status"] == "publish" and not row["recurrence"])


def overrides(row: Row | Mapping[str, Any]) -> set[str]:
    return {name for name in str(row["overrides"] or "").split(",") if name}


def overridden(field: str, language: str | None) -> str:
    """The name an occurrence's override of ``field`` is kept under: ``title``, or
    ``title:de`` for a text written in one language (other languages still follow the series)."""
    return f"{field}:{language}" if language and field in TRANSLATED else field


def rule_of(row: Row | Mapping[str, Any]) -> rules.Rule | None:
    """The master's rule, parsed with its start, zone and all-day flag."""
    return rules.parse(
        str(row["recurrence"]).split("\n") if row["recurrence"] else None,
        start_local=as_local(row["start_local"]),
        zone_name=str(row["timezone"]),
        all_day=bool(row["all_day"]),
    )


def refused(error: rules.RecurrenceError) -> InvalidParams:
    return InvalidParams({"recurrence": ParamError(error.message, **error.message_args)})


def horizon(call: Call) -> datetime:
    """Occurrences are stored up to here (the site's setting, in months from now)."""
    months = call.site.recurrence_horizon_months
    return call.now + timedelta(days=months * 366 // 12)


@lru_cache(maxsize=1024)
def describe(lines: str, start_local: str, zone_name: str, all_day: bool, language: str) -> str:
    """``recurrence_text`` (the same series is described once per process and language)."""
    rule = rules.parse(
        lines.split("\n"),
        start_local=datetime.fromisoformat(start_local),
        zone_name=zone_name,
        all_day=all_day,
    )
    return rules.describe(rule, language) if rule is not None else ""


def template(master: Row | Mapping[str, Any]) -> dict[str, Any]:
    """The columns an occurrence copies from its master (listed unless the series is hidden)."""
    values = {c: master[c] for c in TEMPLATE}
    values["hide_from_listings"] = master["series_hidden"]
    return values

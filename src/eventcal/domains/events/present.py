"""The event object (spec events §1) and its schema.org JSON-LD.

Field order and types follow the recordings (``author`` is a string, date details are strings,
events keep every key). What an event links to is shown as its own collection embeds it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, tzinfo
from typing import Any

import sqlalchemy as sa

from eventcal.context import Call
from eventcal.domains.events import cost as cost_service
from eventcal.domains.events import series
from eventcal.resources.dates import date_details, format_datetime, iso_with_offset
from eventcal.resources.posts.present import image_json, post_url, publication
from eventcal.resources.present import Presented
from eventcal.resources.spec import Resource
from eventcal.resources.text import autop, plain_text
from eventcal.storage.db import Row, as_local, as_utc, in_values
from eventcal.storage.tables import event
from eventcal.timezones import resolve_timezone, to_local, zone_abbreviation

WP_TYPE = "tribe_events"
EVENT_STATUS_TYPES = {
    "scheduled": "https://schema.org/EventScheduled",
    "cancelled": "https://schema.org/EventCancelled",
    "postponed": "https://schema.org/EventPostponed",
    "rescheduled": "https://schema.org/EventRescheduled",
    "moved-online": "https://schema.org/EventMovedOnline",
}
ATTENDANCE_MODE_TYPES = {
    "offline": "https://schema.org/OfflineEventAttendanceMode",
    "online": "https://schema.org/OnlineEventAttendanceMode",
    "mixed": "https://schema.org/MixedEventAttendanceMode",
}


def _protected_blanks() -> dict[str, Any]:
    """What a protected event shows instead of its content (§1.6)."""
    return {
        "cost": "",
        "cost_details": {
            "currency_symbol": "",
            "currency_code": "",
            "currency_position": "",
            "values": [],
        },
        "website": "",
        "show_map": None,
        "show_map_link": None,
        "hide_from_listings": None,
        "sticky": None,
        "featured": None,
        "categories": [],
        "tags": [],
        "venue": [],
        "organizer": [],
        "custom_fields": [],
    }


def _status(row: Row, protected: bool) -> dict[str, Any]:
    """Whether and how the event takes place; the reason and the online address are content
    a protected event keeps for callers with its password."""
    return {
        "event_status": row["event_status"],
        "status_reason": "" if protected else row["status_reason"],
        "attendance_mode": row["attendance_mode"],
        "online_url": "" if protected else row["online_url"],
    }


def event_zone(row: Row, ctx: Presented) -> tzinfo:
    return resolve_timezone(row["timezone"]) or ctx.site.zone


def _header(row: Row, ctx: Presented) -> dict[str, Any]:
    event_id = row["id"]
    global_id = ctx.urls.global_id(event_id)
    url = post_url(ctx.urls, "event", WP_TYPE, row)
    return {
        "id": event_id,
        "global_id": global_id,
        "global_id_lineage": [global_id],
        **publication(row, ctx.site.zone, url),
        "rest_url": f"{ctx.urls.rest}/events/{event_id}",
        "title": row["title"],
    }


def _times(row: Row, zone: tzinfo) -> dict[str, Any]:
    start_local = as_local(row["start_local"])
    start = format_datetime(start_local)
    end = format_datetime(as_local(row["end_local"]))
    start_utc = format_datetime(as_utc(row["start_at"]))
    end_utc = format_datetime(as_utc(row["end_at"]))
    return {
        "start_date": start,
        "start_date_details": date_details(start),
        "end_date": end,
        "end_date_details": date_details(end),
        "utc_start_date": start_utc,
        "utc_start_date_details": date_details(start_utc),
        "utc_end_date": end_utc,
        "utc_end_date_details": date_details(end_utc),
        "timezone": row["timezone"],
        "timezone_abbr": zone_abbreviation(zone, start_local) if row["timezone"] else "",
    }


def event_json(row: Row, ctx: Presented) -> dict[str, Any]:
    """The event object. A single read adds ``json_ld`` to it and to its venue and organizers
    (the event's own is left out for password-protected events); ``protected`` blanks the
    protected fields (§1.6). A series reads as its first upcoming occurrence, under its own id."""
    if row["recurrence"]:
        occurrence = _next_occurrence(row, ctx)
        if occurrence is not None:
            data = _event_json(occurrence, ctx)
            url = post_url(ctx.urls, "event", WP_TYPE, row)
            data.update(
                _identity(row, ctx),
                slug=row["slug"],
                url=url,
                **({"json_ld": {**data["json_ld"], "url": url}} if "json_ld" in data else {}),
            )
            return data
    return _event_json(row, ctx)


def _identity(row: Row, ctx: Presented) -> dict[str, Any]:
    global_id = ctx.urls.global_id(row["id"])
    return {
        "id": row["id"],
        "global_id": global_id,
        "global_id_lineage": [global_id],
        "rest_url": f"{ctx.urls.rest}/events/{row['id']}",
    }


def _next_occurrence(master: Row, ctx: Presented) -> Row | None:
    for candidate in ctx.loaded.extra.values():
        if candidate["series_id"] == master["id"]:
            return ctx.loaded.texts.localize("event", candidate)
    return None


def _series(row: Row, ctx: Presented) -> dict[str, Any]:
    """``recurrence`` (normalised lines), ``recurrence_text`` (in the request's language),
    ``series_id`` and ``occurrence_start`` (null for a single event)."""
    master = row if row["recurrence"] else ctx.loaded.extra.get(row["series_id"] or 0)
    if master is None or not master["recurrence"]:
        return {
            "recurrence": [],
            "recurrence_text": "",
            "series_id": None,
            "occurrence_start": None,
        }
    start = row["occurrence_start"]
    return {
        "recurrence": str(master["recurrence"]).split("\n"),
        "recurrence_text": series.describe(
            str(master["recurrence"]),
            format_datetime(as_local(master["start_local"])),
            str(master["timezone"]),
            bool(master["all_day"]),
            ctx.call.language,
        ),
        "series_id": master["id"],
        "occurrence_start": format_datetime(as_local(start)) if start is not None else None,
    }


def _event_json(row: Row, ctx: Presented) -> dict[str, Any]:
    data = _header(row, ctx)
    protected = ctx.protected
    data.update(
        {
            "description": "" if protected else autop(row["description"]),
            "excerpt": "" if protected else autop(row["excerpt"]),
            "slug": row["slug"],
            "image": False if protected else image_json(row, ctx.media),
            "all_day": None if protected else bool(row["all_day"]),
        }
    )
    zone = event_zone(row, ctx)
    data.update(_times(row, zone))
    if protected:
        data.update(_protected_blanks())
        data.update(_status(row, protected=True))
        data.update(_series(row, ctx))
        data["translations"] = ctx.languages(row)
        return data
    values = cost_service.load_cost(row["cost"])
    data["cost"] = cost_service.format_cost(
        values,
        row["currency_symbol"],
        row["currency_position"],
        ctx.site.currency_symbol,
        ctx.site.currency_position,
    )
    data["cost_details"] = {
        "currency_symbol": row["currency_symbol"],
        "currency_code": "",
        "currency_position": row["currency_position"],
        "values": cost_service.cost_values(values),
    }
    data["website"] = data["url"] if row["website"] is None else row["website"]
    for flag in ("show_map", "show_map_link", "hide_from_listings", "sticky", "featured"):
        data[flag] = bool(row[flag])
    data["categories"] = ctx.embed("categories", row)
    data["tags"] = ctx.embed("tags", row)
    venues = ctx.embed("venue", row)
    data["venue"] = venues[0] if venues else []
    data["organizer"] = ctx.embed("organizer", row)
    data["custom_fields"] = []
    data.update(_status(row, protected=False))
    data.update(_series(row, ctx))
    if ctx.single and not row["post_password"]:
        data["json_ld"] = event_json_ld(row, ctx, data, zone, values)
    data["translations"] = ctx.languages(row)
    return data


def event_json_ld(
    row: Row, ctx: Presented, data: Mapping[str, Any], zone: tzinfo, cost_values: list[str]
) -> dict[str, Any]:
    """schema.org ``Event`` (informational; spec events §1.5)."""
    excerpt = plain_text(row["excerpt"]) or plain_text(row["description"])[:300]
    ld: dict[str, Any] = {
        "@context": "http://schema.org",
        "@type": "Event",
        "name": row["title"],
        "description": excerpt,
    }
    image = data.get("image")
    if isinstance(image, dict):
        ld["image"] = image["url"]
    ld["url"] = data["url"]
    ld["eventAttendanceMode"] = ATTENDANCE_MODE_TYPES[row["attendance_mode"]]
    ld["eventStatus"] = EVENT_STATUS_TYPES[row["event_status"]]
    ld["startDate"] = iso_with_offset(as_local(row["start_local"]), zone)
    ld["endDate"] = iso_with_offset(as_local(row["end_local"]), zone)
    places: list[dict[str, Any]] = []
    if row["attendance_mode"] != "online":
        places += ctx.linked_data("venue", row)[:1]
    if row["attendance_mode"] != "offline" and row["online_url"]:
        places.append({"@type": "VirtualLocation", "url": row["online_url"]})
    if places:
        ld["location"] = places[0] if len(places) == 1 else places
    organizers = ctx.linked_data("organizer", row)
    if organizers:
        ld["organizer"] = organizers[0]
    if cost_values:
        ld["offers"] = {
            "@type": "Offer",
            "price": cost_service.json_ld_price(cost_values),
            "priceCurrency": "USD",
            "url": data["url"],
            "category": "primary",
            "availability": "inStock",
            "validFrom": iso_with_offset(_day_start(row, zone), zone),
        }
    ld["performer"] = "Organization"
    return ld


def _day_start(row: Row, zone: tzinfo) -> datetime:
    return to_local(as_utc(row["published_at"]), zone).replace(hour=0, minute=0, second=0)


# --- the rows a series needs shown -------------------------------------------------------

SERIES_MASTERS = sa.select(event).where(in_values(event.c.id, "ids"))
_RANKED = (
    sa.select(
        event,
        sa.func.row_number()
        .over(partition_by=event.c.series_id, order_by=(event.c.start_at, event.c.id))
        .label("rank"),
    )
    .where(
        in_values(event.c.series_id, "ids"),
        event.c.end_at >= sa.bindparam("now", type_=event.c.end_at.type),
    )
    .subquery("ranked")
)
NEXT_OCCURRENCES = sa.select(*(_RANKED.c[c.name] for c in event.c)).where(_RANKED.c.rank == 1)
LAST_OCCURRENCES = sa.select(event).where(
    event.c.id.in_(
        sa.select(sa.func.max(event.c.id))
        .where(in_values(event.c.series_id, "ids"))
        .group_by(event.c.series_id)
        .scalar_subquery()
    )
)


async def series_rows(call: Call, resource: Resource, rows: Sequence[Row]) -> list[Row]:
    """The masters of the occurrences shown (their rule and its sentence), and for a series
    shown itself its first upcoming occurrence (else its last one): one query each, only when
    the page has such rows."""
    found: list[Row] = []
    masters = sorted({int(r["series_id"]) for r in rows if r["series_id"]})
    if masters:
        found += await call.conn.all(SERIES_MASTERS, {"ids": masters})
    shown = sorted(int(r["id"]) for r in rows if r["recurrence"])
    if shown:
        upcoming = await call.conn.all(NEXT_OCCURRENCES, {"ids": shown, "now": call.now})
        found += upcoming
        missing = sorted(set(shown) - {int(r["series_id"]) for r in upcoming})
        if missing:
            found += await call.conn.all(LAST_OCCURRENCES, {"ids": missing})
    return found


def series_dependencies(row: Row) -> Sequence[int] | None:
    """An occurrence is built from its master's rule (kept in the item cache until the series
    changes); a series read as its next occurrence depends on the clock (never kept)."""
    if row["recurrence"]:
        return None
    return (int(row["series_id"]),) if row["series_id"] else ()

"""The JSON objects of the original, built from rows: event, venue, organizer, term, image.

Field order and types follow the recordings (``author`` is a string, date details are strings,
venue and organizer bodies drop empty fields, events keep every key).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from typing import Any

from eventcal.context import Site, Urls
from eventcal.services import cost as cost_service
from eventcal.services.dates import (
    ZERO_DATE,
    date_details,
    format_datetime,
    iso_with_offset,
)
from eventcal.services.text import autop, plain_text
from eventcal.services.translations import Texts
from eventcal.storage.db import Row, as_local, as_utc
from eventcal.storage.tables import CATEGORY_TAXONOMY, TAG_TAXONOMY
from eventcal.timezones import resolve_timezone, to_local, zone_abbreviation

TAXONOMY_COLLECTION = {CATEGORY_TAXONOMY: "categories", TAG_TAXONOMY: "tags"}
PRETTY_URL_STATUSES = ("publish", "private")
EMPTY_COST_DETAILS = {
    "currency_symbol": "",
    "currency_code": "",
    "currency_position": "",
    "values": [],
}


@dataclass(slots=True)
class Related:
    """What a page of events links to, loaded in bulk (one query per relation)."""

    venues: dict[int, Row] = field(default_factory=dict)
    organizers: dict[int, list[Row]] = field(default_factory=dict)
    terms: dict[int, list[Row]] = field(default_factory=dict)
    media: dict[int, Row] = field(default_factory=dict)
    texts: Texts = field(default_factory=lambda: Texts("en", "en"))
    """Translations of the events and of everything they link to."""
    locked: set[int] = field(default_factory=set)
    """Venues and organizers whose password-protected content the caller may not see (their
    description, excerpt and image are blanked where events embed them: spec README §6.4)."""


def author_string(author_id: int | None) -> str:
    return str(author_id) if author_id else "0"


def _post_dates(row: Row, site_zone: tzinfo) -> tuple[str, str, str, str]:
    published = as_utc(row["published_at"])
    modified = as_utc(row["modified_at"])
    date_utc = ZERO_DATE if row["date_floating"] else format_datetime(published)
    return (
        format_datetime(to_local(published, site_zone)),
        date_utc,
        format_datetime(to_local(modified, site_zone)),
        ZERO_DATE if row["date_floating"] else format_datetime(modified),
    )


def image_json(row: Row, media: Mapping[int, Row]) -> dict[str, Any] | bool:
    """``false`` or ``{url, id, extension, width, height, filesize}`` without empty values."""
    image_id = row["image_id"]
    if image_id:
        item = media.get(image_id)
        if item is not None:
            data: dict[str, Any] = {"url": item["url"], "id": item["id"]}
            for key in ("extension", "width", "height", "filesize"):
                if item[key]:
                    data[key] = item[key]
            return data
    url = row["image_url"]
    if url:
        data = {"url": url}
        extension = _extension(url)
        if extension:
            data["extension"] = extension
        return data
    return False


def _extension(url: str) -> str:
    path = url.split("?", 1)[0].split("#", 1)[0]
    name = path.rsplit("/", 1)[-1]
    if "." not in name:
        return ""
    extension = name.rsplit(".", 1)[-1].lower()
    return extension if extension.isalnum() and len(extension) <= 5 else ""


def post_url(urls: Urls, kind: str, row: Row) -> str:
    """Public page of an item: pretty for published/private items with a slug."""
    slug = row["slug"]
    if slug and row["status"] in PRETTY_URL_STATUSES:
        return f"{urls.home}/{kind}/{slug}/"
    return f"{urls.home}/?post_type={_POST_TYPES[kind]}&p={row['id']}"


_POST_TYPES = {"event": "tribe_events", "venue": "tribe_venue", "organizer": "tribe_organizer"}


# --- terms ----------------------------------------------------------------------------------


def embedded_term_json(row: Row, urls: Urls, languages: Sequence[str]) -> dict[str, Any]:
    """A category or tag as embedded in an event (spec events §1.4); ``languages``: the ones
    it has text in."""
    collection = f"{urls.rest}/{TAXONOMY_COLLECTION[row['taxonomy']]}"
    links = {"self": f"{collection}/{row['id']}", "collection": collection}
    parent = row["parent_id"] or 0
    if parent:
        links["up"] = f"{collection}/{parent}"
    return {
        "name": row["name"],
        "slug": row["slug"],
        "term_group": row["term_group"],
        "term_taxonomy_id": row["id"],
        "taxonomy": row["taxonomy"],
        "description": row["description"],
        "parent": parent,
        "count": row["count"],
        "filter": "raw",
        "id": row["id"],
        "urls": links,
        "translations": list(languages),
    }


# --- venues and organizers ------------------------------------------------------------------


def _linked_header(
    row: Row, kind: str, urls: Urls, site: Site, image: Any, *, protected: bool
) -> dict[str, Any]:
    """The keys venues and organizers share, in the original's order, up to ``image``."""
    date, date_utc, modified, modified_utc = _post_dates(row, site.zone)
    return {
        "id": row["id"],
        "author": author_string(row["author_id"]),
        "status": row["status"],
        "date": date,
        "date_utc": date_utc,
        "modified": modified,
        "modified_utc": modified_utc,
        "url": post_url(urls, kind, row),
        kind: row["title"],
        "description": "" if protected else autop(row["description"]),
        "excerpt": "" if protected else autop(row["excerpt"]),
        "slug": row["slug"],
        "image": image,
    }


VENUE_TEXT_FIELDS = ("address", "city", "country", "province", "state", "zip", "phone", "website")


def venue_json(
    row: Row,
    urls: Urls,
    site: Site,
    media: Mapping[int, Row],
    *,
    languages: Sequence[str],
    json_ld: bool = False,
    protected: bool = False,
) -> dict[str, Any]:
    """A venue: empty values dropped except ``show_map*`` and the global ids (spec venues §1).

    ``protected``: the caller may not see password-protected content; description, excerpt and
    image are blanked but the name stays (DEVIATIONS #13).
    """
    image = False if protected else image_json(row, media)
    data = _linked_header(row, "venue", urls, site, image, protected=protected)
    for key in VENUE_TEXT_FIELDS:
        data[key] = row[key]
    data["stateprovince"] = row["stateprovince"]
    result = {k: v for k, v in data.items() if v not in ("", "0", 0, False, None)}
    if row["latitude"] is not None and row["longitude"] is not None:
        result["geo_lat"] = row["latitude"]
        result["geo_lng"] = row["longitude"]
    if json_ld and not protected:
        result["json_ld"] = venue_json_ld(row, urls, image)
    result["show_map"] = bool(row["show_map"])
    result["show_map_link"] = bool(row["show_map_link"])
    result["global_id"] = urls.global_id(row["id"])
    result["global_id_lineage"] = [result["global_id"]]
    result["translations"] = list(languages)
    return result


def venue_json_ld(row: Row, urls: Urls, image: Any) -> dict[str, Any]:
    address = {
        "@type": "PostalAddress",
        "streetAddress": row["address"],
        "addressLocality": row["city"],
        "addressRegion": row["stateprovince"] or row["state"] or row["province"],
        "postalCode": row["zip"],
        "addressCountry": row["country"],
    }
    data: dict[str, Any] = {
        "@type": "Place",
        "name": row["title"],
        "description": plain_text(row["description"]),
    }
    if isinstance(image, dict):
        data["image"] = image["url"]
    data["url"] = row["website"]
    data["address"] = {k: v for k, v in address.items() if v}
    if row["latitude"] is not None and row["longitude"] is not None:
        data["geo"] = {
            "@type": "GeoCoordinates",
            "latitude": row["latitude"],
            "longitude": row["longitude"],
        }
    data["telephone"] = row["phone"]
    data["sameAs"] = row["website"]
    return data


def organizer_json(
    row: Row,
    urls: Urls,
    site: Site,
    media: Mapping[int, Row],
    *,
    languages: Sequence[str],
    json_ld: bool = False,
    protected: bool = False,
) -> dict[str, Any]:
    """An organizer: empty values dropped except the global ids (spec organizers §1)."""
    image = False if protected else image_json(row, media)
    data = _linked_header(row, "organizer", urls, site, image, protected=protected)
    data.update(phone=row["phone"], website=row["website"], email=row["email"])
    result = {k: v for k, v in data.items() if v not in ("", "0", 0, False, None)}
    if json_ld and not protected:
        ld: dict[str, Any] = {
            "@type": "Person",
            "name": row["title"],
            "description": plain_text(row["description"]),
        }
        if isinstance(image, dict):
            ld["image"] = image["url"]
        ld.update(
            {
                "url": row["website"],
                "telephone": row["phone"],
                "email": row["email"],
                "sameAs": row["website"],
            }
        )
        result["json_ld"] = ld
    result["global_id"] = urls.global_id(row["id"])
    result["global_id_lineage"] = [result["global_id"]]
    result["translations"] = list(languages)
    return result


# --- events ---------------------------------------------------------------------------------


def event_zone(row: Row, site: Site) -> tzinfo:
    return resolve_timezone(row["timezone"]) or site.zone


def event_json(
    row: Row,
    related: Related,
    urls: Urls,
    site: Site,
    *,
    single: bool = False,
    protected: bool = False,
    own_json_ld: bool = True,
) -> dict[str, Any]:
    """The event object (spec events §1). ``single`` adds ``json_ld`` to it and to its venue and
    organizers (single reads only; the event's own is left out when ``own_json_ld`` is false, as
    for password-protected events); ``protected`` blanks the protected fields (§1.6)."""
    texts = related.texts
    row = texts.localize("event", row)
    event_id = row["id"]
    date, date_utc, modified, modified_utc = _post_dates(row, site.zone)
    url = post_url(urls, "event", row)
    start_local = as_local(row["start_local"])
    end_local = as_local(row["end_local"])
    start = format_datetime(start_local)
    end = format_datetime(end_local)
    start_utc = format_datetime(as_utc(row["start_at"]))
    end_utc = format_datetime(as_utc(row["end_at"]))
    zone = event_zone(row, site)
    global_id = urls.global_id(event_id)
    data: dict[str, Any] = {
        "id": event_id,
        "global_id": global_id,
        "global_id_lineage": [global_id],
        "author": author_string(row["author_id"]),
        "status": row["status"],
        "date": date,
        "date_utc": date_utc,
        "modified": modified,
        "modified_utc": modified_utc,
        "url": url,
        "rest_url": f"{urls.rest}/events/{event_id}",
        "title": row["title"],
    }
    if protected:
        data.update(
            {
                "description": "",
                "excerpt": "",
                "slug": row["slug"],
                "image": False,
                "all_day": None,
            }
        )
    else:
        data.update(
            {
                "description": autop(row["description"]),
                "excerpt": autop(row["excerpt"]),
                "slug": row["slug"],
                "image": image_json(row, related.media),
                "all_day": bool(row["all_day"]),
            }
        )
    data.update(
        {
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
    )
    if protected:
        data.update(
            {
                "cost": "",
                "cost_details": dict(EMPTY_COST_DETAILS, values=[]),
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
                "translations": texts.languages("event", event_id),
            }
        )
        return data
    values = cost_service.load_cost(row["cost"])
    data["cost"] = cost_service.format_cost(
        values,
        row["currency_symbol"],
        row["currency_position"],
        site.currency_symbol,
        site.currency_position,
    )
    data["cost_details"] = {
        "currency_symbol": row["currency_symbol"],
        "currency_code": "",
        "currency_position": row["currency_position"],
        "values": cost_service.cost_values(values),
    }
    data["website"] = url if row["website"] is None else row["website"]
    data["show_map"] = bool(row["show_map"])
    data["show_map_link"] = bool(row["show_map_link"])
    data["hide_from_listings"] = bool(row["hide_from_listings"])
    data["sticky"] = bool(row["sticky"])
    data["featured"] = bool(row["featured"])
    terms = [texts.localize(t["taxonomy"], t) for t in related.terms.get(event_id, ())]
    for key, taxonomy in (("categories", CATEGORY_TAXONOMY), ("tags", TAG_TAXONOMY)):
        data[key] = [
            embedded_term_json(t, urls, texts.languages(taxonomy, int(t["id"])))
            for t in terms
            if t["taxonomy"] == taxonomy
        ]
    venue_row = related.venues.get(row["venue_id"]) if row["venue_id"] else None
    if venue_row is not None:
        venue_row = texts.localize("venue", venue_row)
        data["venue"] = venue_json(
            venue_row,
            urls,
            site,
            related.media,
            languages=texts.languages("venue", int(venue_row["id"])),
            json_ld=single,
            protected=int(venue_row["id"]) in related.locked,
        )
    else:
        data["venue"] = []
    organizers = texts.localize_all("organizer", related.organizers.get(event_id, ()))
    data["organizer"] = [
        organizer_json(
            o,
            urls,
            site,
            related.media,
            languages=texts.languages("organizer", int(o["id"])),
            json_ld=single,
            protected=int(o["id"]) in related.locked,
        )
        for o in organizers
    ]
    data["custom_fields"] = []
    if single and own_json_ld:
        data["json_ld"] = event_json_ld(
            row,
            data=data,
            start_local=start_local,
            end_local=end_local,
            zone=zone,
            venue_row=venue_row,
            organizers=organizers,
            cost_values=values,
            urls=urls,
        )
    data["translations"] = texts.languages("event", event_id)
    return data


def event_json_ld(
    row: Row,
    *,
    data: Mapping[str, Any],
    start_local: datetime,
    end_local: datetime,
    zone: tzinfo,
    venue_row: Row | None,
    organizers: Sequence[Row],
    cost_values: list[str],
    urls: Urls,
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
    ld["eventAttendanceMode"] = "https://schema.org/OfflineEventAttendanceMode"
    ld["eventStatus"] = "https://schema.org/EventScheduled"
    ld["startDate"] = iso_with_offset(start_local, zone)
    ld["endDate"] = iso_with_offset(end_local, zone)
    if venue_row is not None:
        location = data["venue"].get("json_ld")
        if location is None:  # a protected venue: its place without its description (§6.4)
            location = {**venue_json_ld(venue_row, urls, False), "description": ""}
        ld["location"] = location
    if organizers:
        ld["organizer"] = data["organizer"][0].get("json_ld", {"name": organizers[0]["title"]})
    if cost_values:
        ld["offers"] = {
            "@type": "Offer",
            "price": cost_service.json_ld_price(cost_values),
            "priceCurrency": "USD",
            "url": data["url"],
            "category": "primary",
            "availability": "inStock",
            "validFrom": iso_with_offset(
                to_local(as_utc(row["published_at"]), zone).replace(hour=0, minute=0, second=0),
                zone,
            ),
        }
    ld["performer"] = "Organization"
    return ld

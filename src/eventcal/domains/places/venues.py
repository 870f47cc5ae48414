"""The venues collection (spec venues.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from eventcal.context import Call
from eventcal.domains.places import common
from eventcal.domains.places.fields import line_field
from eventcal.http.args import Invalid, non_empty_string, truthy
from eventcal.http.request import RequestState
from eventcal.i18n import N_
from eventcal.resources import parsers
from eventcal.resources.components import (
    BOOLEAN,
    FALSE,
    POST_PROPERTIES,
    STRING,
    nullable,
    post_archive,
    ref,
)
from eventcal.resources.listing import Listing
from eventcal.resources.posts import Posts
from eventcal.resources.posts import fields as post
from eventcal.resources.posts.present import image_json
from eventcal.resources.present import Presented
from eventcal.resources.spec import Field, Messages, Resource
from eventcal.resources.text import plain_text
from eventcal.storage.db import Row
from eventcal.storage.tables import venue

TEXT_FIELDS = {
    "address": "The venue address",
    "city": "The venue city",
    "country": "The venue country",
    "province": "The venue province",
    "state": "The venue state",
    "zip": "The venue ZIP code",
    "phone": "The venue phone number",
    "stateprovince": "The venue state and province",
}
TRANSLATED_TEXT = ("address", "city", "country", "province", "state", "stateprovince")
SEARCH_COLUMNS = (
    "title",
    "description",
    "excerpt",
    "address",
    "city",
    "province",
    "state",
    "stateprovince",
    "zip",
    "phone",
)
SHOWN_TEXT = ("address", "city", "country", "province", "state", "zip", "phone", "website")


def show_flag(value: Any, state: RequestState) -> bool:
    """``show_map``/``show_map_link``: any truthy value (JSON booleans too: DEVIATIONS #14)."""
    if isinstance(value, bool | int | float | str):
        return truthy(value)
    raise Invalid()


FIELDS = (
    post.author("venue"),
    post.date("venue"),
    post.date_utc("venue"),
    Field(
        "venue",
        "The venue name",
        non_empty_string("venue", max_length=1000),
        column="title",
        translated=True,
        required=True,
        type="string",
    ),
    Field(
        "description",
        "The venue description",
        parsers.text("description"),
        column="description",
        translated=True,
        type="string",
        default=None,
    ),
    post.status("venue"),
    *(
        Field(
            name,
            f"Whether events linked to the venue should show a {what} or not",
            show_flag,
            column=name,
            type="string",
            default=None,
        )
        for name, what in (("show_map", "map"), ("show_map_link", "map link"))
    ),
    *(
        line_field(name, description, translated=name in TRANSLATED_TEXT)
        for name, description in TEXT_FIELDS.items()
    ),
    line_field("website", "The venue website URL", parsers.url_or_empty),
    post.featured_image("venue", default=None),
    Field(
        "latitude",
        "The venue latitude in decimal degrees (-90 to 90)",
        parsers.latitude,
        column="latitude",
        type="number",
    ),
    Field(
        "longitude",
        "The venue longitude in decimal degrees (-180 to 180)",
        parsers.longitude,
        column="longitude",
        type="number",
    ),
    post.password("venue"),
)


TRANSLATED_COLUMNS = tuple(f.column for f in FIELDS if f.translated and f.column)


async def state_province(
    call: Call, fields: Mapping[str, Any], current: Row | None
) -> dict[str, Any]:
    """``stateprovince`` when not sent is ``state`` for US (or unknown-country) venues, else
    ``province`` (spec venues §4.2)."""
    if fields.get("stateprovince"):
        return {}
    if not any(k in fields for k in ("state", "province", "country")):
        return {}

    def value(name: str) -> str:
        if name in fields:
            return str(fields[name])
        return str(current[name]) if current is not None else ""

    country = value("country").strip()
    state, province = value("state").strip(), value("province").strip()
    if state and country in ("", "US", "USA", "United States"):
        return {"stateprovince": state}
    return {"stateprovince": province or state}


def venue_json(row: Row, ctx: Presented) -> dict[str, Any]:
    """A venue: empty values dropped except ``show_map*`` and the global ids (spec venues §1).
    Protected content (description, excerpt, image) is blanked for callers who may not see it;
    the name stays (DEVIATIONS #13)."""
    image = False if ctx.protected else image_json(row, ctx.media)
    data = common.header(row, ctx, image)
    for key in SHOWN_TEXT:
        data[key] = row[key]
    data["stateprovince"] = row["stateprovince"]
    result = common.drop_empty(data)
    if row["latitude"] is not None and row["longitude"] is not None:
        result["geo_lat"] = row["latitude"]
        result["geo_lng"] = row["longitude"]
    if ctx.single and not ctx.protected:
        result["json_ld"] = venue_json_ld(row, image)
    result["show_map"] = bool(row["show_map"])
    result["show_map_link"] = bool(row["show_map_link"])
    return common.ids_tail(result, row, ctx)


def venue_json_ld(row: Row, image: Any) -> dict[str, Any]:
    """schema.org ``Place``."""
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


def venue_linked_data(row: Row, ctx: Presented) -> dict[str, Any]:
    """The venue as an event's JSON-LD ``location``: a protected venue is its place without its
    description and image (§6.4)."""
    if ctx.protected:
        return {**venue_json_ld(row, False), "description": ""}
    return venue_json_ld(row, image_json(row, ctx.media))


SCHEMA = {
    "type": "object",
    "description": "A venue; empty fields are left out (clients read a missing key as empty).",
    "properties": {
        **POST_PROPERTIES,
        "venue": STRING,
        "image": {"oneOf": [ref("Image"), FALSE]},
        **dict.fromkeys((*SHOWN_TEXT, "stateprovince"), STRING),
        "geo_lat": {"type": "number"},
        "geo_lng": {"type": "number"},
        "json_ld": {"type": "object", "additionalProperties": True},
        "show_map": nullable(BOOLEAN),
        "show_map_link": nullable(BOOLEAN),
    },
    "required": ["id", "show_map", "show_map_link", "global_id", "global_id_lineage"],
}

VENUES = Resource(
    name="venue",
    collection="venues",
    label="venue",
    table=venue,
    fields=FIELDS,
    behaviour=Posts(wp_type="tribe_venue"),
    force_delete=True,
    present=venue_json,
    linked_data=venue_linked_data,
    schema="Venue",
    listing=Listing(
        table=venue,
        args=common.list_args("venue", "venues", "events"),
        conditions=common.conditions(venue, "venue", SEARCH_COLUMNS, TRANSLATED_COLUMNS),
        orders={"default": (venue.c.published_at.desc(), venue.c.id.desc())},
        prepare=common.prepare("events", "venue"),
    ),
    messages=Messages(
        not_accessible=N_("The requested venue is not accessible"),
        no_archive_page=N_("The requested venue archive page does not exist"),
        not_created=N_("The venue could not be created"),
        not_updated=N_("The venue could not be updated"),
        already_trashed=N_("The venue is already trashed"),
        not_created_inline=N_("The venue could not be created from the provided data"),
    ),
    derive=state_province,
    twin=common.find_twin,
    image_column="image_id",
    refers=(post.image_relation(venue),),
    reference=common.LinkedPosts(),
    components={"Venue": SCHEMA, "VenueArchive": post_archive("venues", "Venue")},
    summaries={"delete": "Move a venue to the trash and unlink it from its events."},
)

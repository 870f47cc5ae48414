"""Routes of the venues collection (spec venues.md) on the generic linked-post routes."""

from __future__ import annotations

from typing import Any

from eventcal.api import common, resource
from eventcal.http.args import Arg, Invalid, non_empty_string, truthy
from eventcal.http.request import RequestState
from eventcal.http.router import Route
from eventcal.services.linked_posts import VENUE

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


def show_flag(value: Any, state: RequestState) -> bool:
    """``show_map``/``show_map_link``: any truthy value (JSON booleans too: DEVIATIONS #14)."""
    if isinstance(value, bool | int | float | str):
        return truthy(value)
    raise Invalid()


def venue_args(*, create: bool) -> tuple[Arg, ...]:
    loc = "body"
    return (
        Arg("author", "The venue author ID", common.user_id, type="integer", location=loc),
        Arg("date", "The venue publication date", common.site_time, type="string", location=loc),
        Arg(
            "date_utc",
            "The venue publication date (UTC time zone)",
            common.utc_time,
            type="string",
            location=loc,
        ),
        Arg(
            "venue",
            "The venue name",
            common.translatable(non_empty_string("venue", max_length=1000), create=create),
            type="string",
            required=create,
            location=loc,
        ),
        Arg(
            "description",
            "The venue description",
            common.text("description"),
            type="string",
            default=None,
            location=loc,
        ),
        Arg(
            "status",
            "The venue post status",
            common.post_status,
            type="string",
            enum=common.POST_STATUSES,
            location=loc,
        ),
        Arg(
            "show_map",
            "Whether events linked to the venue should show a map or not",
            show_flag,
            type="string",
            default=None,
            location=loc,
        ),
        Arg(
            "show_map_link",
            "Whether events linked to the venue should show a map link or not",
            show_flag,
            type="string",
            default=None,
            location=loc,
        ),
        *(
            Arg(
                name,
                description,
                common.text(name, max_length=1000),
                type="string",
                default=None,
                location=loc,
            )
            for name, description in TEXT_FIELDS.items()
        ),
        Arg(
            "website",
            "The venue website URL",
            common.url_or_empty,
            type="string",
            default=None,
            location=loc,
        ),
        Arg(
            "image",
            "The venue featured image ID or URL",
            common.image,
            type="string",
            default=None,
            location=loc,
        ),
        Arg(
            "latitude",
            "The venue latitude in decimal degrees (-90 to 90)",
            common.latitude,
            type="number",
            location=loc,
        ),
        Arg(
            "longitude",
            "The venue longitude in decimal degrees (-180 to 180)",
            common.longitude,
            type="number",
            location=loc,
        ),
        common.post_password_arg("venue"),
    )


CREATE_ARGS = venue_args(create=True)
UPDATE_ARGS = venue_args(create=False)


def routes() -> list[Route]:
    return resource.routes(VENUE, create_args=CREATE_ARGS, update_args=UPDATE_ARGS, schema="Venue")

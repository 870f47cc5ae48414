"""Routes of the organizers collection (spec organizers.md) on the generic linked-post routes."""

from __future__ import annotations

from eventcal.api import common, resource
from eventcal.http.args import Arg, non_empty_string
from eventcal.http.router import Route
from eventcal.services.linked_posts import ORGANIZER


def organizer_args(*, create: bool) -> tuple[Arg, ...]:
    loc = "body"
    return (
        Arg(
            "author",
            "The organizer author ID",
            common.user_id,
            type="integer",
            default=None,
            location=loc,
        ),
        Arg(
            "date",
            "The organizer publication date",
            common.site_time,
            type="string",
            default=None,
            location=loc,
        ),
        Arg(
            "date_utc",
            "The organizer publication date (UTC time zone)",
            common.utc_time,
            type="string",
            default=None,
            location=loc,
        ),
        Arg(
            "organizer",
            "The organizer name",
            common.translatable(non_empty_string("organizer", max_length=1000), create=create),
            type="string",
            default=None,
            required=create,
            location=loc,
        ),
        Arg(
            "description",
            "The organizer description",
            common.text("description"),
            type="string",
            default=None,
            location=loc,
        ),
        Arg(
            "status",
            "The organizer post status",
            common.post_status,
            type="string",
            default=None,
            enum=common.POST_STATUSES,
            location=loc,
        ),
        Arg(
            "phone",
            "The organizer phone number",
            common.text("phone", max_length=1000),
            type="string",
            default=None,
            location=loc,
        ),
        Arg(
            "website",
            "The organizer website",
            common.url_or_empty,
            type="string",
            default=None,
            location=loc,
        ),
        Arg(
            "email",
            "The organizer e-mail address",
            common.text("email", max_length=1000),
            type="string",
            default=None,
            location=loc,
        ),
        Arg(
            "image",
            "The organizer featured image ID or URL",
            common.image,
            type="string",
            default=None,
            location=loc,
        ),
        common.post_password_arg("organizer"),
    )


CREATE_ARGS = organizer_args(create=True)
UPDATE_ARGS = organizer_args(create=False)


def routes() -> list[Route]:
    return resource.routes(
        ORGANIZER, create_args=CREATE_ARGS, update_args=UPDATE_ARGS, schema="Organizer"
    )

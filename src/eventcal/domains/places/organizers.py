"""The organizers collection (spec organizers.md)."""

from __future__ import annotations

from typing import Any

from eventcal.domains.places import common
from eventcal.domains.places.fields import line_field
from eventcal.http.args import non_empty_string
from eventcal.i18n import N_
from eventcal.resources import parsers
from eventcal.resources.components import FALSE, POST_PROPERTIES, STRING, post_archive, ref
from eventcal.resources.listing import Listing
from eventcal.resources.posts import Posts
from eventcal.resources.posts import fields as post
from eventcal.resources.posts.present import image_json
from eventcal.resources.present import Presented
from eventcal.resources.spec import Field, Messages, Resource
from eventcal.resources.text import plain_text
from eventcal.storage.db import Row
from eventcal.storage.tables import organizer

SEARCH_COLUMNS = ("title", "description", "excerpt", "phone", "email", "website")


FIELDS = (
    post.author("organizer", default=None),
    post.date("organizer", default=None),
    post.date_utc("organizer", default=None),
    Field(
        "organizer",
        "The organizer name",
        non_empty_string("organizer", max_length=1000),
        column="title",
        translated=True,
        required=True,
        type="string",
        default=None,
    ),
    Field(
        "description",
        "The organizer description",
        parsers.text("description"),
        column="description",
        translated=True,
        type="string",
        default=None,
    ),
    post.status("organizer", default=None),
    line_field("phone", "The organizer phone number"),
    line_field("website", "The organizer website", parsers.url_or_empty),
    line_field("email", "The organizer e-mail address"),
    post.featured_image("organizer", default=None),
    post.password("organizer"),
)


def organizer_json(row: Row, ctx: Presented) -> dict[str, Any]:
    """An organizer: empty values dropped except the global ids (spec organizers §1)."""
    image = False if ctx.protected else image_json(row, ctx.media)
    data = common.header(row, ctx, image)
    data.update(phone=row["phone"], website=row["website"], email=row["email"])
    result = common.drop_empty(data)
    if ctx.single and not ctx.protected:
        result["json_ld"] = organizer_linked_data(row, ctx)
    return common.ids_tail(result, row, ctx)


def organizer_linked_data(row: Row, ctx: Presented) -> dict[str, Any]:
    """schema.org ``Person``; a protected organizer is its name only (§6.4)."""
    if ctx.protected:
        return {"name": row["title"]}
    ld: dict[str, Any] = {
        "@type": "Person",
        "name": row["title"],
        "description": plain_text(row["description"]),
    }
    image = image_json(row, ctx.media)
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
    return ld


SCHEMA = {
    "type": "object",
    "description": "An organizer; empty fields are left out.",
    "properties": {
        **POST_PROPERTIES,
        "organizer": STRING,
        "image": {"oneOf": [ref("Image"), FALSE]},
        "phone": STRING,
        "website": STRING,
        "email": STRING,
        "json_ld": {"type": "object", "additionalProperties": True},
    },
    "required": ["id", "global_id", "global_id_lineage"],
}

ORGANIZERS = Resource(
    name="organizer",
    collection="organizers",
    label="organizer",
    table=organizer,
    fields=FIELDS,
    behaviour=Posts(wp_type="tribe_organizer"),
    force_delete=True,
    present=organizer_json,
    linked_data=organizer_linked_data,
    schema="Organizer",
    listing=Listing(
        table=organizer,
        args=common.list_args("organizer", "organizers", "events"),
        conditions=common.conditions(
            organizer,
            "organizer",
            SEARCH_COLUMNS,
            tuple(f.column for f in FIELDS if f.translated and f.column),
        ),
        orders={"default": (organizer.c.published_at.desc(), organizer.c.id.desc())},
        prepare=common.prepare("events", "organizer"),
    ),
    messages=Messages(
        not_accessible=N_("The requested organizer is not accessible"),
        no_archive_page=N_("The requested organizer archive page does not exist"),
        not_created=N_("The organizer could not be created"),
        not_updated=N_("The organizer could not be updated"),
        already_trashed=N_("The organizer is already trashed"),
        not_created_inline=N_("The organizer could not be created from the provided data"),
    ),
    twin=common.find_twin,
    image_column="image_id",
    refers=(post.image_relation(organizer),),
    reference=common.LinkedPosts(),
    components={"Organizer": SCHEMA, "OrganizerArchive": post_archive("organizers", "Organizer")},
    summaries={"delete": "Move an organizer to the trash and unlink it from its events."},
)

"""The media collection (issue 16): uploaded images, their metadata and where they are shown.

An item is created from an upload (:mod:`~eventcal.domains.media.upload`), its bytes are kept
in ``media_file`` and served at its ``url`` (:mod:`~eventcal.domains.media.serving`); title,
alternative text and caption have a text per language. Events, venues and organizers declare
their ``image`` relation to this collection, so deleting an item finds (and with ``force``
clears) the items that show it without knowing them.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import sqlalchemy as sa

from eventcal.domains.media import behaviour, upload
from eventcal.domains.media.store import sizes_of
from eventcal.errors import ApiError
from eventcal.http.args import Arg, Invalid, Params, as_int, boolean, positive_int_list, string
from eventcal.http.request import RequestState
from eventcal.http.responses import Reply
from eventcal.i18n import N_
from eventcal.resources import parsers
from eventcal.resources.components import INTEGER, STRING, post_archive
from eventcal.resources.dates import format_datetime
from eventcal.resources.listing import Condition, Listing, ListQuery
from eventcal.resources.posts.present import author_string
from eventcal.resources.present import Presented
from eventcal.resources.spec import Field, Messages, Resource
from eventcal.storage import queries as q
from eventcal.storage.db import Row, as_utc, in_values
from eventcal.storage.tables import media
from eventcal.timezones import to_local

MAX_TEXT = 1000
SEARCH_COLUMNS = ("title", "alt_text", "caption", "file_name")
TRANSLATED = ("title", "alt_text", "caption")


async def _parent(value: Any, state: RequestState) -> int | None:
    """An event, venue, organizer or media id the file belongs to; 0 detaches it."""
    number = as_int(value)
    if number is None or number < 0 or number > 2**31 - 1:
        raise Invalid()
    if number == 0:
        return None
    if await q.post_type(state.conn, number) is None:
        raise Invalid(N_("No item has the id {id}."), id=number)
    return number


def _text(name: str, description: str, *, allow_empty: bool = True) -> Field:
    return Field(
        name,
        description,
        string(name, max_length=MAX_TEXT, allow_empty=allow_empty),
        column=name,
        translated=True,
        type="string",
    )


FIELDS = (
    Field(
        "file",
        "The image (JPEG, PNG, GIF, WebP or AVIF): the whole body with Content-Type image/… and "
        'Content-Disposition: attachment; filename="…", or the multipart/form-data field file',
        upload.parse_file,
        type="string",
        format="binary",
        schema={"type": "string", "format": "binary"},
        create_only=True,
    ),
    _text(
        "title",
        "The media item's title (default: the file name without its extension)",
        allow_empty=False,
    ),
    _text("alt_text", "Alternative text: what the image shows, for those who cannot see it"),
    _text("caption", "The media item's caption"),
    Field(
        "post",
        "The id of the event, venue or organizer the file belongs to (0: none)",
        _parent,
        columns=lambda parent: {"parent_id": parent},
        type="integer",
    ),
)


def _date(value: Any, ctx: Presented) -> str:
    if value is None:
        return ""
    return format_datetime(to_local(as_utc(value), ctx.site.zone))


def media_json(row: Row, ctx: Presented) -> dict[str, Any]:
    """A media item: WordPress's attachment keys that apply, with the original's image keys."""
    created = row["created_at"]
    modified = row["modified_at"] or created
    mime = str(row["mime_type"] or "")
    return {
        "id": row["id"],
        "author": author_string(row["author_id"]),
        "date": _date(created, ctx),
        "date_utc": format_datetime(as_utc(created)),
        "modified": _date(modified, ctx),
        "modified_utc": format_datetime(as_utc(modified)),
        "url": row["url"],
        "title": row["title"],
        "alt_text": row["alt_text"],
        "caption": row["caption"],
        "media_type": "image" if mime.startswith("image/") else "file",
        "mime_type": mime,
        "extension": row["extension"],
        "post": row["parent_id"] or 0,
        "media_details": {
            "width": row["width"],
            "height": row["height"],
            "filesize": row["filesize"],
            "file": row["file_name"],
            "sizes": sizes_of(row),
        },
        "translations": ctx.languages(row),
    }


# --- the listing --------------------------------------------------------------------------


def _mime_type(value: Any, state: RequestState) -> str:
    text = str(string("mime_type", max_length=100)(value, state)).strip().lower()
    if not text or any(c.isspace() or c in "%_\\" for c in text):
        raise Invalid()
    return text


LIST_ARGS = (
    *parsers.page_args("media items"),
    Arg(
        "search",
        "Media items whose title, alternative text, caption or file name contain the string",
        parsers.search,
        type="string",
    ),
    Arg(
        "mime_type",
        "Media items of this type (image/png) or family (image)",
        _mime_type,
        type="string",
    ),
    Arg(
        "parent",
        "Media items that belong to one of these item ids",
        positive_int_list,
        type="array",
        items={"type": "integer"},
    ),
)


def _search(shape: bool) -> list[sa.ColumnElement[bool]]:
    pattern = sa.bindparam("search_pattern", type_=sa.String)
    matches: list[sa.ColumnElement[bool]] = [
        media.c[c].ilike(pattern, escape="\\") for c in SEARCH_COLUMNS
    ]
    if shape:
        matches.append(q.translated_match("media", media.c.id, TRANSLATED, ["search_pattern"]))
    return [sa.or_(*matches)]


def _mime(shape: Hashable) -> list[sa.ColumnElement[bool]]:
    value = sa.bindparam("mime_type", type_=sa.String)
    if shape == "family":
        return [media.c.mime_type.like(value)]
    return [media.c.mime_type == value]


CONDITIONS: dict[str, Condition] = {
    "search": _search,
    "mime_type": _mime,
    "parent": lambda _: [in_values(media.c.parent_id, "parents")],
}


async def prepare_list(state: RequestState, params: Params, resource: Resource) -> ListQuery:
    query = ListQuery(params["page"], params["per_page"], context_edit=state.context_edit)
    query.link = [("page", str(query.page)), ("per_page", str(query.per_page))]
    search = params.get("search")
    if search:
        language = state.call.translating
        query.on("search", bool(language), search_pattern=q.like_pattern(search))
        if language:
            query.values["search_language"] = language
        query.link.append(("search", search))
    mime = params.get("mime_type")
    if mime:
        if "/" in mime:
            query.on("mime_type", "exact", mime_type=mime)
        else:
            query.on("mime_type", "family", mime_type=f"{mime}/%")
        query.link.append(("mime_type", mime))
    parents = params.get("parent")
    if parents:
        query.on("parent", parents=sorted(set(parents)))
        query.link.append(("parent", ",".join(str(p) for p in sorted(set(parents)))))
    return query


# --- deleting -------------------------------------------------------------------------------


class Hooks:
    """A delete is refused (409) while items show the image, unless ``force``."""

    async def target(
        self, state: RequestState, resource: Resource, row: Row, params: Params
    ) -> Row:
        return row

    async def after_write(self, *args: Any) -> bool:
        return False

    async def delete(
        self, state: RequestState, resource: Resource, row: Row, params: Params
    ) -> Reply | None:
        if params.get("force"):
            return None
        found = await behaviour.users(state.call, resource, int(row["id"]))
        if found:
            raise ApiError(
                "rest_media_in_use",
                N_(
                    "The media item is the image of other items: remove it from them, or "
                    "delete with force=true, which removes it from them."
                ),
                409,
                data={"used_by": found},
            )
        return None


FORCE = Arg(
    "force",
    "Delete even while events, venues or organizers show the image (they lose it)",
    boolean("force"),
    type="boolean",
    default=False,
)

SCHEMA = {
    "type": "object",
    "description": "A media item (an uploaded image).",
    "properties": {
        "id": INTEGER,
        "author": STRING,
        "date": STRING,
        "date_utc": STRING,
        "modified": STRING,
        "modified_utc": STRING,
        "url": {"type": "string", "format": "uri"},
        "title": STRING,
        "alt_text": STRING,
        "caption": STRING,
        "media_type": STRING,
        "mime_type": STRING,
        "extension": STRING,
        "post": INTEGER,
        "media_details": {"type": "object", "additionalProperties": True},
        "translations": {"type": "array", "items": STRING},
    },
    "required": ["id", "url", "mime_type", "media_details"],
}

MEDIA = Resource(
    name="media",
    collection="media",
    label="media item",
    plural="media items",
    table=media,
    fields=FIELDS,
    behaviour=behaviour.Media(),
    present=media_json,
    schema="Media",
    listing=Listing(
        table=media,
        args=LIST_ARGS,
        conditions=CONDITIONS,
        orders={"default": (media.c.created_at.desc(), media.c.id.desc())},
        prepare=prepare_list,
    ),
    messages=Messages(
        not_accessible=N_("The requested media item is not accessible"),
        no_archive_page=N_("The requested media archive page does not exist"),
        not_created=N_("The media item could not be created"),
        not_updated=N_("The media item could not be updated"),
    ),
    hooks=Hooks(),
    item_args=(FORCE,),
    accepts_files=True,
    prepare_create=upload.prepare,
    errors={
        "create": {
            400: "Not an accepted image (rest_upload_invalid_type), damaged "
            "(rest_upload_invalid_image), too many pixels or frames, no data, no file name",
            413: "The file is larger than 10 MB (rest_upload_file_too_big)",
        },
        "delete": {409: "Events, venues or organizers show the image (rest_media_in_use)"},
    },
    components={"Media": SCHEMA, "MediaArchive": post_archive("media", "Media")},
    summaries={
        "create": "Upload an image: the body is the file, or a multipart form with the field file.",
        "delete": "Delete a media item and its files for good (409 while items show it).",
    },
)

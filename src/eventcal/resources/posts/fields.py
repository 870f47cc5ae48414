"""The fields and list conditions every post collection declares (author, publication dates,
status, featured image, password; the status filter and who sees which statuses)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from eventcal.context import Call
from eventcal.http.args import MISSING, Arg, Invalid, csv_items, string
from eventcal.http.request import RequestState
from eventcal.resources import parsers
from eventcal.resources.images import ImageRef, resolve_image
from eventcal.resources.listing import Condition, ListQuery
from eventcal.resources.posts import rules
from eventcal.resources.spec import ColumnLink, Field, Relation
from eventcal.storage.db import in_values

POST_STATUSES = ("publish", "future", "draft", "pending", "private", "trash")


def post_status(value: Any, state: RequestState) -> str:
    if not isinstance(value, str) or value not in POST_STATUSES:
        raise Invalid()
    return value


def status_list(value: Any, state: RequestState) -> list[str]:
    """Archive ``status``: one status, a list or CSV; callers who cannot edit may ask for
    ``publish`` only."""
    items = csv_items(value)
    if not items or not all(isinstance(i, str) for i in items):
        raise Invalid()
    statuses = list(dict.fromkeys(items))
    if not rules.status_request_allowed(state.actor, statuses):
        raise Invalid()
    return statuses


async def image(value: Any, state: RequestState) -> ImageRef:
    ref = await resolve_image(state.conn, value, state.actor)
    if ref is None:
        raise Invalid()
    return ref


def _image_columns(ref: ImageRef) -> dict[str, Any]:
    return {"image_id": ref.image_id, "image_url": ref.image_url}


def image_relation(table: sa.Table) -> Relation:
    """The featured image as a relation to the media collection (``Resource.refers``)."""
    return Relation("image", "media", ColumnLink(table.c.image_id))


def author(label: str, default: Any = MISSING) -> Field:
    return Field(
        "author",
        f"The {label} author ID",
        parsers.user_id,
        columns=lambda user_id: {"author_id": user_id},
        type="integer",
        default=default,
    )


def date(label: str, default: Any = MISSING) -> Field:
    """Read by the post rules (publication and scheduling), not stored as sent."""
    return Field(
        "date", f"The {label} publication date", parsers.site_time, type="string", default=default
    )


def date_utc(label: str, default: Any = MISSING) -> Field:
    return Field(
        "date_utc",
        f"The {label} publication date (UTC time zone)",
        parsers.utc_time,
        type="string",
        default=default,
    )


def status(label: str, default: Any = MISSING) -> Field:
    """Read by the post rules (scaled back to what the caller may publish)."""
    return Field(
        "status",
        f"The {label} post status",
        post_status,
        type="string",
        enum=POST_STATUSES,
        default=default,
    )


def featured_image(label: str, default: Any = MISSING) -> Field:
    return Field(
        "image",
        f"The {label} featured image ID or URL",
        image,
        columns=_image_columns,
        type="string",
        default=default,
    )


def password(label: str) -> Field:
    return Field(
        "post_password",
        f"A password that protects the {label}'s content (never returned; empty removes it)",
        string("post_password", max_length=255),
        column="post_password",
        type="string",
    )


def status_arg(label: str) -> Arg:
    return Arg("status", f"The {label} post status", status_list, format="string")


def visibility(table: sa.Table) -> dict[str, Condition]:
    """Conditions of who sees which statuses (see :func:`restrict`)."""
    return {
        "status": lambda _: [table.c.status == sa.bindparam("status", type_=sa.String)],
        "statuses": lambda _: [in_values(table.c.status, "statuses", sa.String())],
        "own_author": lambda _: [
            sa.or_(
                table.c.status == "publish",
                table.c.author_id == sa.bindparam("own_author_id", type_=sa.Integer),
            )
        ],
    }


def restrict(call: Call, query: ListQuery, requested: list[str] | None) -> str:
    """Limit a listing to the statuses the caller may see (and, for contributors and authors,
    to published items plus their own: DEVIATIONS #18); returns the ``status`` value the
    archive's links carry. One status (the common case) is an equality, so an index on
    (status, order) also gives the order."""
    statuses, link = rules.visible_statuses(call.actor, requested)
    if len(statuses) == 1:
        query.on("status", status=statuses[0])
    else:
        query.on("statuses", statuses=list(statuses))
    own = rules.own_author_filter(call.actor)
    if own is not None:
        query.on("own_author", own_author_id=own)
    return link

"""The rules of WordPress-style posts (events, venues, organizers), implemented once.

Ids in the shared id space, slugs unique per collection (retried when a concurrent writer took
one), publication dates and the ``future``/``publish`` switch, trash and restore, password
protection and the per-item permission checks. A collection's declaration supplies its table
and messages; :class:`~eventcal.resources.posts.behaviour.Posts` applies these rules.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from functools import cache
from typing import Any

import sqlalchemy as sa

from eventcal.errors import ApiError, Forbidden
from eventcal.permissions import (
    Actor,
    Cap,
    ItemState,
    can_delete,
    can_edit,
    can_read,
    sees_all_statuses,
)
from eventcal.resources import translations
from eventcal.resources.slugs import numbered, sanitize_slug, trashed, untrashed
from eventcal.storage import queries as q
from eventcal.storage.db import Connection, Row, as_utc, in_constants
from eventcal.storage.tables import LIVE_STATUSES
from eventcal.timezones import to_utc

FUTURE_GRACE = timedelta(minutes=1)
MAX_ID = 2**31 - 1
DEFAULT_VISIBLE_STATUSES = ("publish", "future", "draft", "pending", "private")
LISTABLE_STATUSES = (*DEFAULT_VISIBLE_STATUSES, "trash")


@dataclass(frozen=True, slots=True)
class Statements:
    """The statements every post table needs, built once per table."""

    by_id: sa.Select[Any]
    locked_by_id: sa.Select[Any]
    ids_by_slug: sa.Select[Any]
    slug_owners: sa.Select[Any]
    revision: sa.Select[Any]


@cache
def statements(table: sa.Table) -> Statements:
    live_first = sa.case((in_constants(table.c.status, LIVE_STATUSES), 0), else_=1)
    by_id = sa.select(table).where(table.c.id == sa.bindparam("id"))
    return Statements(
        by_id=by_id,
        locked_by_id=by_id.with_for_update(),
        ids_by_slug=sa.select(table.c.id)
        .where(table.c.slug == sa.bindparam("slug"))
        .order_by(live_first, table.c.id),
        slug_owners=sa.select(table.c.id).where(table.c.slug == sa.bindparam("slug")),
        revision=sa.select(table.c.revision).where(table.c.id == sa.bindparam("id")),
    )


# --- lookups -----------------------------------------------------------------------------


async def revision(conn: Connection, table: sa.Table, item_id: int) -> int | None:
    """The item's revision (+1 on every change): what ``If-Match`` compares."""
    value = await conn.scalar(statements(table).revision, {"id": item_id})
    return None if value is None else int(value)


async def find(
    conn: Connection, table: sa.Table, item_id: int, *, lock: bool = False
) -> Row | None:
    """The item; with ``lock`` (writes) its row stays locked until the transaction ends, so
    concurrent writers of one item take turns and each sees what the one before wrote
    (PostgreSQL ``FOR UPDATE``; a SQLite write transaction already excludes other writers)."""
    if item_id <= 0 or item_id > MAX_ID:
        return None
    found = statements(table)
    return await conn.first(found.locked_by_id if lock else found.by_id, {"id": item_id})


async def id_by_slug(
    conn: Connection, table: sa.Table, kind: str, slug: str, language: str | None = None
) -> int | None:
    """The item with this slug (normalised like a title), live ones first; any status. With a
    ``language`` (not the default), that language's slugs are looked at first."""
    wanted = sanitize_slug(slug)
    if not wanted:
        return None
    if language is not None:
        translated = await translations.ids_by_slug(conn, kind, language, wanted)
        if translated:
            return translated[0]
    rows = await conn.all(statements(table).ids_by_slug, {"slug": wanted})
    return int(rows[0]["id"]) if rows else None


def state(row: Row) -> ItemState:
    return ItemState(row["author_id"], row["status"], row["status_before_trash"])


def may_edit(actor: Actor, row: Row) -> bool:
    return can_edit(actor, state(row))


def may_delete(actor: Actor, row: Row) -> bool:
    return can_delete(actor, state(row))


def may_read(actor: Actor, row: Row) -> bool:
    return row["status"] == "publish" or can_read(actor, state(row))


def password_access(actor: Actor, row: Row, password: str | None, context_edit: bool) -> bool:
    """Spec README §6.4: no password, or ``context=edit`` with edit rights, or the right one."""
    stored = row["post_password"]
    if not stored:
        return True
    if context_edit and may_edit(actor, row):
        return True
    return password is not None and hmac.compare_digest(password.encode(), stored.encode())


def forbidden(actor: Actor) -> ApiError:
    """401 for anonymous callers, 403 for authenticated ones (the original's rule)."""
    return ApiError(
        "rest_forbidden",
        "Sorry, you are not allowed to do that.",
        401 if actor.is_anonymous else 403,
    )


def require_author_change(actor: Actor, author_id: int | None) -> None:
    """Only callers who may edit others' items may write an item in someone else's name."""
    if author_id is not None and author_id != actor.user_id and not actor.can(Cap.EDIT_OTHERS):
        raise Forbidden(
            "rest_cannot_edit_others", "Sorry, you are not allowed to update posts as this user."
        )


# --- listing visibility ----------------------------------------------------------------------


def visible_statuses(actor: Actor, requested: list[str] | None) -> tuple[tuple[str, ...], str]:
    """Statuses a listing may show and the ``status`` value its links carry."""
    if requested is not None:
        return tuple(requested), ",".join(requested)
    if actor.can(Cap.EDIT_POSTS):
        return DEFAULT_VISIBLE_STATUSES, "any"
    return ("publish",), "publish"


def own_author_filter(actor: Actor) -> int | None:
    """Contributors and authors list published items plus their own (DEVIATIONS #18)."""
    if actor.is_anonymous or not actor.can(Cap.EDIT_POSTS) or sees_all_statuses(actor):
        return None
    return actor.user_id


def status_request_allowed(actor: Actor, statuses: list[str]) -> bool:
    """Callers who cannot edit may ask for published items only; others for any status."""
    if actor.can(Cap.EDIT_POSTS):
        return all(s in LISTABLE_STATUSES for s in statuses)
    return statuses == ["publish"]


# --- dates and statuses ----------------------------------------------------------------------


def publication(fields: Mapping[str, Any], site_zone: tzinfo) -> datetime | None:
    """The publication instant from ``date_utc`` (UTC) or ``date`` (site-local), if sent."""
    if "date_utc" in fields:
        return fields["date_utc"].replace(tzinfo=UTC)  # type: ignore[no-any-return]
    if "date" in fields:
        return to_utc(fields["date"], site_zone)
    return None


def schedule(status: str, published_at: datetime, now: datetime) -> str:
    """WordPress: ``publish`` dated in the future becomes ``future``, and back."""
    if status == "publish" and published_at > now + FUTURE_GRACE:
        return "future"
    if status == "future" and published_at <= now:
        return "publish"
    return status


def new_item_dates(
    fields: Mapping[str, Any], status: str, site_zone: tzinfo, now: datetime
) -> tuple[str, dict[str, Any]]:
    """Final status and the date columns of a new item."""
    explicit = publication(fields, site_zone)
    published_at = explicit or now.replace(microsecond=0)
    status = schedule(status, published_at, now)
    floating = explicit is None and status in ("draft", "pending")
    return status, {
        "published_at": published_at,
        "date_floating": floating,
        "modified_at": now.replace(microsecond=0),
    }


def updated_item_dates(
    row: Row,
    fields: Mapping[str, Any],
    status: str,
    site_zone: tzinfo,
    now: datetime,
) -> tuple[str, dict[str, Any]]:
    """Final status and date columns after an update: a floating draft date is fixed when the
    item goes live; an explicit date or a status change re-checks ``future``."""
    published_at = as_utc(row["published_at"])
    floating = bool(row["date_floating"])
    explicit = publication(fields, site_zone)
    if explicit is not None:
        published_at, floating = explicit, False
    elif floating and status not in ("draft", "pending", "trash"):
        published_at, floating = now.replace(microsecond=0), False
    if status != row["status"] or explicit is not None:
        status = schedule(status, published_at, now)
    return status, {
        "published_at": published_at,
        "date_floating": floating,
        "modified_at": now.replace(microsecond=0),
    }


# --- slugs -----------------------------------------------------------------------------------


async def unique_slug(
    conn: Connection, table: sa.Table, wanted: str, exclude_id: int | None
) -> str:
    """``wanted`` or the first free ``wanted-N`` among items of the table (any status)."""
    candidate = wanted
    number = 1
    while await slug_taken(conn, table, candidate, exclude_id):
        number += 1
        candidate = numbered(wanted, number)
    return candidate


async def slug_taken(conn: Connection, table: sa.Table, slug: str, exclude_id: int | None) -> bool:
    """Whether an item of the table other than ``exclude_id`` has ``slug`` (any status)."""
    rows = await conn.all(statements(table).slug_owners, {"slug": slug})
    return any(int(r["id"]) != exclude_id for r in rows)


def new_slug(fields: Mapping[str, Any], name: str, status: str, *, drafts_get_slugs: bool) -> str:
    """The slug a new item asks for (unique-fied when written)."""
    if fields.get("slug"):
        wanted = sanitize_slug(str(fields["slug"]))
    elif status in LIVE_STATUSES or drafts_get_slugs:
        wanted = sanitize_slug(name)
    else:
        wanted = ""
    return trashed(wanted) if status == "trash" else wanted


def status_change(
    row: Row,
    status: str,
    requested_slug: str | None,
    name: str,
    *,
    drafts_get_slugs: bool,
) -> tuple[dict[str, Any], str | None]:
    """Column changes for a status change (trash and restore) and the slug to write, if any."""
    values: dict[str, Any] = {}
    old_status = str(row["status"])
    slug = str(row["slug"])
    wanted = requested_slug
    if status != old_status:
        values["status"] = status
        if old_status == "trash":
            values["status_before_trash"] = None
            if wanted is None:
                wanted = untrashed(slug)
        if status == "trash":
            values["status_before_trash"] = old_status
            wanted = trashed(wanted if wanted is not None else slug)
    live = status in LIVE_STATUSES or drafts_get_slugs
    if wanted is None and live and not slug:
        wanted = sanitize_slug(name)
    if wanted is None and status in LIVE_STATUSES and old_status not in LIVE_STATUSES:
        wanted = slug
    return values, wanted


def slug_must_be_unique(status: str, slug: str, *, drafts_get_slugs: bool) -> bool:
    return bool(slug) and status != "trash" and (status in LIVE_STATUSES or drafts_get_slugs)


async def new_id(conn: Connection, kind: str) -> int:
    """Reserve an id in the shared id space for a new item of ``kind``."""
    return await q.new_post_id(conn, kind)

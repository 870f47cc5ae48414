"""Venues and organizers: the posts events link to (the original's "linked posts").

Both collections behave the same way; a :class:`LinkedKind` states how each differs (its text
fields, what search looks at, how events link to it, its error codes, its JSON). Writes change
only the fields sent (DEVIATIONS #1); creating an item identical to an existing one returns the
existing one, as the original does.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from eventcal.context import Call
from eventcal.errors import ApiError, Forbidden, NotFound
from eventcal.i18n import N_
from eventcal.permissions import Actor, Cap, publish_status
from eventcal.services import posts, translations
from eventcal.services.pagination import Page
from eventcal.services.representation import organizer_json, venue_json
from eventcal.services.text import clean_line
from eventcal.storage import queries as q
from eventcal.storage.db import Connection, Row, in_constants, in_values
from eventcal.storage.queries import like_pattern
from eventcal.storage.tables import event, event_organizer, organizer, venue

Presenter = Callable[..., dict[str, Any]]


@dataclass(frozen=True, slots=True)
class LinkedKind:
    """How venues and organizers differ."""

    post: posts.PostKind
    name_field: str
    """The API field holding the name (``venue`` / ``organizer``)."""
    text_fields: tuple[str, ...]
    """Plain-text columns written as sent (tags stripped, whitespace collapsed)."""
    search_columns: tuple[str, ...]
    collection: str
    translated: Mapping[str, str]
    """API fields that have a text per language → their columns."""
    # Error messages naming the kind (one per kind, so that each translates on its own).
    not_accessible_message: str
    no_archive_page_message: str
    not_created_inline_message: str
    present: Presenter
    links_from_events: sa.Select[Any]
    """Ids of items linked to the events in ``:ids`` with statuses in ``:statuses``."""

    @property
    def name(self) -> str:
        return self.post.name

    @property
    def table(self) -> sa.Table:
        return self.post.table


VENUE = LinkedKind(
    post=posts.define_kind("venue", venue, drafts_get_slugs=True),
    name_field="venue",
    text_fields=(
        "address",
        "city",
        "country",
        "province",
        "state",
        "zip",
        "phone",
        "stateprovince",
        "website",
    ),
    search_columns=(
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
    ),
    collection="venues",
    translated={
        "venue": "title",
        "description": "description",
        "address": "address",
        "city": "city",
        "country": "country",
        "province": "province",
        "state": "state",
        "stateprovince": "stateprovince",
    },
    not_accessible_message=N_("The requested venue is not accessible"),
    no_archive_page_message=N_("The requested venue archive page does not exist"),
    not_created_inline_message=N_("The venue could not be created from the provided data"),
    present=venue_json,
    links_from_events=sa.select(event.c.venue_id.label("item_id")).where(
        in_values(event.c.id, "ids"), event.c.venue_id.is_not(None)
    ),
)

ORGANIZER = LinkedKind(
    post=posts.define_kind("organizer", organizer, drafts_get_slugs=True),
    name_field="organizer",
    text_fields=("phone", "website", "email"),
    search_columns=("title", "description", "excerpt", "phone", "email", "website"),
    collection="organizers",
    translated={"organizer": "title", "description": "description"},
    not_accessible_message=N_("The requested organizer is not accessible"),
    no_archive_page_message=N_("The requested organizer archive page does not exist"),
    not_created_inline_message=N_("The organizer could not be created from the provided data"),
    present=organizer_json,
    links_from_events=sa.select(event_organizer.c.organizer_id.label("item_id")).where(
        in_values(event_organizer.c.event_id, "ids")
    ),
)

KINDS = {"venue": VENUE, "organizer": ORGANIZER}


def not_accessible(kind: LinkedKind) -> Forbidden:
    return Forbidden(f"{kind.name}-not-accessible", kind.not_accessible_message)


# --- presenting ------------------------------------------------------------------------------


async def media_of(conn: Connection, rows: list[Row]) -> dict[int, Row]:
    ids = sorted({int(r["image_id"]) for r in rows if r["image_id"]})
    if not ids:
        return {}
    return {int(m["id"]): m for m in await conn.all(q.MEDIA_BY_IDS, {"ids": ids})}


def protected_for(actor: Actor, row: Row, password: str | None, context_edit: bool) -> bool:
    """True when the caller may not see the password-protected content (spec README §6.4)."""
    from eventcal.services.events import password_access

    return not password_access(actor, row, password, context_edit)


async def present(
    call: Call,
    kind: LinkedKind,
    row: Row,
    *,
    single: bool = False,
    password: str | None = None,
    context_edit: bool = False,
) -> dict[str, Any]:
    media_rows = await media_of(call.conn, [row])
    texts = await texts_of(call, [row])
    protected = protected_for(call.actor, row, password, context_edit)
    return kind.present(
        texts.localize(kind.name, row),
        call.urls,
        call.site,
        media_rows,
        languages=texts.languages(kind.name, int(row["id"])),
        json_ld=single,
        protected=protected,
    )


async def texts_of(call: Call, rows: Sequence[Row]) -> translations.Texts:
    return await translations.load(
        call.conn,
        call.language,
        call.site.default_language,
        post_ids=[int(r["id"]) for r in rows],
    )


# --- reading ---------------------------------------------------------------------------------


async def find(
    conn: Connection, kind: LinkedKind, item_id: int, *, lock: bool = False
) -> Row | None:
    return await posts.find(conn, kind.post, item_id, lock=lock)


async def read(
    call: Call, kind: LinkedKind, row: Row, *, password: str | None, context_edit: bool
) -> dict[str, Any]:
    """Single read: 403 when the caller may not read it (trashed ones too, unless they may)."""
    if not posts.may_read(call.actor, row):
        raise not_accessible(kind)
    return await present(call, kind, row, single=True, password=password, context_edit=context_edit)


# --- listing ---------------------------------------------------------------------------------

PROTECTED_COLUMNS = ("description", "excerpt")
"""What a post password hides (with the image) from callers without access."""
_FRAGMENT = re.compile(r"[A-Za-z0-9-]+")
MAX_FRAGMENTS = 10


def search_fragments(text: str) -> list[str]:
    """Maximal runs of ASCII letters, digits and ``-`` (spec venues §2.1)."""
    return _FRAGMENT.findall(text)[:MAX_FRAGMENTS]


@dataclass(slots=True)
class LinkedListQuery:
    page: int = 1
    per_page: int = 10
    search: str | None = None
    event_id: int | None = None
    has_events: bool | None = None
    only_with_upcoming: bool = False
    statuses: list[str] | None = None
    context_edit: bool = False
    password: str | None = None


_COUNTED_EVENT_STATUSES = ("publish", "future", "private", "trash")


def _has_events(kind: LinkedKind) -> sa.ColumnElement[bool]:
    """Linked to an event that is not a draft or pending (spec venues §2.2)."""
    table = kind.table
    if kind is VENUE:
        return (
            sa.exists()
            .where(
                event.c.venue_id == table.c.id,
                in_constants(event.c.status, _COUNTED_EVENT_STATUSES),
            )
            .correlate(table)
        )
    return (
        sa.exists()
        .where(
            event_organizer.c.organizer_id == table.c.id,
            event.c.id == event_organizer.c.event_id,
            in_constants(event.c.status, _COUNTED_EVENT_STATUSES),
        )
        .correlate(table)
    )


def _upcoming(kind: LinkedKind, own_author: bool) -> sa.ColumnElement[bool]:
    """Linked to an event starting now or later that the caller could list (every such event:
    DEVIATIONS #12)."""
    table = kind.table
    visible = sa.and_(
        in_values(event.c.status, "event_statuses", sa.String()),
        event.c.hide_from_listings == sa.false(),
        event.c.start_at >= sa.bindparam("now"),
    )
    if own_author:
        visible = sa.and_(
            visible,
            sa.or_(event.c.status == "publish", event.c.author_id == sa.bindparam("own_author_id")),
        )
    if kind is VENUE:
        return sa.exists().where(event.c.venue_id == table.c.id, visible).correlate(table)
    return (
        sa.exists()
        .where(
            event_organizer.c.organizer_id == table.c.id,
            event.c.id == event_organizer.c.event_id,
            visible,
        )
        .correlate(table)
    )


def _where(kind: LinkedKind, shape: tuple[Any, ...]) -> list[sa.ColumnElement[bool]]:
    own_author, n_fragments, translated, by_event, has_events, upcoming, search_protected = shape
    table = kind.table
    where: list[sa.ColumnElement[bool]] = [in_values(table.c.status, "statuses", sa.String())]
    if own_author:
        where.append(
            sa.or_(table.c.status == "publish", table.c.author_id == sa.bindparam("own_author_id"))
        )
    if n_fragments:
        names = [f"frag{i}" for i in range(n_fragments)]

        def match(columns: Sequence[str]) -> sa.ColumnElement[bool]:
            matches = [
                sa.and_(
                    *(
                        table.c[column].ilike(sa.bindparam(name, type_=sa.String), escape="\\")
                        for name in names
                    )
                )
                for column in columns
            ]
            fields = [c for c in columns if c in translations.FIELDS[kind.name]]
            if translated and fields:
                matches.append(q.translated_match(kind.name, table.c.id, fields, names))
            return sa.or_(*matches)

        if search_protected:
            where.append(match(kind.search_columns))
        else:
            # The protected content (description, excerpt) of password-protected items is not
            # searched for callers who may not read it all: a match would reveal it (§6.4).
            public = [c for c in kind.search_columns if c not in PROTECTED_COLUMNS]
            hidden = [c for c in kind.search_columns if c in PROTECTED_COLUMNS]
            where.append(sa.or_(match(public), sa.and_(table.c.post_password == "", match(hidden))))
    if by_event:
        where.append(
            in_values(table.c.id, "event_item_ids"),
        )
    if has_events is not None:
        where.append(_has_events(kind) if has_events else sa.not_(_has_events(kind)))
    if upcoming:
        where.append(_upcoming(kind, own_author))
    return where


_STATEMENTS: dict[tuple[Any, ...], tuple[sa.Select[Any], sa.Select[Any]]] = {}


def _statements(kind: LinkedKind, shape: tuple[Any, ...]) -> tuple[sa.Select[Any], sa.Select[Any]]:
    key = (kind.name, *shape)
    found = _STATEMENTS.get(key)
    if found is None:
        where = _where(kind, shape)
        table = kind.table
        count = sa.select(sa.func.count()).select_from(table).where(*where)
        page = (
            sa.select(table)
            .where(*where)
            .order_by(table.c.published_at.desc(), table.c.id.desc())
            .limit(sa.bindparam("limit", type_=sa.Integer))
            .offset(sa.bindparam("offset", type_=sa.Integer))
        )
        found = _STATEMENTS[key] = (count, page)
    return found


async def list_items(call: Call, kind: LinkedKind, query: LinkedListQuery) -> Page:
    """``GET /venues`` / ``GET /organizers`` with totals that always match the filters
    (DEVIATIONS #10)."""
    statuses, status_link = posts.visible_statuses(call.actor, query.statuses)
    own_author = posts.own_author_filter(call.actor)
    fragments = search_fragments(query.search) if query.search else []
    if query.search and not fragments:
        fragments = [query.search]
    params: dict[str, Any] = {
        "statuses": list(statuses),
        "search_language": call.translating,
        "own_author_id": own_author,
        "now": call.now,
        "event_statuses": list(posts.visible_statuses(call.actor, None)[0]),
    }
    for i, fragment in enumerate(fragments):
        params[f"frag{i}"] = like_pattern(fragment)
    if query.event_id is not None:
        rows = await call.conn.all(kind.links_from_events, {"ids": [query.event_id]})
        params["event_item_ids"] = sorted({int(r["item_id"]) for r in rows})
    shape = (
        own_author is not None,
        len(fragments),
        bool(fragments) and call.translating is not None,
        query.event_id is not None,
        query.has_events,
        query.only_with_upcoming,
        bool(fragments) and call.actor.can(Cap.EDIT_OTHERS),
    )
    count_stmt, page_stmt = _statements(kind, shape)
    total = int(await call.conn.scalar(count_stmt, params))
    link: list[tuple[str, str]] = [("page", str(query.page)), ("per_page", str(query.per_page))]
    if query.search:
        link.append(("search", query.search))
    if query.event_id is not None:
        link.append(("event", str(query.event_id)))
    if query.has_events is not None:
        link.append(("has_events", "true" if query.has_events else "false"))
    if query.only_with_upcoming:
        link.append(("only_with_upcoming", "true"))
    link.append(("status", status_link))
    page = Page(items=[], total=total, page=query.page, per_page=query.per_page, link_params=link)
    if page.offset < total:
        rows = await call.conn.all(
            page_stmt, {**params, "limit": page.per_page, "offset": page.offset}
        )
        media_rows = await media_of(call.conn, rows)
        texts = await texts_of(call, rows)
        page.items = [
            kind.present(
                texts.localize(kind.name, row),
                call.urls,
                call.site,
                media_rows,
                languages=texts.languages(kind.name, int(row["id"])),
                protected=protected_for(call.actor, row, query.password, query.context_edit),
            )
            for row in rows
        ]
    if not page.items and page.page > 1:
        raise NotFound(
            f"{kind.name}-archive-page-not-found",
            kind.no_archive_page_message,
        )
    return page


# --- writing ---------------------------------------------------------------------------------


def _state_province(fields: Mapping[str, Any], current: Row | None) -> str | None:
    """Venues: ``stateprovince`` when not sent is ``state`` for US (or unknown-country) venues,
    else ``province`` (spec venues §4.2)."""
    if fields.get("stateprovince"):
        return None
    if not any(k in fields for k in ("state", "province", "country")):
        return None

    def value(name: str) -> str:
        if name in fields:
            return str(fields[name])
        return str(current[name]) if current is not None else ""

    country = value("country").strip()
    state, province = value("state").strip(), value("province").strip()
    if state and country in ("", "US", "USA", "United States"):
        return state
    return province or state


def column_values(
    kind: LinkedKind, fields: Mapping[str, Any], current: Row | None
) -> dict[str, Any]:
    """Columns for the fields that were sent (API names → columns)."""
    values: dict[str, Any] = {}
    if kind.name_field in fields:
        values["title"] = fields[kind.name_field]
    for key in ("description", "post_password"):
        if key in fields:
            values[key] = fields[key]
    for key in kind.text_fields:
        if key in fields:
            values[key] = clean_line(str(fields[key]))
    if kind is VENUE:
        for key in ("show_map", "show_map_link", "latitude", "longitude"):
            if key in fields:
                values[key] = fields[key]
        state_province = _state_province(fields, current)
        if state_province is not None:
            values["stateprovince"] = state_province
    if "author" in fields:
        values["author_id"] = fields["author"]
    if "image" in fields:
        values["image_id"] = fields["image"].image_id
        values["image_url"] = fields["image"].image_url
    return values


_DUPLICATE_CANDIDATES: dict[str, sa.Select[Any]] = {
    k.name: sa.select(k.table)
    .where(
        sa.func.lower(k.table.c.title) == sa.bindparam("name"),
        k.table.c.status != "trash",
    )
    .order_by(k.table.c.id)
    for k in (VENUE, ORGANIZER)
}


async def find_duplicate(call: Call, kind: LinkedKind, fields: Mapping[str, Any]) -> Row | None:
    """An existing item with the same name (and description, when one is sent), that the caller
    may see: the original returns it instead of creating a twin."""
    name = str(fields[kind.name_field]).strip().lower()
    rows = await call.conn.all(_DUPLICATE_CANDIDATES[kind.name], {"name": name})
    description = str(fields.get("description") or "").strip().lower()
    for row in rows:
        if description and str(row["description"]).strip().lower() != description:
            continue
        if posts.may_read(call.actor, row):
            return row
    return None


async def create(call: Call, kind: LinkedKind, fields: Mapping[str, Any]) -> tuple[int, bool]:
    """Create an item (or find its identical twin); returns the id and whether it is new."""
    actor = call.actor
    await call.conn.lock(f"{kind.name}:{str(fields[kind.name_field]).strip().lower()}")
    duplicate = await find_duplicate(call, kind, fields)
    if duplicate is not None:
        return int(duplicate["id"]), False
    author_id = fields.get("author", actor.user_id)
    posts.require_author_change(actor, author_id)
    status, date_columns = posts.new_item_dates(
        fields, publish_status(actor, fields.get("status")), call.site.zone, call.now
    )
    name = str(fields[kind.name_field])
    wanted_slug = posts.new_slug(kind.post, {}, name, status)
    item_id = await posts.new_id(call.conn, kind.post)
    values = {
        **column_values(kind, fields, None),
        **date_columns,
        "id": item_id,
        "author_id": author_id,
        "status": status,
        "status_before_trash": "draft" if status == "trash" else None,
    }
    await posts.insert(call.conn, kind.post, values, wanted_slug)
    return item_id, True


def _translated_columns(
    kind: LinkedKind, fields: Mapping[str, Any], current: Row | None
) -> dict[str, Any]:
    """The translatable columns among the fields sent, normalised as the default text is."""
    _, sent = translations.split(fields, kind.translated)
    api_names = {column: name for name, column in kind.translated.items()}
    values = column_values(kind, {api_names[c]: v for c, v in sent.items()}, current)
    return {k: v for k, v in values.items() if k in translations.FIELDS[kind.name]}


async def _translate_new(
    call: Call, kind: LinkedKind, item_id: int, fields: Mapping[str, Any]
) -> None:
    """A new item created in another language than the default: its text is that language's
    too (identical twins found instead of created are left alone)."""
    if call.translating:
        texts = _translated_columns(kind, fields, None)
        await translations.store(call.conn, kind.name, item_id, call.translating, texts)


async def create_and_present(
    call: Call, kind: LinkedKind, fields: Mapping[str, Any]
) -> dict[str, Any]:
    item_id, new = await create(call, kind, fields)
    if new:
        await _translate_new(call, kind, item_id, fields)
    row = await find(call.conn, kind, item_id)
    assert row is not None
    return await present(call, kind, row, context_edit=True)


async def update(
    call: Call, kind: LinkedKind, row: Row, fields: Mapping[str, Any]
) -> dict[str, Any]:
    """Update an item the caller may edit: only the fields sent change. In another language
    than the default, the text fields sent set that language's text."""
    actor = call.actor
    item_id = int(row["id"])
    if call.translating:
        texts = _translated_columns(kind, fields, row)
        fields, _ = translations.split(fields, kind.translated)
        await translations.store(call.conn, kind.name, item_id, call.translating, texts)
    if "author" in fields:
        posts.require_author_change(actor, fields["author"])
    values = column_values(kind, fields, row)
    old_status = str(row["status"])
    requested = publish_status(actor, fields["status"]) if "status" in fields else old_status
    status, date_columns = posts.updated_item_dates(
        row, fields, requested, call.site.zone, call.now
    )
    values.update(date_columns)
    name = str(fields.get(kind.name_field, row["title"]))
    status_values, wanted_slug = posts.status_change(kind.post, row, status, None, name)
    values.update(status_values)
    await posts.update(
        call.conn, kind.post, item_id, values, wanted_slug=wanted_slug, status=status
    )
    if status == "trash" and old_status != "trash":
        await unlink_from_events(call.conn, kind, item_id)
    updated = await find(call.conn, kind, item_id)
    assert updated is not None
    return await present(call, kind, updated, context_edit=True)


_UNLINK_VENUE = (
    sa.update(event).where(event.c.venue_id == sa.bindparam("item_id")).values(venue_id=None)
)
_UNLINK_ORGANIZER = sa.delete(event_organizer).where(
    event_organizer.c.organizer_id == sa.bindparam("item_id")
)


async def unlink_from_events(conn: Connection, kind: LinkedKind, item_id: int) -> None:
    """Trashing an item unlinks only that item, from every event (DEVIATIONS #15)."""
    stmt = _UNLINK_VENUE if kind is VENUE else _UNLINK_ORGANIZER
    await conn.execute(stmt, {"item_id": item_id})


async def trash(call: Call, kind: LinkedKind, row: Row) -> dict[str, Any]:
    """``DELETE``: to the trash (410 when already there), unlinked from events."""
    if row["status"] == "trash":
        raise posts.already_trashed(kind.post)
    return await update(call, kind, row, {"status": "trash"})


async def create_inline(call: Call, kind: LinkedKind, fields: Mapping[str, Any]) -> int:
    """An inline venue/organizer inside an event write: created, or matched to its twin."""
    if not call.actor.can(Cap.EDIT_POSTS):
        raise posts.forbidden(call.actor)
    if not str(fields.get(kind.name_field) or "").strip():
        raise ApiError(
            f"could-not-create-{kind.name}",
            kind.not_created_inline_message,
            400,
        )
    item_id, new = await create(call, kind, fields)
    if new:
        await _translate_new(call, kind, item_id, fields)
    return item_id

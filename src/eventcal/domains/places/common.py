"""What venues and organizers share: the posts events link to (the original's "linked posts").

Their listing (search in name and text fields, items linked to an event, with events, with
upcoming events), the identical-twin rule of creates, how event writes name them (ids,
``{"id": …}`` objects, lists, CSV, or inline objects that create or match one), and the first
keys of their JSON.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from eventcal.context import Call
from eventcal.errors import ApiError, InvalidParams, MissingParams
from eventcal.http.args import (
    Arg,
    Invalid,
    Params,
    check_count,
    csv_items,
    digits,
    parse_args,
    positive_int_list,
    truthy,
)
from eventcal.http.request import RequestState
from eventcal.permissions import Cap
from eventcal.resources import parsers, references, relations, service
from eventcal.resources.listing import Condition, ListQuery
from eventcal.resources.posts import fields as post_fields
from eventcal.resources.posts import rules
from eventcal.resources.posts.present import post_url, publication
from eventcal.resources.present import Presented
from eventcal.resources.references import FilterValue
from eventcal.resources.registry import Incoming
from eventcal.resources.spec import Resource
from eventcal.resources.text import autop
from eventcal.storage.db import Row, in_constants, in_values
from eventcal.storage.queries import like_pattern, translated_match

MAX_LINKED = 100
PROTECTED_COLUMNS = ("description", "excerpt")
"""What a post password hides (with the image) from callers without access."""
_FRAGMENT = re.compile(r"[A-Za-z0-9-]+")
MAX_FRAGMENTS = 10
COUNTED_SOURCE_STATUSES = ("publish", "future", "private", "trash")
"""Statuses of the events that make a venue one "with events" (spec venues §2.2)."""


def search_fragments(text: str) -> list[str]:
    """Maximal runs of ASCII letters, digits and ``-`` (spec venues §2.1)."""
    return _FRAGMENT.findall(text)[:MAX_FRAGMENTS]


# --- the listing ----------------------------------------------------------------------------


def _any(value: Any, state: RequestState) -> Any:
    return value


def list_args(label: str, plural: str, source: str) -> tuple[Arg, ...]:
    title = plural.capitalize()
    return (
        *parsers.page_args(plural),
        Arg(
            "search",
            f"{title} should contain the specified string in the title, "
            "description or custom fields",
            parsers.search,
            type="string",
        ),
        Arg(
            "event",
            f"{title} should be related to this event",
            references.existing_item(source),
            type="integer",
        ),
        Arg("has_events", f"{title} should have events associated to them", _any),
        Arg(
            "only_with_upcoming",
            f"{title} should have upcoming events associated to them",
            _any,
            default=False,
        ),
        post_fields.status_arg(label),
    )


def conditions(
    table: sa.Table, kind: str, search_columns: Sequence[str], translated_columns: Sequence[str]
) -> dict[str, Condition]:
    """The named conditions of a venue or organizer listing (``translated_columns`` also match
    the request's language's text)."""

    def search(shape: tuple[int, bool, bool]) -> list[sa.ColumnElement[bool]]:
        fragments, translated, protected = shape
        names = [f"frag{i}" for i in range(fragments)]

        def match(columns: Sequence[str]) -> sa.ColumnElement[bool]:
            matches = [
                sa.and_(
                    *(
                        table.c[c].ilike(sa.bindparam(n, type_=sa.String), escape="\\")
                        for n in names
                    )
                )
                for c in columns
            ]
            texts = [c for c in columns if c in translated_columns]
            if translated and texts:
                matches.append(translated_match(kind, table.c.id, texts, names))
            return sa.or_(*matches)

        if protected:
            return [match(search_columns)]
        # The protected content (description, excerpt) of password-protected items is not
        # searched for callers who may not read it all: a match would reveal it (§6.4).
        public = [c for c in search_columns if c not in PROTECTED_COLUMNS]
        hidden = [c for c in search_columns if c in PROTECTED_COLUMNS]
        return [sa.or_(match(public), sa.and_(table.c.post_password == "", match(hidden)))]

    def by_event(incoming: Incoming) -> list[sa.ColumnElement[bool]]:
        return [relations.linked_to_item(incoming, table, "event_id")]

    def has_events(shape: tuple[Incoming, bool]) -> list[sa.ColumnElement[bool]]:
        incoming, wanted = shape
        status = incoming.source.table.c.status
        linked = relations.sources_where(
            incoming, table, in_constants(status, COUNTED_SOURCE_STATUSES)
        )
        return [linked if wanted else sa.not_(linked)]

    def upcoming(shape: tuple[Incoming, bool]) -> list[sa.ColumnElement[bool]]:
        """Linked to an event starting now or later that the caller could list (every such
        event: DEVIATIONS #12)."""
        incoming, own_author = shape
        source = incoming.source.table
        visible = [
            in_values(source.c.status, "event_statuses", sa.String()),
            source.c.hide_from_listings == sa.false(),
            source.c.start_at >= sa.bindparam("now"),
        ]
        if own_author:
            visible.append(
                sa.or_(
                    source.c.status == "publish",
                    source.c.author_id == sa.bindparam("own_author_id"),
                )
            )
        return [relations.sources_where(incoming, table, *visible)]

    return {
        **post_fields.visibility(table),
        "search": search,
        "event": by_event,
        "has_events": has_events,
        "upcoming": upcoming,
    }


def prepare(source: str, relation: str) -> Any:
    """The listing's ``prepare``: ``source.relation`` is how events link to the collection."""

    async def prepare_list(state: RequestState, params: Params, resource: Resource) -> ListQuery:
        call = state.call
        query = ListQuery(params["page"], params["per_page"], context_edit=state.context_edit)
        incoming = call.registry.incoming_named(resource, source, relation)
        search = params.get("search")
        query.link = [("page", str(query.page)), ("per_page", str(query.per_page))]
        if search:
            fragments = search_fragments(search) or [search]
            translated = bool(call.translating)
            protected = call.actor.can(Cap.EDIT_OTHERS)
            shape: Hashable = (len(fragments), translated, protected)
            patterns = {f"frag{i}": like_pattern(f) for i, f in enumerate(fragments)}
            query.on("search", shape, search_language=call.translating, **patterns)
            query.link.append(("search", search))
        if "event" in params:
            query.on("event", incoming, event_id=params["event"])
            query.link.append(("event", str(params["event"])))
        if "has_events" in params:
            wanted = truthy(params["has_events"])
            query.on("has_events", (incoming, wanted))
            query.link.append(("has_events", "true" if wanted else "false"))
        status_link = post_fields.restrict(call, query, params.get("status"))
        if truthy(params.get("only_with_upcoming", False)):
            own = query.active.get("own_author") is not None
            statuses = rules.visible_statuses(call.actor, None)[0]
            query.on("upcoming", (incoming, own), now=call.now, event_statuses=list(statuses))
            query.link.append(("only_with_upcoming", "true"))
            query.cacheable = False  # "upcoming" moves with the clock, not only with the data
        query.link.append(("status", status_link))
        return query

    return prepare_list


# --- creates: the identical twin ------------------------------------------------------------


_TWIN_CANDIDATES: dict[str, sa.Select[Any]] = {}


def _candidates(table: sa.Table) -> sa.Select[Any]:
    found = _TWIN_CANDIDATES.get(table.name)
    if found is None:
        found = _TWIN_CANDIDATES[table.name] = (
            sa.select(table)
            .where(sa.func.lower(table.c.title) == sa.bindparam("name"), table.c.status != "trash")
            .order_by(table.c.id)
        )
    return found


def name_of(resource: Resource, fields: Mapping[str, Any]) -> str:
    """The name a write sends (the field stored in the name column)."""
    field = next(f for f in resource.fields if f.column == resource.name_field)
    return str(fields.get(field.name) or "")


async def find_twin(call: Call, resource: Resource, fields: Mapping[str, Any]) -> Row | None:
    """An existing item with the same name (and description, when one is sent) that the
    caller may see: the original returns it instead of creating a twin. Concurrent creates of
    one name take turns (a lock until the transaction ends)."""
    name = name_of(resource, fields).strip().lower()
    await call.conn.lock(f"{resource.name}:{name}")
    rows = await call.conn.all(_candidates(resource.table), {"name": name})
    description = str(fields.get("description") or "").strip().lower()
    for row in rows:
        if description and str(row["description"]).strip().lower() != description:
            continue
        if rules.may_read(call.actor, row) and rules.password_access(call.actor, row, None, True):
            return row  # a protected twin is one the caller may not learn of: a new item is made
    return None


# --- event writes and filters name venues and organizers -------------------------------------


@dataclass(frozen=True, slots=True)
class LinkedItem:
    """One linked venue/organizer: an existing id, or data for an inline one."""

    id: int | None = None
    data: Mapping[str, Any] | None = None


def _as_id(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 0 < value <= rules.MAX_ID else None
    if isinstance(value, str):
        number = digits(value.strip(), rules.MAX_ID)
        return number if number else None
    return None


def _is_empty(value: Any) -> bool:
    return value in (0, "0", "", [], {}) and not isinstance(value, bool)


def parse_linked(value: Any, *, allow_csv: bool) -> list[LinkedItem] | None:
    """The items a value names; ``[]`` means "none" (clears the link); None means invalid."""
    if _is_empty(value):
        return []
    raw: list[Any]
    if isinstance(value, list):
        raw = value
    elif isinstance(value, str) and "," in value:
        if not allow_csv:
            return None
        raw = [part.strip() for part in value.split(",") if part.strip()]
    else:
        raw = [value]
    if len(raw) > MAX_LINKED:
        return None
    items: list[LinkedItem] = []
    for entry in raw:
        if isinstance(entry, Mapping):
            if "id" in entry and entry["id"] not in (None, ""):
                item_id = _as_id(entry["id"])
                if item_id is None:
                    return None
                items.append(LinkedItem(id=item_id))
            else:
                items.append(LinkedItem(data=dict(entry)))
            continue
        if _is_empty(entry):
            continue
        item_id = _as_id(entry)
        if item_id is None:
            return None
        items.append(LinkedItem(id=item_id))
    return items


class LinkedPosts:
    """How event writes and filters name venues and organizers."""

    async def parse(
        self, value: Any, state: RequestState, target: Resource, *, allow_csv: bool
    ) -> list[Any]:
        """Ids must exist (any status); inline objects are validated with the collection's own
        create parameters (spec events §4.3)."""
        if isinstance(value, list) or (allow_csv and isinstance(value, str)):
            check_count(csv_items(value) or [], MAX_LINKED)
        items = parse_linked(value, allow_csv=allow_csv)
        if items is None:
            raise Invalid()
        ids = sorted({i.id for i in items if i.id is not None})
        references.require_existing(await references.existing(state.call, target, ids), ids)
        parsed: list[LinkedItem] = []
        for item in items:
            if item.data is None:
                parsed.append(item)
                continue
            try:
                params = await parse_args(target.create_args(), item.data, state)
            except (InvalidParams, MissingParams):
                raise Invalid() from None
            parsed.append(LinkedItem(data={name: params[name] for name in params.sent}))
        return parsed

    async def resolve(self, call: Call, target: Resource, refs: list[Any], name: str) -> list[int]:
        """Ids in the order given, duplicates removed; inline objects are created or matched
        (callers who may create items only)."""
        ids: list[int] = []
        for item in refs:
            item_id = item.id
            if item_id is None:
                item_id = await _create_inline(call, target, item.data)
            if item_id not in ids:
                ids.append(item_id)
        return ids

    async def filter(self, value: Any, state: RequestState, target: Resource) -> FilterValue:
        ids = positive_int_list(value, state)
        references.require_existing(await references.existing(state.call, target, ids), ids)
        return FilterValue(ids, ",".join(str(i) for i in ids))


async def _create_inline(call: Call, target: Resource, fields: Mapping[str, Any]) -> int:
    if not call.actor.can(Cap.EDIT_POSTS):
        raise rules.forbidden(call.actor)
    if not name_of(target, fields).strip():
        message = target.messages.not_created_inline
        raise ApiError(f"could-not-create-{target.name}", message, 400)
    item_id, _ = await service.insert_item(call, target, fields)
    return item_id


# --- presenting -----------------------------------------------------------------------------


def header(row: Row, ctx: Presented, image: Any) -> dict[str, Any]:
    """The keys venues and organizers share, in the original's order, up to ``image``."""
    kind = ctx.resource.name
    protected = ctx.protected
    url = post_url(ctx.urls, kind, ctx.resource.behaviour.wp_type, row)
    return {
        "id": row["id"],
        **publication(row, ctx.site.zone, url),
        kind: row["title"],
        "description": "" if protected else autop(row["description"]),
        "excerpt": "" if protected else autop(row["excerpt"]),
        "slug": row["slug"],
        "image": image,
    }


def drop_empty(data: Mapping[str, Any]) -> dict[str, Any]:
    """Venues and organizers leave out empty values (spec venues §1)."""
    return {k: v for k, v in data.items() if v not in ("", "0", 0, False, None)}


def ids_tail(result: dict[str, Any], row: Row, ctx: Presented) -> dict[str, Any]:
    result["global_id"] = ctx.urls.global_id(row["id"])
    result["global_id_lineage"] = [result["global_id"]]
    result["translations"] = ctx.languages(row)
    return result

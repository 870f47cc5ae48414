"""The categories and tags listing: its parameters, named conditions and orders."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from eventcal.domains.terms import store
from eventcal.http.args import (
    MAX_LIST_ITEMS,
    UNKNOWN_IDS,
    Arg,
    Invalid,
    Params,
    as_int,
    because,
    boolean,
    check_count,
    csv_items,
    looks_integral,
    non_empty_string,
)
from eventcal.http.request import RequestState
from eventcal.resources import parsers, references, relations
from eventcal.resources.listing import Condition, ListQuery
from eventcal.resources.slugs import sanitize_slug
from eventcal.resources.spec import Resource
from eventcal.storage.db import in_values
from eventcal.storage.queries import like_pattern, translated_match
from eventcal.storage.tables import term, translation

_order = non_empty_string("order", max_length=20)
_orderby = non_empty_string("orderby", max_length=40)
_slug = non_empty_string("slug", max_length=200)

ORDERINGS = {
    "id": ("id",),
    "term_id": ("id",),
    "name": ("name",),
    "slug": ("slug",),
    "count": ("count",),
    "term_group": ("term_group",),
    "description": ("description",),
    "none": ("id",),
}


def parent(taxonomy: str) -> Any:
    """An existing category, or ``0`` for the top level (DEVIATIONS #21)."""

    async def parse(value: Any, state: RequestState) -> int:
        number = as_int(value)
        if number is None or number < 0:
            raise Invalid()
        if number and not await store.terms_by_ids(state.conn, taxonomy, [number]):
            raise because(UNKNOWN_IDS, ids=number)
        return number

    return parse


def id_list(taxonomy: str) -> Any:
    """``include``/``exclude``: ids (each an existing term of this collection), as one value, a
    list or CSV. Non-numeric items pass but match nothing, as in the original."""

    async def parse(value: Any, state: RequestState) -> list[int]:
        items = csv_items(value)
        if not items:
            raise Invalid()
        check_count(items, MAX_LIST_ITEMS)
        ids = []
        for item in items:
            number = as_int(item)
            if number is None:
                if isinstance(item, str) and not looks_integral(item):
                    continue
                raise Invalid()  # not a number, or one no id can be
            if number <= 0:
                raise Invalid()
            ids.append(number)
        if ids:
            found = await store.terms_by_ids(state.conn, taxonomy, ids)
            missing = [str(i) for i in dict.fromkeys(ids) if i not in found]
            if missing:
                raise because(UNKNOWN_IDS, ids=", ".join(missing))
        return ids

    return parse


def list_args(taxonomy: str, plural: str, hierarchical: bool) -> tuple[Arg, ...]:
    args = [
        *parsers.page_args(plural),
        Arg("search", "Limit results to those matching a string", parsers.search, type="string"),
        Arg(
            "exclude",
            "Ensure result set exclude specific IDs",
            id_list(taxonomy),
            items={"type": "integer"},
        ),
        Arg(
            "include",
            "Limit result set to specific IDs",
            id_list(taxonomy),
            items={"type": "integer"},
        ),
        Arg("order", "Order sort attribute ascending or descending", _order, type="string"),
        Arg("orderby", "Sort collection by term attribute", _orderby, type="string"),
        Arg(
            "hide_empty",
            "Whether to hide terms not assigned to any posts",
            boolean("hide_empty"),
            type="boolean",
            default="1",
        ),
    ]
    if hierarchical:
        args.append(
            Arg(
                "parent",
                "Limit result set to terms assigned to a specific parent (0: top level)",
                parent(taxonomy),
                type="integer",
            )
        )
    args += [
        Arg(
            "post",
            "Limit result set to terms assigned to a specific post",
            references.existing_item("events"),
            type="integer",
        ),
        Arg(
            "event",
            "Limit result set to terms assigned to a specific event "
            '(an alias of the "post" parameter)',
            references.existing_item("events"),
            type="integer",
        ),
        Arg("slug", "Limit result set to terms with a specific slug", _slug, type="string"),
    ]
    return tuple(args)


def _translated_slug() -> sa.ColumnElement[bool]:
    return sa.exists().where(
        translation.c.item_id == term.c.id,
        translation.c.kind == term.c.taxonomy,
        translation.c.language == sa.bindparam("search_language", type_=sa.String),
        translation.c.field == "slug",
        translation.c.value == sa.bindparam("slug", type_=sa.String),
    )


def _search(translated: bool) -> list[sa.ColumnElement[bool]]:
    pattern = sa.bindparam("search", type_=sa.String)
    matches: list[sa.ColumnElement[bool]] = [
        term.c.name.ilike(pattern, escape="\\"),
        term.c.slug.ilike(pattern, escape="\\"),
    ]
    if translated:
        matches.append(translated_match(term.c.taxonomy, term.c.id, ("name", "slug"), ["search"]))
    return [sa.or_(*matches)]


def _slug_condition(translated: bool) -> list[sa.ColumnElement[bool]]:
    slug = term.c.slug == sa.bindparam("slug", type_=sa.String)
    return [sa.or_(slug, _translated_slug()) if translated else slug]


CONDITIONS: dict[str, Condition] = {
    "taxonomy": lambda _: [term.c.taxonomy == sa.bindparam("taxonomy", type_=sa.String)],
    "search": _search,
    "exclude": lambda _: [sa.not_(in_values(term.c.id, "exclude"))],
    "include": lambda _: [in_values(term.c.id, "include")],
    "top_level": lambda _: [term.c.parent_id.is_(None)],
    "parent": lambda _: [term.c.parent_id == sa.bindparam("parent", type_=sa.Integer)],
    "event": lambda incoming: [relations.linked_to_item(incoming, term, "event_id")],
    "not_empty": lambda _: [term.c.count > 0],
    "slug": _slug_condition,
}


def orders() -> dict[Any, list[sa.ColumnElement[Any]]]:
    """Every (orderby, descending) pair; ties keep creation order whichever way the list runs
    (the original's observed order)."""
    orders: dict[Any, list[sa.ColumnElement[Any]]] = {}
    for orderby, columns in ORDERINGS.items():
        for descending in (False, True):
            keys: list[sa.ColumnElement[Any]] = []
            for column in columns:
                expr = (
                    sa.func.lower(term.c[column])
                    if column in ("name", "slug", "description")
                    else term.c[column]
                )
                keys.append(expr.desc() if descending else expr.asc())
            if orderby not in ("id", "term_id", "none"):
                keys.append(term.c.id.asc())
            orders[(orderby, descending)] = keys
    return orders


def _link_value(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return str(value)


def prepare(source: str, relation: str) -> Any:
    """The listing's ``prepare``: ``source.relation`` is how events link to the collection."""

    async def prepare_list(state: RequestState, params: Params, resource: Resource) -> ListQuery:
        return _query(state, params, resource, (source, relation))

    return prepare_list


def _query(
    state: RequestState, params: Params, resource: Resource, linked_by: tuple[str, str]
) -> ListQuery:
    call = state.call
    behaviour = resource.behaviour
    query = ListQuery(params["page"], params["per_page"], empty_pages=True)
    args = resource.listing.args
    query.link = [(a.name, _link_value(params[a.name])) for a in args if a.name in params]
    translated = call.translating is not None
    query.on("taxonomy", taxonomy=behaviour.taxonomy)
    if params.get("search"):
        query.on("search", translated, search=like_pattern(params["search"]))
        query.values["search_language"] = call.translating
    if "exclude" in params:
        query.on("exclude", exclude=params["exclude"])
    if "include" in params:
        query.on("include", include=params["include"])
    if "parent" in params:
        if params["parent"] == 0:
            query.on("top_level")
        else:
            query.on("parent", parent=params["parent"])
    event_id = params.get("event") if "event" in params else params.get("post")
    hide_empty = params.get("hide_empty", True)  # its default "1" is true too
    if event_id is not None:
        incoming = call.registry.incoming_named(resource, *linked_by)
        query.on("event", incoming, event_id=event_id)
    elif hide_empty:
        query.on("not_empty")
    if params.get("slug") is not None:
        slug = sanitize_slug(params["slug"])
        query.on("slug", translated, slug=slug, search_language=call.translating)
    orderby = str(params.get("orderby") or "name").lower()
    if orderby == "include" and "include" in params:
        query.include_order = params["include"]
    descending = str(params.get("order") or "").lower() == "desc"
    query.order = (orderby if orderby in ORDERINGS else "name", descending)
    return query

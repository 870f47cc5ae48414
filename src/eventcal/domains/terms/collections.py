"""The categories and tags collections (spec terms.md): one declaration, made twice."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from eventcal.domains.terms import store
from eventcal.domains.terms.behaviour import Terms
from eventcal.domains.terms.references import TermValues
from eventcal.errors import invalid
from eventcal.http.args import (
    MAX_LIST_ITEMS,
    Arg,
    Invalid,
    Params,
    as_int,
    boolean,
    check_count,
    csv_items,
    non_empty_string,
)
from eventcal.http.request import RequestState
from eventcal.i18n import N_
from eventcal.permissions import Cap
from eventcal.resources import parsers, relations
from eventcal.resources.components import INTEGER, STRING, ref, term_archive
from eventcal.resources.listing import Condition, Listing, ListQuery
from eventcal.resources.present import Presented
from eventcal.resources.slugs import sanitize_slug
from eventcal.resources.spec import Field, Messages, Present, Resource
from eventcal.storage.db import Row, in_values
from eventcal.storage.queries import like_pattern, translated_match
from eventcal.storage.tables import CATEGORY_TAXONOMY, TAG_TAXONOMY, term, translation

if TYPE_CHECKING:
    from eventcal.context import Call

_order = non_empty_string("order", max_length=20)
_orderby = non_empty_string("orderby", max_length=40)
_slug = non_empty_string("slug", max_length=200)
_name = non_empty_string("name", max_length=200)

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


# --- fields --------------------------------------------------------------------------------


def name(value: Any, state: RequestState) -> str:
    text = str(_name(value, state)).strip()
    if not text:
        raise Invalid()
    return text


def parent(taxonomy: str) -> Any:
    """An existing category, or ``0`` for the top level (DEVIATIONS #21)."""

    async def parse(value: Any, state: RequestState) -> int:
        number = as_int(value)
        if number is None or number < 0:
            raise Invalid()
        if number and not await store.terms_by_ids(state.conn, taxonomy, [number]):
            raise Invalid()
        return number

    return parse


def fields(taxonomy: str, label: str, hierarchical: bool) -> tuple[Field, ...]:
    found = [
        Field(
            "name",
            f"The {label} name",
            name,
            column="name",
            translated=True,
            required=True,
            type="string",
        ),
        Field(
            "description",
            f"The {label} description (an empty string clears it)",
            parsers.text("description"),
            column="description",
            translated=True,
            type="string",
        ),
        Field("slug", f"The {label} slug", _slug, column="slug", translated=True, type="string"),
    ]
    if hierarchical:
        found.append(
            Field(
                "parent", f"The {label} parent ID (0: top level)", parent(taxonomy), type="integer"
            )
        )
    return tuple(found)


async def derive(call: Call, sent: Mapping[str, Any], current: Row | None) -> dict[str, Any]:
    """A category's parent (never one of its own descendants); an updated slug normalised (an
    empty one is made from the name)."""
    values: dict[str, Any] = {}
    if "parent" in sent:
        wanted = int(sent["parent"] or 0)
        if current is not None and wanted:
            term_id = int(current["id"])
            below = await store.with_descendants(call.conn, current["taxonomy"], [term_id])
            if wanted in below:
                raise invalid("parent", "A category cannot be its own ancestor.")
        values["parent_id"] = wanted or None
    if "slug" in sent and current is not None:
        slug = sanitize_slug(str(sent["slug"]))
        values["slug"] = slug or sanitize_slug(str(sent.get("name") or current["name"]))
    return values


# --- the listing ---------------------------------------------------------------------------


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
                if isinstance(item, str):
                    continue
                raise Invalid()
            if number <= 0:
                raise Invalid()
            ids.append(number)
        if ids and len(await store.terms_by_ids(state.conn, taxonomy, ids)) != len(set(ids)):
            raise Invalid()
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
            relations.existing_item("events"),
            type="integer",
        ),
        Arg(
            "event",
            "Limit result set to terms assigned to a specific event "
            '(an alias of the "post" parameter)',
            relations.existing_item("events"),
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


def _orders() -> dict[Any, list[sa.ColumnElement[Any]]]:
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


# --- presenting ----------------------------------------------------------------------------


async def ancestors(call: Call, resource: Resource, rows: Sequence[Row]) -> list[Row]:
    """Every ancestor of the given categories (for their public URLs), in a few bulk queries."""
    known: dict[int, Row] = {int(r["id"]): r for r in rows}
    found: list[Row] = []
    missing = {int(r["parent_id"]) for r in rows if r["parent_id"]} - set(known)
    taxonomy = resource.behaviour.taxonomy
    while missing:
        parents = await store.terms_by_ids(call.conn, taxonomy, sorted(missing))
        known.update(parents)
        found.extend(parents.values())
        missing = {int(r["parent_id"]) for r in parents.values() if r["parent_id"]} - set(known)
    return found


def term_presenter(url_base: str) -> Present:
    """How a term collection shows its terms; ``url_base`` starts their public URLs."""

    def term_json(row: Row, ctx: Presented) -> dict[str, Any]:
        return _term_json(row, ctx, url_base)

    return term_json


def _term_json(row: Row, ctx: Presented, url_base: str) -> dict[str, Any]:
    """A term as the ``/categories`` and ``/tags`` routes return it (spec terms §1)."""
    resource = ctx.resource
    urls = ctx.urls
    collection = f"{urls.rest}/{resource.collection}"
    known = ctx.loaded.extra
    slugs = [str(row["slug"])]
    parent_id = int(row["parent_id"] or 0)
    seen = {int(row["id"])}
    ancestor = known.get(parent_id)
    while ancestor is not None and int(ancestor["id"]) not in seen:
        seen.add(int(ancestor["id"]))
        ancestor = ctx.loaded.texts.localize(resource.name, ancestor)
        slugs.insert(0, str(ancestor["slug"]))
        ancestor = known.get(int(ancestor["parent_id"] or 0))
    data: dict[str, Any] = {
        "id": row["id"],
        "count": row["count"],
        "description": row["description"],
        "name": row["name"],
        "slug": row["slug"],
        "taxonomy": row["taxonomy"],
    }
    if resource.behaviour.hierarchical:
        data["parent"] = parent_id
    data["meta"] = []
    data["url"] = f"{urls.home}/{url_base}/{'/'.join(slugs)}/"
    links = {"self": f"{collection}/{row['id']}", "collection": collection}
    if parent_id:
        links["up"] = f"{collection}/{parent_id}"
    data["urls"] = links
    data["translations"] = ctx.languages(row)
    return data


def embedded_term_json(row: Row, ctx: Presented) -> dict[str, Any]:
    """A category or tag as embedded in an event (spec events §1.4)."""
    collection = f"{ctx.urls.rest}/{ctx.resource.collection}"
    links = {"self": f"{collection}/{row['id']}", "collection": collection}
    parent_id = row["parent_id"] or 0
    if parent_id:
        links["up"] = f"{collection}/{parent_id}"
    return {
        "name": row["name"],
        "slug": row["slug"],
        "term_group": row["term_group"],
        "term_taxonomy_id": row["id"],
        "taxonomy": row["taxonomy"],
        "description": row["description"],
        "parent": parent_id,
        "count": row["count"],
        "filter": "raw",
        "id": row["id"],
        "urls": links,
        "translations": ctx.languages(row),
    }


# --- the declarations ----------------------------------------------------------------------

_TERM_URLS = {
    "type": "object",
    "properties": {"self": STRING, "collection": STRING, "up": STRING},
    "required": ["self", "collection"],
}
_EMBEDDED_TERM = {
    "type": "object",
    "description": "A category or tag as embedded in an event.",
    "properties": {
        "name": STRING,
        "slug": STRING,
        "term_group": INTEGER,
        "term_taxonomy_id": INTEGER,
        "taxonomy": {"type": "string", "enum": [CATEGORY_TAXONOMY, TAG_TAXONOMY]},
        "description": STRING,
        "parent": INTEGER,
        "count": INTEGER,
        "filter": STRING,
        "id": INTEGER,
        "urls": ref("TermUrls"),
    },
    "required": ["name", "slug", "taxonomy", "description", "parent", "count", "id", "urls"],
}


def _schema(hierarchical: bool) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "id": INTEGER,
        "count": {"type": "integer", "description": "Published events with this term."},
        "description": STRING,
        "name": STRING,
        "slug": STRING,
        "taxonomy": STRING,
        "parent": INTEGER,
        "meta": {"type": "array", "items": {}},
        "url": STRING,
        "urls": ref("TermUrls"),
    }
    if not hierarchical:
        del properties["parent"]
    return {
        "type": "object",
        "description": "An event category." if hierarchical else "An event tag (no parent).",
        "properties": properties,
        "required": list(properties),
    }


def taxonomy(
    *,
    value: str,
    collection: str,
    label: str,
    plural: str,
    hierarchical: bool,
    manage_caps: tuple[Cap, ...],
    exists: str,
    url_base: str,
    schema: str,
    linked_by: tuple[str, str],
) -> Resource:
    """A term collection: a taxonomy of the term table."""
    shared = {"TermUrls": _TERM_URLS, "EmbeddedTerm": _EMBEDDED_TERM}
    return Resource(
        name=value,
        collection=collection,
        label=label,
        plural=plural,
        table=term,
        fields=fields(value, label, hierarchical),
        behaviour=Terms(taxonomy=value, hierarchical=hierarchical, manage_caps=manage_caps),
        present=term_presenter(url_base),
        embed=embedded_term_json,
        schema=schema,
        listing=Listing(
            table=term,
            args=list_args(value, plural, hierarchical),
            conditions=CONDITIONS,
            orders=_orders(),
            prepare=prepare(*linked_by),
        ),
        messages=Messages(exists=exists),
        derive=derive,
        name_field="name",
        scope=("taxonomy", value),
        order=(term.c.name, term.c.id),
        also_load=ancestors,
        reference=TermValues(),
        components={
            **shared,
            schema: _schema(hierarchical),
            f"{schema}Archive": term_archive(collection, schema),
        },
    )


CATEGORIES = taxonomy(
    value=CATEGORY_TAXONOMY,
    collection="categories",
    label="event category",
    plural="event categories",
    hierarchical=True,
    manage_caps=(Cap.EDIT_POSTS, Cap.MANAGE_CATEGORIES),
    exists=N_("A term with the name provided already exists with this parent."),
    url_base="events/category",
    schema="Term",
    linked_by=("events", "categories"),
)
TAGS = taxonomy(
    value=TAG_TAXONOMY,
    collection="tags",
    label="event tag",
    plural="event tags",
    hierarchical=False,
    manage_caps=(Cap.EDIT_POSTS, Cap.MANAGE_TAGS),
    exists=N_("A term with the name provided already exists in this taxonomy."),
    url_base="tag",
    schema="Tag",
    linked_by=("events", "tags"),
)

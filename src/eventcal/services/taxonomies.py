"""The categories and tags collections (spec terms.md): one implementation, two taxonomies.

A :class:`Taxonomy` states how categories and tags differ (hierarchy, who may manage them,
messages, URLs). Terms are deleted for good; a deleted category's children move up to its parent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import sqlalchemy as sa

from eventcal.context import Call, Urls
from eventcal.errors import ApiError, invalid
from eventcal.i18n import N_
from eventcal.permissions import Actor, Cap
from eventcal.services import terms as term_service
from eventcal.services import translations
from eventcal.services.pagination import Page
from eventcal.services.slugs import sanitize_slug
from eventcal.storage import queries as q
from eventcal.storage.db import Connection, Row, UniqueViolation, in_values
from eventcal.storage.queries import TERM_SLUG_TAKEN, like_pattern, translated_match
from eventcal.storage.tables import CATEGORY_TAXONOMY, TAG_TAXONOMY, event_term, term, translation


@dataclass(frozen=True, slots=True)
class Taxonomy:
    value: str
    """``tribe_events_cat`` / ``post_tag``."""
    collection: str
    hierarchical: bool
    manage_caps: tuple[Cap, ...]
    exists_message: str
    url_base: str
    """Public archive path under the site (``events/category`` / ``tag``)."""

    def may_manage(self, actor: Actor) -> bool:
        return all(actor.can(cap) for cap in self.manage_caps)


CATEGORIES = Taxonomy(
    value=CATEGORY_TAXONOMY,
    collection="categories",
    hierarchical=True,
    manage_caps=(Cap.EDIT_POSTS, Cap.MANAGE_CATEGORIES),
    exists_message=N_("A term with the name provided already exists with this parent."),
    url_base="events/category",
)
TAGS = Taxonomy(
    value=TAG_TAXONOMY,
    collection="tags",
    hierarchical=False,
    manage_caps=(Cap.EDIT_POSTS, Cap.MANAGE_TAGS),
    exists_message=N_("A term with the name provided already exists in this taxonomy."),
    url_base="tag",
)


# --- presenting ------------------------------------------------------------------------------


async def ancestors_of(conn: Connection, taxonomy: Taxonomy, rows: Sequence[Row]) -> dict[int, Row]:
    """Every ancestor of the given categories (for their public URLs), in a few bulk queries."""
    known: dict[int, Row] = {int(r["id"]): r for r in rows}
    missing = {int(r["parent_id"]) for r in rows if r["parent_id"]} - set(known)
    while missing:
        found = await term_service.terms_by_ids(conn, taxonomy.value, sorted(missing))
        known.update(found)
        missing = {int(r["parent_id"]) for r in found.values() if r["parent_id"]} - set(known)
    return known


def term_json(
    row: Row, taxonomy: Taxonomy, urls: Urls, known: Mapping[int, Row], languages: Sequence[str]
) -> dict[str, Any]:
    """A term as the ``/categories`` and ``/tags`` routes return it (spec terms §1); ``known``
    holds its ancestors (for the URL), ``languages`` the languages it has text in."""
    collection = f"{urls.rest}/{taxonomy.collection}"
    slugs = [str(row["slug"])]
    parent = int(row["parent_id"] or 0)
    seen = {int(row["id"])}
    ancestor = known.get(parent)
    while ancestor is not None and int(ancestor["id"]) not in seen:
        seen.add(int(ancestor["id"]))
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
    if taxonomy.hierarchical:
        data["parent"] = parent
    data["meta"] = []
    data["url"] = f"{urls.home}/{taxonomy.url_base}/{'/'.join(slugs)}/"
    links = {"self": f"{collection}/{row['id']}", "collection": collection}
    if parent:
        links["up"] = f"{collection}/{parent}"
    data["urls"] = links
    data["translations"] = list(languages)
    return data


async def present_all(call: Call, taxonomy: Taxonomy, rows: Sequence[Row]) -> list[dict[str, Any]]:
    """Terms with their ancestors' slugs and their translations, in bulk."""
    known = await ancestors_of(call.conn, taxonomy, rows)
    texts = await translations.load(
        call.conn, call.language, call.site.default_language, term_ids=known
    )
    localized = {term_id: texts.localize(taxonomy.value, r) for term_id, r in known.items()}
    return [
        term_json(
            texts.localize(taxonomy.value, row),
            taxonomy,
            call.urls,
            localized,
            texts.languages(taxonomy.value, int(row["id"])),
        )
        for row in rows
    ]


async def present(call: Call, taxonomy: Taxonomy, row: Row) -> dict[str, Any]:
    return (await present_all(call, taxonomy, [row]))[0]


# --- reading ---------------------------------------------------------------------------------


_LOCKED_TERM = (
    sa.select(term)
    .where(term.c.taxonomy == sa.bindparam("taxonomy"), term.c.id == sa.bindparam("id"))
    .with_for_update()
)


async def find(
    conn: Connection, taxonomy: Taxonomy, term_id: int, *, lock: bool = False
) -> Row | None:
    """The term; with ``lock`` (writes) its row stays locked until the transaction ends."""
    if term_id <= 0 or term_id > 2**31 - 1:
        return None
    if lock:
        return await conn.first(_LOCKED_TERM, {"taxonomy": taxonomy.value, "id": term_id})
    found = await term_service.terms_by_ids(conn, taxonomy.value, [term_id])
    return found.get(term_id)


async def existing_ids(conn: Connection, taxonomy: Taxonomy, ids: Sequence[int]) -> bool:
    found = await term_service.terms_by_ids(conn, taxonomy.value, list(ids))
    return len(found) == len(set(ids))


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


@dataclass(slots=True)
class TermListQuery:
    page: int = 1
    per_page: int = 10
    search: str | None = None
    exclude: list[int] | None = None
    include: list[int] | None = None
    include_order: bool = False
    order_desc: bool = False
    orderby: str = "name"
    hide_empty: bool = True
    parent: int | None = None
    event_id: int | None = None
    slug: str | None = None
    link_params: list[tuple[str, str]] | None = None
    language: str | None = None
    """``search`` and ``slug`` also match this language's text (not the default language)."""


def _where(query: TermListQuery) -> list[sa.ColumnElement[bool]]:
    where: list[sa.ColumnElement[bool]] = [term.c.taxonomy == sa.bindparam("taxonomy")]
    if query.search:
        pattern = sa.bindparam("search", type_=sa.String)
        matches: list[sa.ColumnElement[bool]] = [
            term.c.name.ilike(pattern, escape="\\"),
            term.c.slug.ilike(pattern, escape="\\"),
        ]
        if query.language:
            matches.append(
                translated_match(term.c.taxonomy, term.c.id, ("name", "slug"), ["search"])
            )
        where.append(sa.or_(*matches))
    if query.exclude is not None:
        where.append(sa.not_(in_values(term.c.id, "exclude")))
    if query.include is not None:
        where.append(in_values(term.c.id, "include"))
    if query.parent is not None:
        where.append(
            term.c.parent_id.is_(None)
            if query.parent == 0
            else term.c.parent_id == sa.bindparam("parent", type_=sa.Integer)
        )
    if query.event_id is not None:
        where.append(
            sa.exists()
            .where(
                event_term.c.term_id == term.c.id, event_term.c.event_id == sa.bindparam("event_id")
            )
            .correlate(term)
        )
    elif query.hide_empty:
        where.append(term.c.count > 0)
    if query.slug is not None:
        slug = sa.bindparam("slug", type_=sa.String)
        if query.language:
            where.append(sa.or_(term.c.slug == slug, _translated_slug(slug)))
        else:
            where.append(term.c.slug == slug)
    return where


def _translated_slug(slug: sa.BindParameter[Any]) -> sa.ColumnElement[bool]:
    return sa.exists().where(
        translation.c.item_id == term.c.id,
        translation.c.kind == term.c.taxonomy,
        translation.c.language == sa.bindparam("search_language", type_=sa.String),
        translation.c.field == "slug",
        translation.c.value == slug,
    )


_STATEMENTS: dict[tuple[Any, ...], tuple[sa.Select[Any], sa.Select[Any]]] = {}


def _shape(query: TermListQuery) -> tuple[Any, ...]:
    return (
        bool(query.search),
        query.exclude is not None,
        query.include is not None,
        None if query.parent is None else query.parent == 0,
        query.event_id is not None,
        query.hide_empty,
        query.slug is not None,
        query.language is not None and (bool(query.search) or query.slug is not None),
        query.orderby,
        query.order_desc,
    )


def _statements(query: TermListQuery) -> tuple[sa.Select[Any], sa.Select[Any]]:
    shape = _shape(query)
    found = _STATEMENTS.get(shape)
    if found is None:
        where = _where(query)
        keys = []
        for column in ORDERINGS.get(query.orderby, ("name",)):
            expr = (
                sa.func.lower(term.c[column])
                if column in ("name", "slug", "description")
                else term.c[column]
            )
            keys.append(expr.desc() if query.order_desc else expr.asc())
        # Ties keep creation order whichever way the list runs (the original's observed order).
        if query.orderby not in ("id", "term_id", "none"):
            keys.append(term.c.id.asc())
        count = sa.select(sa.func.count()).select_from(term).where(*where)
        page = (
            sa.select(term)
            .where(*where)
            .order_by(*keys)
            .limit(sa.bindparam("limit", type_=sa.Integer))
            .offset(sa.bindparam("offset", type_=sa.Integer))
        )
        found = _STATEMENTS[shape] = (count, page)
    return found


async def list_terms(call: Call, taxonomy: Taxonomy, query: TermListQuery) -> Page:
    """``GET /categories`` / ``GET /tags``: filters, order, totals and one page."""
    query = replace(query, language=call.translating)
    params: dict[str, Any] = {
        "search_language": call.translating,
        "taxonomy": taxonomy.value,
        "search": like_pattern(query.search) if query.search else None,
        "exclude": query.exclude or [],
        "include": query.include or [],
        "parent": query.parent,
        "event_id": query.event_id,
        "slug": sanitize_slug(query.slug) if query.slug is not None else None,
    }
    count_stmt, page_stmt = _statements(query)
    total = int(await call.conn.scalar(count_stmt, params))
    page = Page(
        items=[],
        total=total,
        page=query.page,
        per_page=query.per_page,
        link_params=list(query.link_params or []),
    )
    if page.offset < total:
        rows = await call.conn.all(
            page_stmt, {**params, "limit": page.per_page, "offset": page.offset}
        )
        if query.include_order and query.include:
            position = {term_id: i for i, term_id in enumerate(query.include)}
            rows = sorted(rows, key=lambda r: position.get(int(r["id"]), 0))
        page.items = await present_all(call, taxonomy, rows)
    return page


# --- writing ---------------------------------------------------------------------------------

_SAME_NAME = sa.select(term.c.id, term.c.slug, term.c.parent_id).where(
    term.c.taxonomy == sa.bindparam("taxonomy"),
    sa.func.lower(term.c.name) == sa.bindparam("name"),
)


async def _existing_name(
    conn: Connection, taxonomy: Taxonomy, name: str, parent: int | None, slug: str | None
) -> int | None:
    """An existing term with the same name (same parent for categories) that the requested
    slug does not distinguish: creating it again is ``term_exists``."""
    rows = await conn.all(_SAME_NAME, {"taxonomy": taxonomy.value, "name": name.strip().lower()})
    for row in rows:
        if taxonomy.hierarchical and int(row["parent_id"] or 0) != int(parent or 0):
            continue
        if slug and sanitize_slug(slug) != row["slug"]:
            continue
        return int(row["id"])
    return None


async def create(
    call: Call, taxonomy: Taxonomy, fields: Mapping[str, Any]
) -> tuple[dict[str, Any], int]:
    """Create a term; 400 ``term_exists`` when the name is taken. Returns the body and id."""
    name = str(fields["name"])
    parent = fields.get("parent") or None
    await call.conn.lock(f"term:{taxonomy.value}:{name.strip().lower()}")
    existing = await _existing_name(call.conn, taxonomy, name, parent, fields.get("slug"))
    if existing is not None:
        raise ApiError(
            "term_exists",
            taxonomy.exists_message,
            400,
            data={"term_id": existing},
            top_level={"additional_data": [existing, existing]},
        )
    term_id = await term_service.create_term(
        call.conn,
        taxonomy.value,
        name,
        slug=str(fields.get("slug") or ""),
        description=str(fields.get("description") or ""),
        parent_id=parent,
    )
    if call.translating:
        texts = {k: fields[k] for k in ("name", "description") if k in fields}
        await translations.store(call.conn, taxonomy.value, term_id, call.translating, texts)
    row = await find(call.conn, taxonomy, term_id)
    assert row is not None
    return await present(call, taxonomy, row), term_id


async def descendants(conn: Connection, taxonomy: Taxonomy, term_id: int) -> set[int]:
    return set(await term_service.with_descendants(conn, taxonomy.value, [term_id])) - {term_id}


def duplicate_slug(slug: str) -> ApiError:
    return ApiError(
        "duplicate_term_slug",
        "The slug \u201c{slug}\u201d is already in use by another term.",
        400,
        slug=slug,
    )


async def update(
    call: Call, taxonomy: Taxonomy, row: Row, fields: Mapping[str, Any]
) -> dict[str, Any]:
    """Update the fields sent; a slug taken by another term is ``duplicate_term_slug`` (400).
    In another language than the default, name, description and slug set that language's."""
    term_id = int(row["id"])
    if call.translating:
        fields = await _translate(call, taxonomy, row, fields)
    values: dict[str, Any] = {}
    if "name" in fields:
        values["name"] = fields["name"]
    if "description" in fields:
        values["description"] = fields["description"]
    if "parent" in fields:
        parent = int(fields["parent"] or 0)
        below = await descendants(call.conn, taxonomy, term_id) if parent else set()
        if parent and (parent == term_id or parent in below):
            raise invalid("parent", "A category cannot be its own ancestor.")
        values["parent_id"] = parent or None
    if "slug" in fields:
        slug = sanitize_slug(str(fields["slug"])) or sanitize_slug(
            str(values.get("name", row["name"]))
        )
        values["slug"] = slug
    # Always written: a change of translations only is a change of the term too (revision).
    try:
        async with call.conn.savepoint():
            await call.conn.execute(
                q.update_row(term, tuple(sorted(values))),
                {**q.row_values(values), "row_id": term_id},
            )
    except UniqueViolation:
        raise duplicate_slug(str(values.get("slug", row["slug"]))) from None
    updated = await find(call.conn, taxonomy, term_id)
    assert updated is not None
    return await present(call, taxonomy, updated)


TRANSLATED = {"name": "name", "description": "description", "slug": "slug"}


async def _translate(
    call: Call, taxonomy: Taxonomy, row: Row, fields: Mapping[str, Any]
) -> dict[str, Any]:
    """Store the translated fields of an update; returns the fields left to apply."""
    assert call.translating is not None
    term_id = int(row["id"])
    shared, texts = translations.split(fields, TRANSLATED)
    slug = texts.pop("slug", None)

    async def taken(candidate: str) -> bool:
        owner = await call.conn.scalar(
            TERM_SLUG_TAKEN, {"taxonomy": taxonomy.value, "slug": candidate}
        )
        return owner is not None and int(owner) != term_id

    try:
        await translations.translate_item(
            call.conn,
            taxonomy.value,
            row,
            call.translating,
            texts,
            name_field="name",
            explicit_slug=slug,
            taken_by_default=taken,
            number_explicit_slug=False,
        )
    except translations.SlugInUse as exc:
        raise duplicate_slug(exc.slug) from None
    return shared


_REPARENT = (
    sa.update(term)
    .where(term.c.parent_id == sa.bindparam("term_id"))
    .values(parent_id=sa.bindparam("new_parent", type_=sa.Integer))
)
_DELETE_LINKS = sa.delete(event_term).where(event_term.c.term_id == sa.bindparam("term_id"))
_DELETE_TERM = sa.delete(term).where(term.c.id == sa.bindparam("term_id"))


async def delete(call: Call, taxonomy: Taxonomy, row: Row) -> dict[str, Any]:
    """Delete for good: children move up to the parent; events lose the term. The body is the
    term as it was."""
    body = await present(call, taxonomy, row)
    term_id = int(row["id"])
    await call.conn.execute(_REPARENT, {"term_id": term_id, "new_parent": row["parent_id"]})
    await call.conn.execute(_DELETE_LINKS, {"term_id": term_id})
    await call.conn.execute(_DELETE_TERM, {"term_id": term_id})
    await translations.delete_item(call.conn, taxonomy.value, term_id)
    return body

"""How terms are shown: on their own routes (with their ancestors' slugs in their URLs) and
embedded in events; their OpenAPI components."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from eventcal.domains.terms import store
from eventcal.resources.components import INTEGER, STRING, ref
from eventcal.resources.present import Presented
from eventcal.resources.spec import Present, Resource
from eventcal.storage.db import Row
from eventcal.storage.tables import CATEGORY_TAXONOMY, TAG_TAXONOMY

if TYPE_CHECKING:
    from eventcal.context import Call


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


TERM_URLS = {
    "type": "object",
    "properties": {"self": STRING, "collection": STRING, "up": STRING},
    "required": ["self", "collection"],
}
EMBEDDED_TERM = {
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


def schema(hierarchical: bool) -> dict[str, Any]:
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

"""Loading what a page of items links to, in bulk: one query per link table or column of the
collection's relations (relations that share a link, such as an event's categories and tags,
share the query), one for the media of every item shown, and one for the translations of
everything shown (``resources/present.py`` presents the items from it)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

import sqlalchemy as sa

from eventcal.resources.spec import ColumnLink, Link, Relation, Resource
from eventcal.resources.translations import Texts, load_texts
from eventcal.storage import queries as q
from eventcal.storage.db import Row, in_values

if TYPE_CHECKING:
    from eventcal.context import Call


@dataclass(slots=True)
class Loaded:
    """What a set of items links to, loaded in bulk."""

    related: dict[str, dict[int, list[Row]]] = field(default_factory=dict)
    """Relation name → source id → target rows, in the relation's order."""
    media: dict[int, Row] = field(default_factory=dict)
    texts: Texts = field(default_factory=lambda: Texts("en", "en"))
    locked: set[int] = field(default_factory=set)
    """Related items whose protected content the caller may not see."""
    extra: dict[int, Row] = field(default_factory=dict)
    """More rows of the collection itself, by id (``Resource.also_load``)."""
    embedded: dict[tuple[str, int, bool, bool], Any] = field(default_factory=dict)
    """Linked items as already shown, by relation, id, single read and protection: a page of
    150 events at 20 venues presents each venue once (presenters are functions of the row and
    of what is loaded, and nothing changes an embedded object afterwards). An object is a dict,
    or its JSON (``orjson.Fragment``) when it comes from the item cache (``fragments``)."""
    described: dict[tuple[str, int, bool, bool], Any] = field(default_factory=dict)
    """Linked items' schema.org objects, by the same keys as ``embedded`` (shown once)."""
    fragments: bool = False
    """Some embedded or described objects are JSON from the item cache (``orjson.Fragment``):
    items shown otherwise than only encoded are decoded first (``present.present_tagged``)."""
    also_loaded: int = 0
    """How many rows ``also_load`` added (the shown rows' extra dependencies)."""


def plain(row: Row) -> Row:
    """A row as a dict: presenters read dozens of its columns by name, and ``sqlite3.Row``
    finds a name by comparing it with each column's in turn (~2 µs for a late column of an
    event's 43, against ~0.1 µs in a dict; converting costs ~5 µs)."""
    if type(row) is dict:
        return row
    values = cast(Iterable[Any], row)  # both row types iterate over their values
    return dict(zip(row.keys(), values, strict=True))


@lru_cache(maxsize=64)
def link_query(link: Link, target: Resource) -> sa.Select[Any]:
    """The targets of a page of sources: by id for a column link, joined for a link table."""
    table = target.table
    if isinstance(link, ColumnLink):
        return sa.select(table).where(in_values(table.c.id, "ids"))
    order = [link.source, link.position] if link.position is not None else [link.source]
    return (
        sa.select(link.source.label("source_id"), table)
        .join(table, table.c.id == link.target)
        .where(in_values(link.source, "ids"))
        .order_by(*order, *target.order)
    )


def _groups(resource: Resource) -> list[list[Relation]]:
    """The relations, grouped by the link they share (one query per group)."""
    groups: dict[int, list[Relation]] = {}
    for relation in resource.relations:
        groups.setdefault(id(relation.link), []).append(relation)
    return list(groups.values())


async def _load_group(
    call: Call, relations: list[Relation], rows: Sequence[Row]
) -> dict[str, dict[int, list[Row]]]:
    """Relation name → source id → target rows, for relations that share one link."""
    link = relations[0].link
    targets = [call.registry.target(r) for r in relations]
    if isinstance(link, ColumnLink):
        column = link.column.name
        wanted = sorted({int(r[column]) for r in rows if r[column]})
        found = await call.conn.all(link_query(link, targets[0]), {"ids": wanted}) if wanted else []
        found = [plain(t) for t in found]
        by_id = {int(t["id"]): t for t in found}
        linked = {
            int(r["id"]): [by_id[int(r[column])]]
            for r in rows
            if r[column] and int(r[column]) in by_id
        }
        return {relation.name: linked for relation in relations}
    ids = [int(r["id"]) for r in rows]
    found = [plain(t) for t in await call.conn.all(link_query(link, targets[0]), {"ids": ids})]
    result: dict[str, dict[int, list[Row]]] = {}
    for relation, target in zip(relations, targets, strict=True):
        grouped: dict[int, list[Row]] = {}
        scope = target.scope  # what ``target.owns`` tests, inlined: once per row and relation
        for t in found:
            if scope is None or t[scope[0]] == scope[1]:
                grouped.setdefault(int(t["source_id"]), []).append(t)
        result[relation.name] = grouped
    return result


async def load(
    call: Call,
    resource: Resource,
    rows: Sequence[Row],
    *,
    password: str | None = None,
    context_edit: bool = False,
) -> Loaded:
    """Everything ``rows`` link to, their media and translations (see the module docstring).

    ``password`` and ``context_edit`` decide which linked items are shown protected (their own
    rule, with the request's password)."""
    loaded = Loaded()
    shown: list[tuple[Resource, Row]] = [(resource, r) for r in rows]
    if rows:
        for relations in _groups(resource):
            loaded.related.update(await _load_group(call, relations, rows))
        if resource.also_load is not None:
            extra = await resource.also_load(call, resource, rows)
            loaded.extra = {int(r["id"]): r for r in [*rows, *extra]}
            loaded.also_loaded = len(extra)
            shown.extend((resource, r) for r in extra)
    for relation in resource.relations:
        target = call.registry.target(relation)
        protected = target.behaviour.protected
        for items in loaded.related.get(relation.name, {}).values():
            shown += [(target, t) for t in items]
            loaded.locked.update(
                [int(t["id"]) for t in items if protected(call.actor, t, password, context_edit)]
            )
    media_ids = {int(r[c]) for res, r in shown if (c := res.image_column) and r[c]}
    if media_ids:
        media = await call.conn.all(q.MEDIA_BY_IDS, {"ids": sorted(media_ids)})
        loaded.media = {int(m["id"]): m for m in media}
    loaded.texts = await load_texts(
        call.conn,
        call.language,
        call.site.default_language,
        kinds=sorted({res.name for res, _ in shown}),
        ids=sorted({int(r["id"]) for _, r in shown}),
    )
    return loaded

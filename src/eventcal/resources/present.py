"""Presenting items: what a page of items links to is loaded in bulk, then each item is shown by
its collection's presenter.

One query per link table or column of the collection's relations (relations that share a link,
such as an event's categories and tags, share the query), one for the media of every item shown,
and one for the translations of everything shown — whatever the number of items and whatever the
language, so a list page costs the same at ``per_page=1`` and ``per_page=50``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import orjson
import sqlalchemy as sa

from eventcal.resources.spec import ColumnLink, Link, Relation, Resource, Shown
from eventcal.resources.translations import Texts, load_texts
from eventcal.storage import queries as q
from eventcal.storage.db import Row, in_values

MEDIA = "media"
"""How the change log names a media item (an item's image)."""

if TYPE_CHECKING:
    from eventcal.context import Call, Site, Urls


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
    embedded: dict[tuple[str, int, bool, bool], dict[str, Any]] = field(default_factory=dict)
    """Linked items as already shown, by relation, id, single read and protection: a page of
    150 events at 20 venues presents each venue once (presenters are functions of the row and
    of what is loaded, and nothing changes an embedded object afterwards)."""
    also_loaded: int = 0
    """How many rows ``also_load`` added (the shown rows' extra dependencies)."""


@dataclass(slots=True)
class Presented:
    """What a presenter gets besides the row: the request's URLs and site, and the loaded
    related items, media and translations."""

    resource: Resource
    call: Call
    loaded: Loaded
    single: bool = False
    """A single read (with JSON-LD), not a list item."""
    protected: bool = False
    """The caller may not see the item's protected content (it is blanked)."""
    urls: Urls = field(init=False)
    site: Site = field(init=False)
    media: dict[int, Row] = field(init=False)

    def __post_init__(self) -> None:
        # Attributes, not properties: presenters read them many times per item.
        self.urls = self.call.urls
        self.site = self.call.site
        self.media = self.loaded.media

    def languages(self, row: Row, resource: Resource | None = None) -> list[str]:
        """The languages the item has text in."""
        kind = (resource or self.resource).name
        return self.loaded.texts.languages(kind, int(row["id"]))

    def linked(self, relation: str, row: Row, target: Resource | None = None) -> list[Row]:
        """The localised target rows an item links to through a relation."""
        if target is None:
            target = self.call.registry.target(_relation(self.resource, relation))
        rows = self.loaded.related.get(relation, {}).get(int(row["id"]), [])
        return self.loaded.texts.localize_all(target.name, rows)

    def _targets(self, relation: str, row: Row) -> list[tuple[Row, Presented]]:
        target = self.call.registry.target(_relation(self.resource, relation))
        return [
            (
                linked,
                Presented(
                    target,
                    self.call,
                    self.loaded,
                    single=self.single,
                    protected=int(linked["id"]) in self.loaded.locked,
                ),
            )
            for linked in self.linked(relation, row, target)
        ]

    def embed(self, relation: str, row: Row) -> list[dict[str, Any]]:
        """The targets an item links to, each shown as its collection embeds it (once per
        page: items that link to the same target share its object)."""
        target = self.call.registry.target(self.resource.relation(relation))
        show = target.embed or target.present
        loaded = self.loaded
        shown = []
        for linked in loaded.related.get(relation, {}).get(int(row["id"]), []):
            item_id = int(linked["id"])
            protected = item_id in loaded.locked
            key = (relation, item_id, self.single, protected)
            data = loaded.embedded.get(key)
            if data is None:
                ctx = Presented(target, self.call, loaded, single=self.single, protected=protected)
                data = show(loaded.texts.localize(target.name, linked), ctx)
                loaded.embedded[key] = data
            shown.append(data)
        return shown

    def linked_data(self, relation: str, row: Row) -> list[dict[str, Any]]:
        """The schema.org objects of the targets an item links to (what they may show)."""
        return [
            ctx.resource.linked_data(linked, ctx)
            for linked, ctx in self._targets(relation, row)
            if ctx.resource.linked_data is not None
        ]


@lru_cache(maxsize=256)
def _relation(resource: Resource, name: str) -> Relation:
    return resource.relation(name)


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
        by_id = {int(t["id"]): t for t in found}
        linked = {
            int(r["id"]): [by_id[int(r[column])]]
            for r in rows
            if r[column] and int(r[column]) in by_id
        }
        return {relation.name: linked for relation in relations}
    ids = [int(r["id"]) for r in rows]
    found = await call.conn.all(link_query(link, targets[0]), {"ids": ids})
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


async def present_rows(
    call: Call,
    resource: Resource,
    rows: Sequence[Row],
    *,
    single: bool = False,
    password: str | None = None,
    context_edit: bool = False,
    spliced: bool = False,
) -> list[Any]:
    """Rows as their collection shows them, protected content blanked for callers who may
    not see it. What an anonymous read shows comes from the process's item cache when it has
    it (``storage/itemcache.py``); only the rows it lacks are loaded and presented. With
    ``spliced``, an item from the cache is its JSON as it is (an ``orjson.Fragment``, for a
    body that is only encoded), not decoded into a dict."""
    cache = call.items
    reads = call.reads
    if (
        cache is None
        or not cache.enabled
        or password is not None
        or context_edit
        or not call.actor.is_anonymous
        or "revision" not in resource.table.c
    ):
        if reads is not None:
            reads.complete = False
        items, _ = await _present(
            call, resource, rows, single=single, password=password, context_edit=context_edit
        )
        return items
    keys = [
        (resource.name, int(r["id"]), int(r["revision"]), call.language, call.urls, single)
        for r in rows
    ]
    # Entries are the items' JSON: compact, and every request gets objects of its own.
    decode = orjson.Fragment if spliced else orjson.loads
    shown: list[Any] = [
        None if (found := cache.get(key, reads)) is None else decode(found) for key in keys
    ]
    missing = [i for i, item in enumerate(shown) if item is None]
    if missing:
        built_rows = [rows[i] for i in missing]
        built, loaded = await _present(
            call, resource, built_rows, single=single, password=None, context_edit=False
        )
        for i, row, item in zip(missing, built_rows, built, strict=True):
            shown[i] = item
            extra = _shown_with(resource, row, loaded)
            if extra is None:
                if reads is not None:
                    reads.complete = False
                continue
            # An exact copy: orjson's output may sit in a much larger buffer.
            body = bytes(memoryview(orjson.dumps(item)))
            deps = dependencies(call, resource, row, loaded)
            deps += [(resource.name, extra_id) for extra_id in extra]
            cache.put(keys[i], body, deps, len(body), call.items_epoch)
            if reads is not None:
                reads.deps.update(deps)
    return [item for item in shown if item is not None]


def _shown_with(resource: Resource, row: Row, loaded: Loaded) -> Sequence[int] | None:
    """The extra rows an item was built from; None when it cannot be kept (items shown with
    extra rows the collection does not name, such as a series' next occurrence, which moves
    with the clock, are built every time)."""
    if not loaded.also_loaded:
        return ()
    return None if resource.shown_with is None else resource.shown_with(row)


def dependencies(call: Call, resource: Resource, row: Row, loaded: Loaded) -> list[tuple[str, int]]:
    """The items an item's representation was built from: itself, what it links to, their
    media."""
    item_id = int(row["id"])
    deps = [(resource.name, item_id)]
    shown: list[tuple[Resource, Row]] = [(resource, row)]
    for relation in resource.relations:
        target = call.registry.target(relation)
        shown += [(target, t) for t in loaded.related.get(relation.name, {}).get(item_id, [])]
    deps += [(res.name, int(r["id"])) for res, r in shown[1:]]
    deps += [(MEDIA, int(r[c])) for res, r in shown if (c := res.image_column) and r[c]]
    return deps


async def present_shown(
    call: Call,
    resource: Resource,
    rows: Sequence[Row],
    *,
    single: bool = False,
    password: str | None = None,
    context_edit: bool = False,
) -> list[Shown]:
    """The rows presented (never from the item cache), each with its localised row: what other
    formats render (the row for facts the JSON does not carry)."""
    items, loaded = await _present(
        call, resource, rows, single=single, password=password, context_edit=context_edit
    )
    return [
        Shown(item, loaded.texts.localize(resource.name, row))
        for item, row in zip(items, rows, strict=True)
    ]


async def _present(
    call: Call,
    resource: Resource,
    rows: Sequence[Row],
    *,
    single: bool,
    password: str | None,
    context_edit: bool,
) -> tuple[list[dict[str, Any]], Loaded]:
    """Each object ends with its URLs in the collection's other formats (``ical_url``)."""
    loaded = await load(call, resource, rows, password=password, context_edit=context_edit)
    protected = resource.behaviour.protected
    items = [
        resource.present(
            loaded.texts.localize(resource.name, row),
            Presented(
                resource,
                call,
                loaded,
                single=single,
                protected=protected(call.actor, row, password, context_edit),
            ),
        )
        for row in rows
    ]
    for found in resource.formats:
        if found.item_key:
            base = f"{call.urls.rest}/{resource.collection}"
            for item, row in zip(items, rows, strict=True):
                item[found.item_key] = f"{base}/{row['id']}.{found.extension}"
    return items, loaded

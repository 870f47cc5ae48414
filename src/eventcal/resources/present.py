"""Presenting items: what a page of items links to is loaded in bulk (``resources/loading.py``),
then each item is shown by its collection's presenter.

One query per link table or column of the collection's relations (relations that share a link,
such as an event's categories and tags, share the query), one for the media of every item shown,
and one for the translations of everything shown — whatever the number of items and whatever the
language, so a list page costs the same at ``per_page=1`` and ``per_page=50``. What an anonymous
read shows comes from the item cache when it keeps it (as pieces: ``resources/pieces.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import orjson

from eventcal.http.conditional import body_digest
from eventcal.resources.loading import Loaded, load, plain
from eventcal.resources.pieces import pieces
from eventcal.resources.spec import Relation, Resource, Shown
from eventcal.storage.db import Row

MEDIA = "media"
"""How the change log names a media item (an item's image)."""
EMBEDDED = "embedded"
DESCRIBED = "described"
"""The parts of items the item cache keeps apart (``Presented._part``): a linked item's
object as items embed it, and its schema.org object."""
PART_BYTES = 500
"""What a kept part costs besides its JSON (its key, the fragment, the store's links)."""
DIGEST_BYTES = 81
"""What an item cache entry's digest costs (a string of 24 hexadecimal digits and its slot;
the revision's slot in the value is the one its key no longer has)."""

if TYPE_CHECKING:
    from eventcal.context import Call, Site, Urls
    from eventcal.storage.itemcache import ItemCache


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
    parts: ItemCache | None = None
    """The item cache, when what is built may be kept (an anonymous read without password):
    the objects items embed are then taken from it as their JSON, or kept there once built
    (:meth:`_part`)."""
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
                localized = loaded.texts.localize(target.name, linked)
                data = self._part(EMBEDDED, key, show, localized, ctx)
                loaded.embedded[key] = data
            shown.append(data)
        return shown

    def linked_data(self, relation: str, row: Row) -> list[dict[str, Any]]:
        """The schema.org objects of the targets an item links to (what they may show)."""
        described = self.loaded.described
        found = []
        for linked, ctx in self._targets(relation, row):
            describe = ctx.resource.linked_data
            if describe is None:
                continue
            key = (relation, int(linked["id"]), ctx.single, ctx.protected)
            data = described.get(key)
            if data is None:
                data = self._part(DESCRIBED, key, describe, linked, ctx)
                described[key] = data
            found.append(data)
        return found

    def _part(
        self,
        kind: str,
        key: tuple[str, int, bool, bool],
        present: Callable[[Row, Presented], dict[str, Any]],
        row: Row,
        ctx: Presented,
    ) -> Any:
        """A linked item's object (``kind`` of it, by relation, id, single read and
        protection) as the item cache keeps it (its JSON, an ``orjson.Fragment``), else
        ``present(row, ctx)``, kept when it may be: built once for every item that shows it,
        and dropped by the change log with what it was built from (the item, its image)."""
        cache = self.parts
        if cache is None:
            return present(row, ctx)
        call, loaded = self.call, self.loaded
        loaded.fragments = True
        full = (kind, *key, call.language, call.urls)
        found = cache.part(full)
        if found is not None:
            return found
        text = orjson.dumps(present(row, ctx))
        target = ctx.resource
        deps = [(target.name, key[1])]
        if (column := target.image_column) and row[column]:
            deps.append((MEDIA, int(row[column])))
        # An exact copy: orjson's output may sit in a much larger buffer.
        fragment = orjson.Fragment(bytes(memoryview(text)))
        cache.put(full, fragment, deps, len(text) + PART_BYTES, call.items_epoch)
        return fragment


@lru_cache(maxsize=256)
def _relation(resource: Resource, name: str) -> Relation:
    return resource.relation(name)


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
    items, _ = await present_tagged(
        call,
        resource,
        rows,
        single=single,
        password=password,
        context_edit=context_edit,
        spliced=spliced,
    )
    return items


async def present_tagged(
    call: Call,
    resource: Resource,
    rows: Sequence[Row],
    *,
    single: bool = False,
    password: str | None = None,
    context_edit: bool = False,
    spliced: bool = False,
) -> tuple[list[Any], list[str | None]]:
    """:func:`present_rows`, and with ``spliced`` each item's digest as the item cache keeps
    it (``body_digest`` of its JSON, for the entity tag of a body that is that item alone;
    None for items it does not keep)."""
    cache = _cache(call, resource, password, context_edit)
    if cache is None:
        if call.reads is not None:
            call.reads.complete = False
        items, _ = await _present(
            call, resource, rows, single=single, password=password, context_edit=context_edit
        )
        return items, [None] * len(items)
    keys = [_key(call, resource, int(r["id"]), single) for r in rows]
    # Entries are the items' revision, digest and JSON (in pieces: see ``pieces``): compact,
    # and every request gets objects of its own.
    decode = orjson.Fragment if spliced else orjson.loads
    shown: list[Any] = []
    digests: list[str | None] = []
    for key, row in zip(keys, rows, strict=True):
        found = cache.get(key, call.reads, int(row["revision"]))
        shown.append(None if found is None else decode(b"".join(found[2:])))
        digests.append(found[1] if found is not None and spliced else None)
    missing = [i for i, item in enumerate(shown) if item is None]
    kept = len(shown) - len(missing)
    if missing:
        built_rows = [rows[i] for i in missing]
        built, loaded = await _present(
            call,
            resource,
            built_rows,
            single=single,
            password=None,
            context_edit=False,
            parts=cache,
        )
        for i, row, item in zip(missing, built_rows, built, strict=True):
            digest = _keep(call, cache, resource, (keys[i], row, item), loaded)
            kept += digest is not None
            digests[i] = digest if spliced else None
            # Objects from the cache are JSON: a body whose keys are picked needs dicts.
            shown[i] = item if spliced or not loaded.fragments else orjson.loads(orjson.dumps(item))
    if call.reads is not None and single and kept == len(rows) == 1:
        call.reads.kept = True  # the response is this item: the item cache keeps it
    return shown, digests


def kept_single(
    call: Call, resource: Resource, item_id: int, *, password: str | None, context_edit: bool
) -> tuple[bytes, int, str] | None:
    """A single read's item as the item cache keeps it, without reading its row: its JSON,
    revision and digest, or None (read the row and build or find it by :func:`present_tagged`).

    The request's sync has applied the change log up to the data version it read, so an entry
    still kept is its item at that version (a logged change of the item or of what it embeds
    dropped it), and a single read's entry is built only after the read rules let the same
    caller (anonymous, no password) see the item."""
    cache = _cache(call, resource, password, context_edit)
    found = None if cache is None else cache.get(_key(call, resource, item_id, True), call.reads)
    if found is None:
        return None
    if call.reads is not None:
        call.reads.kept = True  # the response is this item: the item cache keeps it
    return b"".join(found[2:]), found[0], found[1]


def _cache(
    call: Call, resource: Resource, password: str | None, context_edit: bool
) -> ItemCache | None:
    """The item cache, when what the caller sees of the collection may come from it: the
    same for every anonymous caller without a password or ``context=edit``."""
    cache = call.items
    if (
        cache is None
        or not cache.enabled
        or password is not None
        or context_edit
        or not call.actor.is_anonymous
        or "revision" not in resource.table.c
    ):
        return None
    return cache


def _key(call: Call, resource: Resource, item_id: int, single: bool) -> Hashable:
    """An item's entry, whatever its revision (the entry names it: see :func:`kept_single`)."""
    return (resource.name, item_id, call.language, call.urls, single)


def _keep(
    call: Call,
    cache: ItemCache,
    resource: Resource,
    built: tuple[Hashable, Row, dict[str, Any]],
    loaded: Loaded,
) -> str | None:
    """Keep a built item (its key, row and object) in the item cache: its digest if kept."""
    key, row, item = built
    reads = call.reads
    extra = _shown_with(resource, row, loaded)
    if extra is None:
        if reads is not None:
            reads.complete = False
        return None
    parts, size = pieces(item, [*loaded.embedded.values(), *loaded.described.values()], cache)
    digest = body_digest(b"".join(parts))
    deps = dependencies(call, resource, row, loaded)
    deps += [(resource.name, extra_id) for extra_id in extra]
    if reads is not None:
        reads.deps.update(deps)
    value = (int(row["revision"]), digest, *parts)
    kept = cache.put(key, value, deps, size + DIGEST_BYTES, call.items_epoch)
    return digest if kept else None


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
    parts: ItemCache | None = None,
) -> tuple[list[dict[str, Any]], Loaded]:
    """Each object ends with its URLs in the collection's other formats (``ical_url``); with
    ``parts``, what they embed may come from the item cache (``Presented.parts``)."""
    rows = [plain(row) for row in rows]
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
                parts=parts,
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

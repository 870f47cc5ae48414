"""An item's JSON as the item cache keeps it (issue 18's memory per entry): pieces that join to
exactly ``orjson.dumps(item)``, where each object many items embed (a venue, a category, a
venue's schema.org object) is one copy shared by every entry that shows it
(``ItemCache.share``). An event's entry then holds little more than its own fields."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson

from eventcal.storage.itemcache import ItemCache

Parts = tuple[bytes, ...]
"""An item's JSON as the item cache keeps it: pieces to join."""

SHORT_PIECE = 64
"""Pieces of an item's JSON this long or shorter are shared too (``],"tags":[`` and the like)."""
BYTES_OVERHEAD = 33
"""What a ``bytes`` object costs besides its text (and a tuple's slot)."""


def pieces(item: dict[str, Any], embedded: Iterable[Any], cache: ItemCache) -> tuple[Parts, int]:
    """An item's JSON as the item cache keeps it, and the bytes it costs there: pieces that
    join to ``orjson.dumps(item)``, where each object of ``embedded`` that it shows (as a
    value, a list element or a value's value: ``SHARED_DEPTH``) and each short piece between
    them is the cache's one shared copy (``ItemCache.share``)."""
    shared = {id(value) for value in embedded}
    holders: set[int] = set()
    _mark(item, shared, SHARED_DEPTH, holders)
    parts: list[tuple[bytes, bool]] = []
    _encode(item, shared, holders, parts)
    return _kept(parts, cache)


SHARED_DEPTH = 2
"""How deep in an item shared objects are looked for (an event's ``json_ld.location``)."""
CONTAINERS = (dict, list)


def _mark(value: Any, shared: set[int], depth: int, holders: set[int]) -> bool:
    """Whether ``value`` (a dict or a list) holds one of the ``shared`` objects ``depth``
    levels down at most; the ids of the values that do are added to ``holders``. One pass:
    each value is looked at once, the last level by the set's own loop."""
    children = value.values() if type(value) is dict else value
    if depth <= 1:
        holds = not shared.isdisjoint(map(id, children))
    else:
        holds = False
        for child in children:
            if id(child) in shared or (
                type(child) in CONTAINERS and _mark(child, shared, depth - 1, holders)
            ):
                holds = True
    if holds:
        holders.add(id(value))
    return holds


def _encode(value: Any, shared: set[int], holders: set[int], out: list[tuple[bytes, bool]]) -> None:
    """Append the JSON of ``value`` to ``out`` in pieces, each marked whether it is a shared
    object; values that hold none (not in ``holders``) are encoded together."""
    if id(value) in shared:
        out.append((orjson.dumps(value), True))
    elif id(value) not in holders:
        out.append((orjson.dumps(value), False))
    elif type(value) is list:
        out.append((b"[", False))
        for n, element in enumerate(value):
            if n:
                out.append((b",", False))
            _encode(element, shared, holders, out)
        out.append((b"]", False))
    else:
        out.append((b"{", False))
        run: dict[str, Any] = {}
        first = True
        for key, child in value.items():
            if id(child) not in shared and id(child) not in holders:
                run[key] = child
                continue
            text = b"" if first else b","
            if run:
                text += orjson.dumps(run)[1:-1] + b","
                run = {}
            out.append((text, False))
            out.append((orjson.dumps(key) + b":", False))
            _encode(child, shared, holders, out)
            first = False
        if run:
            out.append(((b"" if first else b",") + orjson.dumps(run)[1:-1], False))
        out.append((b"}", False))


def _kept(parts: list[tuple[bytes, bool]], cache: ItemCache) -> tuple[Parts, int]:
    """Consecutive pieces of the item's own text joined, then shared where they may be."""
    merged: list[tuple[bytes, bool]] = []
    for piece, embedded in parts:
        if merged and not embedded and not merged[-1][1]:
            merged[-1] = (merged[-1][0] + piece, False)
        else:
            merged.append((piece, embedded))
    kept: list[bytes] = []
    size = BYTES_OVERHEAD + 8 * len(merged)
    for piece, embedded in merged:
        one = cache.share(piece) if embedded or len(piece) <= SHORT_PIECE else None
        if one is None:
            size += len(piece) + BYTES_OVERHEAD
            # An exact copy: orjson's output may sit in a much larger buffer.
            one = bytes(memoryview(piece))
        kept.append(one)
    return tuple(kept), size

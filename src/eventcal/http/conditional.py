"""HTTP caching: entity tags, conditional requests, and a per-process cache of built responses.

A GET response is a function of the request (route, path, query, language, caller, the site's
date) and of the data. Each process keeps the bodies it built, keyed by request, and serves one
only while the data it was built from is unchanged; nothing in it is needed by another process.
Two rules say when:

* A response whose building named everything it read (a :class:`~eventcal.storage.itemcache.Reads`
  that stayed complete: the generic list and item reads of anonymous callers) is kept with what
  it read: the items it shows and what they embed (dependencies), and for a listing the
  generations of the kinds its conditions read. The item cache's sync applies the change log to
  it as to its items (``ItemCache.follow``): a change of one of its dependencies drops it, and a
  change of a kind it listed moves a generation, after which its stamp no longer matches.
* Any other response is valid while the data version (``storage.db.data_version``: committed
  write transactions, shared by every process through the database) is the one it was built at.

Both read the version at the start of the request, before any data; the first rule needs the
item cache synced up to it (:meth:`ResponseCache.get` checks it).

``ETag`` is a hash of the body, so any change of content changes it; ``If-None-Match`` answers
304 without building the body when the cache holds it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import Any

from eventcal.storage.itemcache import ItemCache, Reads
from eventcal.storage.kept import Store


def body_digest(body: bytes) -> str:
    """The hash an entity tag names a body by."""
    return hashlib.blake2b(body, digest_size=12).hexdigest()


def entity_tag(body: bytes, revision: int | None = None, digest: str | None = None) -> str:
    """A strong entity tag of a body; for one item's body it starts with the item's revision
    (``"r7-…"``), which ``If-Match`` compares. ``digest`` is the body's :func:`body_digest`
    when the caller has it already."""
    if digest is None:
        digest = body_digest(body)
    return f'"r{revision}-{digest}"' if revision is not None else f'"{digest}"'


def matches_revision(header: str, revision: int) -> bool:
    """``If-Match``: ``*``, or a tag of ours naming the item's current revision.

    The comparison looks at the item's own revision only: a change of something the item
    embeds (a venue's name, a term's count) does not make a write fail. Weak tags never match
    (RFC 9110 13.1.1).
    """
    if header.strip() == "*":
        return True
    # Compared as text: our tags never carry leading zeros, and a number of thousands of
    # digits is never converted (Python refuses to, which would be a 500).
    wanted = str(revision)
    for candidate in header.split(","):
        tag = candidate.strip()
        if not (tag.startswith('"r') and tag.endswith('"')):
            continue
        number, _, _ = tag[2:-1].partition("-")
        if number == wanted:
            return True
    return False


def _opaque(tag: str) -> str:
    tag = tag.strip()
    return tag[2:] if tag.startswith("W/") else tag


def none_match(header: str | None, etag: str) -> bool:
    """``If-None-Match`` names the current representation (weak comparison, RFC 9110 13.1.2)."""
    if not header:
        return False
    if header.strip() == "*":
        return True
    wanted = _opaque(etag)
    return any(_opaque(candidate) == wanted for candidate in header.split(","))


@dataclass(frozen=True, slots=True)
class Built:
    """A response as sent: status, headers and body (without per-request headers)."""

    status: int
    headers: dict[str, str]
    body: bytes
    etag: str


@dataclass(frozen=True, slots=True)
class _Entry:
    version: int
    built: Built
    generations: tuple[str, ...] | None = None
    """What the response listed (None: it follows the version rule only)."""
    stamp: tuple[int, ...] = ()


MAX_KEY_BYTES = 4096
"""Responses to requests whose key (path, query string…) is longer are not kept: distinct
long query strings would otherwise fill the cache with keys."""
ENTRY_OVERHEAD = 1024
"""Bytes an entry holds besides its body and key text: the key tuple, the entry, the
response's header dict (measured with tracemalloc: ~0.9 KB)."""
DEPENDENCY_BYTES = 150
"""Bytes each dependency of an entry holds: its place in the entry's tuple and in the
store's index (a set of keys per item; measured with tracemalloc: 140-150)."""


def key_bytes(key: Any) -> int:
    """The text a key holds (the part of its size that the client chooses)."""
    if isinstance(key, str | bytes):
        return len(key)
    if isinstance(key, tuple):
        return sum(key_bytes(part) for part in key)
    return 0


class ResponseCache:
    """Built GET responses by request key, valid by the rules of the module docstring.
    Bounded by total size: bodies, keys, dependencies and per-entry overhead (least recently
    used entries go first). Without an item cache, every entry follows the version rule."""

    def __init__(self, max_bytes: int, items: ItemCache | None = None) -> None:
        self.max_bytes = max_bytes
        self._store = Store(max_bytes)
        self._items = items if items is not None and items.enabled else None
        if self._items is not None:
            self._items.follow(self._store)
        self.hits = 0
        self.misses = 0
        self.left_to_items = 0
        """Responses not kept because the item cache keeps them (``Reads.kept``)."""

    @property
    def size(self) -> int:
        return self._store.size

    def get(self, key: Any, version: int) -> Built | None:
        """The response kept for ``key`` if it is still right at data version ``version``."""
        found = self._store.get(key)
        if found is None or not self._valid(found.value, version):
            self.misses += 1
            return None
        self.hits += 1
        built: Built = found.value.built
        return built

    def _valid(self, entry: _Entry, version: int) -> bool:
        if entry.version == version:
            return True
        items = self._items
        return (
            entry.generations is not None
            and items is not None
            and items.watermark is not None
            and items.watermark >= version  # the changes up to ``version`` were applied
            and items.stamp_of(entry.generations) == entry.stamp
        )

    def put(self, key: Any, version: int, built: Built, reads: Reads | None = None) -> None:
        """Keep a response built at ``version``; with ``reads`` complete (and no sync having
        applied a change to what it read while it was built), by what it read. A response that
        is one item the item cache keeps (``Reads.kept``) is not copied here: that cache serves
        it."""
        if reads is not None and reads.kept:
            self.left_to_items += 1
            return
        key_size = key_bytes(key)
        if key_size > MAX_KEY_BYTES:
            return
        entry = _Entry(version, built)
        deps: tuple[tuple[str, int], ...] = ()
        items = self._items
        # A sync that applied a change to what it read while the response was built may have
        # missed it (and the stamp below would be the new one).
        if (
            items is not None
            and reads is not None
            and reads.complete
            and items.unchanged_since(reads.epoch, reads.deps, reads.generations)
        ):
            generations = tuple(sorted(reads.generations))
            entry = _Entry(version, built, generations, items.stamp_of(generations))
            deps = tuple(reads.deps)
        cost = len(built.body) + key_size + ENTRY_OVERHEAD + DEPENDENCY_BYTES * len(deps)
        if cost > self.max_bytes // 8:
            return
        # orjson returns its output in a buffer of 64 KiB or more, whatever the length: kept
        # as it is, a 5 KB body would hold 64 KiB. Keep an exact copy instead.
        built = replace(built, body=bytes(memoryview(built.body)))
        self._store.put(key, replace(entry, built=built), deps, cost)

    def __len__(self) -> int:
        return len(self._store)

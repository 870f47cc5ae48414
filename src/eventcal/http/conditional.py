"""HTTP caching: entity tags, conditional requests, and a per-process cache of built responses.

A GET response is a function of the request (route, path, query, language, caller, the site's
date) and of the data. The data version (``storage.db.data_version``: committed write
transactions, shared by every process through the database) says when the data changed, so a
response built at version N is still right while the version is N. Each process keeps the bodies
it built, keyed by request and checked against the version read at the start of every request;
nothing in it is needed by another process, and nothing served from it can be stale.

``ETag`` is a hash of the body, so any change of content changes it; ``If-None-Match`` answers
304 without building the body when the cache holds it.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any


def entity_tag(body: bytes, revision: int | None = None) -> str:
    """A strong entity tag of a body; for one item's body it starts with the item's revision
    (``"r7-…"``), which ``If-Match`` compares."""
    digest = hashlib.blake2b(body, digest_size=12).hexdigest()
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


@dataclass(slots=True)
class _Entry:
    version: int
    built: Built
    cost: int


MAX_KEY_BYTES = 4096
"""Responses to requests whose key (path, query string…) is longer are not kept: distinct
long query strings would otherwise fill the cache with keys."""
ENTRY_OVERHEAD = 1024
"""Bytes an entry holds besides its body and key text: the key tuple, the entry, the
response's header dict (measured with tracemalloc: ~0.9 KB)."""


def key_bytes(key: Any) -> int:
    """The text a key holds (the part of its size that the client chooses)."""
    if isinstance(key, str | bytes):
        return len(key)
    if isinstance(key, tuple):
        return sum(key_bytes(part) for part in key)
    return 0


class ResponseCache:
    """Built GET responses by request key, valid while the data version they were built at is
    the current one. Bounded by total size: bodies, keys and per-entry overhead (least
    recently used entries go first)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self._entries: OrderedDict[Any, _Entry] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, key: Any, version: int) -> Built | None:
        entry = self._entries.get(key)
        if entry is None or entry.version != version:
            self.misses += 1
            return None
        self._entries.move_to_end(key)
        self.hits += 1
        return entry.built

    def put(self, key: Any, version: int, built: Built) -> None:
        key_size = key_bytes(key)
        if key_size > MAX_KEY_BYTES:
            return
        cost = len(built.body) + key_size + ENTRY_OVERHEAD
        if cost > self.max_bytes // 8:
            return
        # orjson returns its output in a buffer of 64 KiB or more, whatever the length: kept
        # as it is, a 5 KB body would hold 64 KiB. Keep an exact copy instead.
        built = replace(built, body=bytes(memoryview(built.body)))
        old = self._entries.pop(key, None)
        if old is not None:
            self.size -= old.cost
        self._entries[key] = _Entry(version, built, cost)
        self.size += cost
        while self.size > self.max_bytes and self._entries:
            _, dropped = self._entries.popitem(last=False)
            self.size -= dropped.cost

    def __len__(self) -> int:
        return len(self._entries)

"""Values kept by what they were built from: the store under the item cache and the response
cache.

Each value is kept under a key with its *dependencies* (the ``(kind, id)`` pairs of the change
log whose changes make it wrong) and a cost in bytes; the store is bounded by the sum of the
costs (least recently used go first) and finds every value built from an item at once, so the
item cache's sync (``storage/itemcache.py``) drops them when the change log names the item.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

Dependency = tuple[str, int]
"""``(kind, id)`` as the change log names items."""


@dataclass(slots=True)
class Kept:
    """One kept value (see the module docstring)."""

    value: Any
    deps: tuple[Dependency, ...]
    cost: int


class Store:
    """Kept values by key, bounded by ``max_bytes`` of cost."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self._entries: OrderedDict[Hashable, Kept] = OrderedDict()
        self._by_dep: dict[Dependency, set[Hashable]] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Hashable) -> Kept | None:
        """The value kept under ``key`` (it becomes the most recently used)."""
        entry = self._entries.get(key)
        if entry is not None:
            self._entries.move_to_end(key)
        return entry

    def put(self, key: Hashable, value: Any, deps: tuple[Dependency, ...], cost: int) -> None:
        """Keep ``value`` (replacing what ``key`` held), then drop the least recently used
        values until the costs fit."""
        self.drop(key)
        self._entries[key] = Kept(value, deps, cost)
        for dep in deps:
            self._by_dep.setdefault(dep, set()).add(key)
        self.size += cost
        while self.size > self.max_bytes and self._entries:
            self.drop(next(iter(self._entries)))

    def drop_dependents(self, dep: Dependency) -> None:
        """Drop every value built from ``dep``."""
        for key in list(self._by_dep.get(dep, ())):
            self.drop(key)

    def drop(self, key: Hashable) -> None:
        entry = self._entries.pop(key, None)
        if entry is None:
            return
        self.size -= entry.cost
        for dep in entry.deps:
            keys = self._by_dep.get(dep)
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del self._by_dep[dep]

    def clear(self) -> None:
        self._entries.clear()
        self._by_dep.clear()
        self.size = 0

"""Built item representations (their JSON), kept per process and invalidated by the change log.

A listing or a single read presents its rows one by one; what an item shows depends on its own
row (the key carries its ``revision``, read from the database by the same request) and on the
rows it embeds (its venue, organizers, terms, media, translations), whose changes do not touch
its revision. Each entry therefore lists the items it was built from (its *dependencies*), and
every change recorded in the change log drops the entries that depend on the item it names.

Freshness across processes: every request that may use the cache first reads the data version
(the router does, for the response cache) and calls :meth:`ItemCache.sync` with it, which reads
the change log from the last version this process applied up to that one and drops what
changed. Versions follow commit order and a transaction's log rows commit with it, so after
``sync(v)`` no entry is older than any write committed up to ``v``. A version in that range with
no log row (a versioned write that recorded nothing), more rows than :data:`MAX_CHANGES`, or a
version that went backwards clears the whole cache: never stale, only slower.

Listing totals are kept the same way, by what they read: each is stamped with the *generation*
of the kinds of items its statement reads (a sync bumps the generation of every kind its changes
name), and a total whose stamp is not current is counted again. A change logged with the aspect
``text`` (an update of columns that no listing condition reads but a search) bumps only the kind's
*text generation*, which stamps only the totals of listings with a search condition: a title edit
leaves a category's total alone, not the total of a search for the new word.

An entry built while a sync ran (its data may predate a change the sync applied) is not stored:
:meth:`put` takes the *epoch* the request saw after its own sync and drops the entry when a sync
has applied changes since.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from itertools import repeat
from typing import Any

import sqlalchemy as sa

from eventcal.storage.changes import TEXT
from eventcal.storage.db import Database
from eventcal.storage.service_tables import change

MAX_CHANGES = 2000
"""More changes than this since the last sync: clear everything instead of reading them all."""
MAX_TOTALS = 10_000
"""Listing totals kept (least recently used go first; each is a key and an integer)."""
ENTRY_OVERHEAD = 3000
"""Bytes an entry costs besides its value (key, dependency sets, LRU links, and the heap around
them): 32 MB so counted grew a worker by 33 MB (tracemalloc and VmRSS after malloc_trim)."""

Dependency = tuple[str, int]
"""``(kind, id)`` as the change log names items."""

CHANGES_SINCE = (
    sa.select(change.c.version, change.c.kind, change.c.item_id, change.c.aspect)
    .where(change.c.version > sa.bindparam("version", type_=sa.BigInteger))
    .order_by(change.c.version)
    .limit(sa.bindparam("limit", type_=sa.Integer))
)


@dataclass(slots=True)
class _Entry:
    value: Any
    deps: tuple[Dependency, ...]
    cost: int


class ItemCache:
    """See the module docstring. ``max_bytes`` bounds the estimated size of the values."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self.watermark: int | None = None
        """The data version up to which every change has been applied."""
        self.epoch = 0
        """Grows each time a sync drops entries (see :meth:`put`)."""
        self.hits = 0
        self.misses = 0
        self._entries: OrderedDict[Hashable, _Entry] = OrderedDict()
        self._by_dep: dict[Dependency, set[Hashable]] = {}
        self._generations: dict[str, int] = {}
        self._cleared = 0
        self._totals: OrderedDict[Hashable, tuple[tuple[int, ...], int]] = OrderedDict()
        self._lock = asyncio.Lock()

    @property
    def enabled(self) -> bool:
        return self.max_bytes > 0

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Hashable) -> Any | None:
        entry = self._entries.get(key)
        if entry is None:
            self.misses += 1
            return None
        self._entries.move_to_end(key)
        self.hits += 1
        return entry.value

    def put(
        self, key: Hashable, value: Any, deps: Iterable[Dependency], size: int, epoch: int
    ) -> None:
        """Keep ``value`` (about ``size`` bytes) unless a sync applied changes after ``epoch``."""
        cost = size + ENTRY_OVERHEAD
        if epoch != self.epoch or cost > self.max_bytes // 16:
            return
        self._drop(key)
        entry = _Entry(value, tuple(set(deps)), cost)
        self._entries[key] = entry
        for dep in entry.deps:
            self._by_dep.setdefault(dep, set()).add(key)
        self.size += cost
        while self.size > self.max_bytes and self._entries:
            self._drop(next(iter(self._entries)))

    def stamp(self, kinds: Iterable[str], *, text: bool = False) -> tuple[int, ...]:
        """The current generation of what reads of ``kinds`` depend on; with ``text``, of
        what reads of their searched text depend on too."""
        generations = self._generations
        names = (*kinds, *(f"{kind}:{TEXT}" for kind in kinds)) if text else kinds
        return (self._cleared, *(generations.get(name, 0) for name in names))

    def total(self, key: Hashable, stamp: tuple[int, ...]) -> int | None:
        """A listing's total counted at ``stamp`` (see the module docstring)."""
        found = self._totals.get(key)
        if found is None or found[0] != stamp:
            return None
        self._totals.move_to_end(key)
        return found[1]

    def put_total(self, key: Hashable, stamp: tuple[int, ...], total: int, epoch: int) -> None:
        if epoch != self.epoch or not self.enabled:
            return
        self._totals[key] = (stamp, total)
        self._totals.move_to_end(key)
        while len(self._totals) > MAX_TOTALS:
            self._totals.popitem(last=False)

    def clear(self) -> None:
        self._entries.clear()
        self._by_dep.clear()
        self._totals.clear()
        self.size = 0
        self.epoch += 1
        self._cleared += 1

    def invalidate(
        self, items: Iterable[Dependency], aspects: Iterable[str | None] | None = None
    ) -> None:
        """Drop every entry built from one of ``items``; totals that read their kinds become
        stale, or only those that search their text when the item's change (same position in
        ``aspects``, if given) is a ``text`` one."""
        kinds = set()
        for dep, aspect in zip(items, aspects or repeat(None), strict=False):
            kinds.add(dep[0] if aspect != TEXT else f"{dep[0]}:{TEXT}")
            for key in list(self._by_dep.get(dep, ())):
                self._drop(key)
        for kind in kinds:
            self._generations[kind] = self._generations.get(kind, 0) + 1
        self.epoch += 1

    async def sync(self, database: Database, version: int) -> None:
        """Apply the changes committed up to data version ``version`` (see the module
        docstring); cheap when nothing changed."""
        if not self.enabled or version == self.watermark:
            return
        async with self._lock:
            watermark = self.watermark
            if watermark is not None and version < watermark:
                # Another request synced further already; a version far behind the one this
                # process saw means the database was replaced: start again.
                if version < watermark - MAX_CHANGES:
                    self.clear()
                    self.watermark = version
                return
            if watermark is None or version - watermark > MAX_CHANGES:
                self.clear()
            elif version > watermark:
                async with database.read() as conn:
                    rows = await conn.all(
                        CHANGES_SINCE, {"version": watermark, "limit": MAX_CHANGES + 1}
                    )
                seen = {int(r["version"]) for r in rows if int(r["version"]) <= version}
                if len(rows) > MAX_CHANGES or len(seen) != version - watermark:
                    self.clear()
                else:
                    self.invalidate(
                        [(str(r["kind"]), int(r["item_id"])) for r in rows],
                        [r["aspect"] for r in rows],
                    )
            self.watermark = version

    def _drop(self, key: Hashable) -> None:
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

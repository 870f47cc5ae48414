"""Built item representations (their JSON), kept per process and invalidated by the change log.

A listing or a single read presents its rows one by one; what an item shows depends on its own
row and on the rows it embeds (its venue, organizers, terms, media, translations), whose changes
do not touch its revision. Each entry therefore lists the items it was built from (its
*dependencies*), and every change recorded in the change log drops the entries that depend on
the item it names. An entry also names the revision of the row it was built from: a listing,
which reads its rows anyway, takes an entry only for the revision it read (:meth:`get`); a
single read by id takes it without reading the row (``resources/present.kept_single``): after
the request's sync, an entry still kept shows its item as it is at the data version the
request read, since any change to the item (its status, password, text) was logged and dropped
it, and it was built only for a caller who may read it (anonymous, no password).

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

An entry is the item's JSON in pieces (:meth:`ItemCache.share`): what many items embed (a venue,
a category) is one shared copy, so an event's entry holds little more than its own fields.

An entry built while a sync dropped one of the items it was built from (its data may predate
that change) is not stored: :meth:`put` takes the *epoch* the request saw after its own sync and
drops the entry when a sync has since applied a change naming one of its dependencies (or cleared
the cache). Changes of other items do not matter to it, as they would not have dropped it had it
been stored before them: on PostgreSQL, where a build awaits every statement, a sync lands in
most builds under load, and refusing them all kept nothing while an editor wrote.

The response cache keeps responses the same way (``http/conditional.py``): its store follows
the change log through this cache (:meth:`ItemCache.follow`), a response collects what it was
built from in a :class:`Reads` (the dependencies of the items it shows, from this cache's
entries or as they are built, and the generations of what its listing read), and
:meth:`clear` empties both.
"""

from __future__ import annotations

import asyncio
import sys
from collections import OrderedDict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

import sqlalchemy as sa

from eventcal.storage.changes import TEXT
from eventcal.storage.db import Database
from eventcal.storage.kept import Dependency, Store
from eventcal.storage.service_tables import change

MAX_CHANGES = 2000
"""More changes than this since the last sync: clear everything instead of reading them all."""
MAX_TOTALS = 10_000
"""Listing totals kept (least recently used go first; each is a key and an integer)."""
MAX_DROPS_KEPT = 20_000
"""Items whose last drop's epoch is remembered for :meth:`ItemCache.unchanged_since`; past
that, the memory starts again and builds that began earlier are not kept."""
ENTRY_OVERHEAD = 1000
"""Bytes an entry costs besides its value (key, dependencies, LRU links): see
``bench/README.md``, "A single event (single branch)"."""
PIECE_OVERHEAD = 50
"""Bytes a shared piece costs besides its text (the object and its slot in the table)."""
SHARED_PART = 32
"""The part of the cache's bytes that shared pieces may take."""
MAX_NAMES = 20_000
"""Dependency names kept as one object each (beyond that the table starts again; at most
~2.5 MB, not counted in the cache's size: the 10,000 bench events and what they link to are
~10,500 names)."""

CHANGES_SINCE = (
    sa.select(change.c.version, change.c.kind, change.c.item_id, change.c.aspect)
    .where(change.c.version > sa.bindparam("version", type_=sa.BigInteger))
    .order_by(change.c.version)
    .limit(sa.bindparam("limit", type_=sa.Integer))
)


def generation_names(kinds: Iterable[str], *, text: bool = False) -> tuple[str, ...]:
    """The generations that reads of ``kinds`` depend on; with ``text``, those of reads of
    their searched text too."""
    return (*kinds, *(f"{kind}:{TEXT}" for kind in kinds)) if text else tuple(kinds)


@dataclass(slots=True)
class Reads:
    """What one response was built from, collected while it is built (the response cache
    keeps it by these: ``http/conditional.py``): the items it shows (their dependencies) and
    the generations of what its listing read. A step that cannot name what it read sets
    ``complete`` to False: the response is then kept only while the data version stays."""

    epoch: int
    """The item cache's epoch after the request's sync (see :meth:`ItemCache.put`)."""
    deps: set[Dependency] = field(default_factory=set)
    generations: set[str] = field(default_factory=set)
    complete: bool = True
    kept: bool = False
    """The response is one item as this cache keeps it (a single read): the response cache
    keeps no second copy of it."""

    def listed(self, kinds: Iterable[str], *, text: bool = False) -> None:
        """The response read which items of ``kinds`` exist and what conditions read of
        them (their searched text with ``text``)."""
        self.generations.update(generation_names(kinds, text=text))


class Shared:
    """Byte strings that many entries hold, one copy each (see :meth:`ItemCache.share`),
    bounded by ``max_bytes``; a piece no entry holds any more goes when room is needed."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self._pieces: dict[bytes, bytes] = {}
        self._refused = 0

    def __len__(self) -> int:
        return len(self._pieces)

    def share(self, piece: bytes) -> bytes | None:
        """The one copy of ``piece``; None when it does not fit (the caller keeps its own)."""
        found = self._pieces.get(piece)
        if found is not None:
            return found
        cost = len(piece) + PIECE_OVERHEAD
        if self.size + cost > self.max_bytes:
            if self._refused % 1024 == 0:  # a scan of the table, not on every refusal
                self.prune()
            self._refused += 1
            if self.size + cost > self.max_bytes:
                return None
        piece = bytes(memoryview(piece))  # an exact copy: orjson's buffer may be far larger
        self._pieces[piece] = piece
        self.size += cost
        return piece

    def prune(self) -> None:
        """Forget the pieces only this table holds (its key and value, the loop's name and
        ``getrefcount``'s argument: 4 references)."""
        unused = [piece for piece in self._pieces if sys.getrefcount(piece) <= 4]
        for piece in unused:
            del self._pieces[piece]
            self.size -= len(piece) + PIECE_OVERHEAD

    def clear(self) -> None:
        self._pieces.clear()
        self.size = 0


class ItemCache:
    """See the module docstring. ``max_bytes`` bounds the estimated size of the values."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.watermark: int | None = None
        """The data version up to which every change has been applied."""
        self.epoch = 0
        """Grows each time a sync drops entries (see :meth:`put`)."""
        self._floor = 0
        """Builds that began before this epoch are not kept (the cache was cleared since)."""
        self._dropped_at: dict[Dependency, int] = {}
        """The epoch at which each item's entries were last dropped."""
        self._bumped_at: dict[str, int] = {}
        """The epoch at which each generation last moved."""
        self.hits = 0
        self.misses = 0
        self._shared = Shared(max_bytes // SHARED_PART)
        self._items = Store(max_bytes - self._shared.max_bytes)
        self._names: dict[Dependency, Dependency] = {}
        self._stores = [self._items]
        self._generations: dict[str, int] = {}
        self._cleared = 0
        self._totals: OrderedDict[Hashable, tuple[tuple[int, ...], int]] = OrderedDict()
        self._lock = asyncio.Lock()

    @property
    def enabled(self) -> bool:
        return self.max_bytes > 0

    def __len__(self) -> int:
        return len(self._items)

    @property
    def size(self) -> int:
        return self._items.size + self._shared.size

    def share(self, piece: bytes) -> bytes | None:
        """The one copy of a piece of JSON that many entries hold (what they embed), kept
        while any entry holds it; None when the room for such pieces is full (the entry then
        keeps, and counts, its own)."""
        return self._shared.share(piece)

    def follow(self, store: Store) -> None:
        """Apply the change log to ``store`` too: values built from a changed item go, and
        :meth:`clear` empties it."""
        self._stores.append(store)

    def get(
        self, key: Hashable, reads: Reads | None = None, revision: int | None = None
    ) -> Any | None:
        """The value kept under ``key``; ``reads`` notes what it was built from. With
        ``revision``, only a value built from that revision of its item (values that name
        their revision are tuples that start with it)."""
        entry = self._items.get(key)
        if entry is None or (revision is not None and entry.value[0] != revision):
            self.misses += 1
            return None
        self.hits += 1
        if reads is not None:
            reads.deps.update(entry.deps)
        return entry.value

    def part(self, key: Hashable) -> Any | None:
        """A part many entries are built from (a venue as events embed it), kept by
        :meth:`put` under its own key: not counted as a hit or a miss, which count entries."""
        entry = self._items.get(key)
        return None if entry is None else entry.value

    def put(
        self, key: Hashable, value: Any, deps: Iterable[Dependency], size: int, epoch: int
    ) -> bool:
        """Keep ``value`` (about ``size`` bytes) unless a sync dropped one of ``deps`` after
        ``epoch``; whether it was kept."""
        cost = size + ENTRY_OVERHEAD
        kept = set(deps)
        if cost > self.max_bytes // 16 or not self.unchanged_since(epoch, kept):
            return False
        names = self._names
        if len(names) > MAX_NAMES:
            names.clear()
        # One tuple per item named, whatever the number of entries built from it.
        self._items.put(key, value, tuple({names.setdefault(d, d) for d in kept}), cost)
        return True

    def unchanged_since(
        self, epoch: int, deps: Iterable[Dependency], generations: Iterable[str] = ()
    ) -> bool:
        """No sync after ``epoch`` dropped what depends on one of ``deps`` or moved one of
        ``generations``, and none cleared the cache: a value built from data read after
        ``epoch`` is as fresh as one kept before and left alone since."""
        if epoch < self._floor:
            return False
        if epoch == self.epoch:
            return True
        dropped, bumped = self._dropped_at, self._bumped_at
        return all(dropped.get(dep, 0) <= epoch for dep in deps) and all(
            bumped.get(name, 0) <= epoch for name in generations
        )

    def stamp(self, kinds: Iterable[str], *, text: bool = False) -> tuple[int, ...]:
        """The current generation of what reads of ``kinds`` depend on; with ``text``, of
        what reads of their searched text depend on too."""
        return self.stamp_of(generation_names(kinds, text=text))

    def stamp_of(self, names: Iterable[str]) -> tuple[int, ...]:
        """The current value of the generations ``names`` (see :func:`generation_names`)."""
        generations = self._generations
        return (self._cleared, *(generations.get(name, 0) for name in names))

    def total(self, key: Hashable, stamp: tuple[int, ...]) -> int | None:
        """A listing's total counted at ``stamp`` (see the module docstring)."""
        found = self._totals.get(key)
        if found is None or found[0] != stamp:
            return None
        self._totals.move_to_end(key)
        return found[1]

    def put_total(self, key: Hashable, stamp: tuple[int, ...], total: int, epoch: int) -> None:
        # The stamp, taken before counting, decides: a sync since then moved it if it matters.
        if epoch < self._floor or not self.enabled:
            return
        self._totals[key] = (stamp, total)
        self._totals.move_to_end(key)
        while len(self._totals) > MAX_TOTALS:
            self._totals.popitem(last=False)

    def clear(self) -> None:
        for store in self._stores:
            store.clear()
        self._shared.clear()
        self._totals.clear()
        self.epoch += 1
        self._floor = self.epoch
        self._dropped_at.clear()
        self._bumped_at.clear()
        self._cleared += 1

    def invalidate(
        self, items: Iterable[Dependency], aspects: Iterable[str | None] | None = None
    ) -> None:
        """Drop every entry built from one of ``items`` (in every store that follows the
        change log); totals that read their kinds become stale, or only those that search
        their text when the item's change (same position in ``aspects``, if given) is a
        ``text`` one."""
        epoch = self.epoch + 1
        kinds = set()
        dropped = self._dropped_at
        if len(dropped) > MAX_DROPS_KEPT:
            dropped.clear()
            self._floor = epoch
        for dep, aspect in zip(items, aspects or repeat(None), strict=False):
            kinds.add(dep[0] if aspect != TEXT else f"{dep[0]}:{TEXT}")
            dropped[dep] = epoch
            for store in self._stores:
                store.drop_dependents(dep)
        for kind in kinds:
            self._generations[kind] = self._generations.get(kind, 0) + 1
            self._bumped_at[kind] = epoch
        self.epoch = epoch

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

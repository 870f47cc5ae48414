"""Issue 18's mix with writes, in process but *concurrent*: ``--connections`` tasks ask paths of
the mix at once (as wrk's connections do) while an editor task PATCHes an event every
``1 / --writes`` s, straight to the ASGI app (no sockets, no granian).

    .venv/bin/python bench/concurrency.py --database-url postgresql://postgres@127.0.0.1/db \\
        [--seconds 10] [--writes 10] [--connections 32]

``bench/inprocess.py`` asks one path after another, which never shows what concurrency does to
a worker whose every statement awaits (PostgreSQL). This prints, per phase (warm-up, then
measured): the reads answered and their rate, the CPU per read (``time.process_time``, the
whole process), the caches' hits and misses, and where the reads waited (summed over all reads,
in ms): for the data version (``current_version``), for the change log's sync, for a pooled
connection, and for listing totals (``EventListing.count``; the slowest keys on exit), plus the
built values the item cache refused and the responses kept only while the data version stays.

Experiments (not for figures of the code as it is): ``--freeze-counts`` answers every total
counted before from memory, stale on purpose, to show what recounting costs;
``--server-setting cpu_operator_cost=0.05`` passes settings to every PostgreSQL connection.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import os
import random
import sys
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import orjson

from asgi import call
from inprocess import AUTH, NS, _pool
from live import Pool as LivePool
from live import mixed_path

Waits = collections.Counter[str]


def _timed(owner: Any, name: str, waits: Waits) -> None:
    original = getattr(owner, name)

    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.monotonic()
        try:
            return await original(*args, **kwargs)
        finally:
            waits[f"{name} ms"] += int((time.monotonic() - started) * 1000)

    setattr(owner, name, wrapper)


def _instrument(waits: Waits, totals: Waits, freeze: bool) -> None:
    """Wrap what the reads wait for (see the module docstring)."""
    from eventcal.domains.events.totals import EventListing
    from eventcal.http.conditional import ResponseCache
    from eventcal.storage.itemcache import ItemCache
    from eventcal.storage.postgres import PostgresDatabase

    _timed(PostgresDatabase, "current_version", waits)
    _timed(ItemCache, "sync", waits)
    count, item_put, response_put = EventListing.count, ItemCache.put, ResponseCache.put
    read = PostgresDatabase.read
    frozen: dict[Any, int] = {}

    async def counting(self: Any, conn: Any, query: Any) -> int:
        values = orjson.dumps(query.values, option=orjson.OPT_SORT_KEYS, default=str)
        key = (sorted(name for name, _ in query.key), query.values.get("word0", ""), values)
        if freeze and str(key) in frozen:
            return frozen[str(key)]
        started = time.monotonic()
        frozen[str(key)] = await count(self, conn, query)
        elapsed = int((time.monotonic() - started) * 1000)
        waits["counts"] += 1
        waits["count ms"] += elapsed
        totals[str(key[:2])] += elapsed
        return frozen[str(key)]

    def item_putting(self: Any, key: Any, *rest: Any) -> None:
        item_put(self, key, *rest)
        waits["item entries built"] += 1
        waits["item entries refused"] += key not in self._items._entries

    def response_putting(self: Any, key: Any, version: int, built: Any, reads: Any = None) -> None:
        items = self._items
        waits["responses built"] += 1
        if reads is not None and items is not None and reads.complete:
            unchanged = getattr(items, "unchanged_since", None)
            kept = (
                reads.epoch == items.epoch
                if unchanged is None
                else unchanged(reads.epoch, reads.deps, reads.generations)
            )
            waits["responses kept by version only"] += not kept
        response_put(self, key, version, built, reads)

    @contextlib.asynccontextmanager
    async def reading(self: Any) -> AsyncIterator[Any]:
        started = time.monotonic()
        async with read(self) as conn:
            waits["pool ms"] += int((time.monotonic() - started) * 1000)
            yield conn

    EventListing.count = counting  # type: ignore[method-assign]
    ItemCache.put = item_putting  # type: ignore[method-assign]
    ResponseCache.put = response_putting  # type: ignore[method-assign]
    PostgresDatabase.read = reading  # type: ignore[method-assign]


def _with_server_settings(settings: dict[str, str]) -> None:
    import asyncpg

    create_pool: Callable[..., Any] = asyncpg.create_pool

    def creating(*args: Any, **kwargs: Any) -> Any:
        return create_pool(*args, server_settings=settings, **kwargs)

    asyncpg.create_pool = creating


async def _run(args: argparse.Namespace) -> None:
    from eventcal.app import create_app
    from eventcal.config import load_settings

    waits, totals = Waits(), Waits()
    _instrument(waits, totals, args.freeze_counts)
    if args.server_setting:
        _with_server_settings(dict(s.split("=", 1) for s in args.server_setting))
    app = create_app(load_settings())
    async with app.lifespan():
        ids = await _pool(app)
        pool = LivePool(ids.events, ids.categories, ids.tags, ids.venues, ids.organizers)
        rng = random.Random(18)
        paths = [mixed_path(rng, pool) for _ in range(4000)]
        runtime = app.state.runtime
        for phase, seconds in (("warm-up", args.warmup), ("measured", args.seconds)):
            waits.clear()
            totals.clear()
            runtime.items.hits = runtime.items.misses = 0
            runtime.cache.hits = runtime.cache.misses = 0
            reads, cpu, statuses, writes = await _load(app, paths, ids.events, seconds, args)
            print(
                f"{phase}: {reads:,} reads in {seconds:g} s ({reads / seconds:,.0f}/s), "
                f"{cpu / max(reads, 1) * 1e6:,.0f} µs CPU each; statuses {dict(statuses)}; "
                f"{writes[0]} writes (median {writes[1]:.0f} ms); "
                f"item cache {runtime.items.hits:,} hits / {runtime.items.misses:,} misses; "
                f"response cache {runtime.cache.hits:,} hits / {runtime.cache.misses:,} "
                f"misses; {dict(sorted(waits.items()))}",
                flush=True,
            )
        print("slowest totals (ms):", totals.most_common(8))


async def _load(
    app: Any, paths: list[str], events: list[int], seconds: float, args: argparse.Namespace
) -> tuple[int, float, collections.Counter[int], tuple[int, float]]:
    statuses = collections.Counter[int]()
    latencies: list[float] = []
    deadline = time.monotonic() + seconds
    rng = random.Random(7)
    reads = 0

    async def reader(seed: int) -> None:
        nonlocal reads
        local = random.Random(seed)
        while time.monotonic() < deadline:
            status, _, _ = await call(app, "GET", local.choice(paths))
            statuses[status] += 1
            reads += 1

    async def write(event_id: int) -> None:
        body = orjson.dumps({"excerpt": f"Edited at {time.time_ns()}"})
        started = time.monotonic()
        status, _, _ = await call(app, "POST", f"{NS}/events/{event_id}", AUTH, body)
        statuses[status] += 1
        latencies.append((time.monotonic() - started) * 1000)

    async def editor() -> None:
        pending = []
        while time.monotonic() < deadline and args.writes:
            pending.append(asyncio.create_task(write(rng.choice(events))))
            await asyncio.sleep(1 / args.writes)
        await asyncio.gather(*pending)

    started = time.process_time()
    await asyncio.gather(editor(), *(reader(i) for i in range(args.connections)))
    cpu = time.process_time() - started
    latencies.sort()
    median = latencies[len(latencies) // 2] if latencies else 0.0
    return reads, cpu, statuses, (len(latencies), median)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--warmup", type=float, default=10)
    parser.add_argument("--writes", type=float, default=10, help="PATCHes per second (0: none)")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--freeze-counts", action="store_true", help="experiment: stale totals")
    parser.add_argument("--server-setting", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    os.environ["EVENTCAL_DATABASE_URL"] = args.database_url
    asyncio.run(_run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())

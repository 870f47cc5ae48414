"""Writes under concurrency, in process: what ``hotpaths.py post`` (one request at a time)
does not show.

Scenarios:

* ``creates``: ``--clients`` clients each sending ``hotpaths.py``'s ``POST /events`` bodies
  (a venue, an organizer, two categories, two tags) one after the other until ``--requests``
  are done, like wrk's connections against one worker. Prints CPU time per request (the
  commit's thread included), commits and so the mean batch of the group commit (SQLite),
  statements per request, and the latency percentiles (wall clock: noisy on a shared machine).
  ``--every N`` prints a line per N creates (CPU and wall time per create, the batch, the WAL's
  size, background checkpoints: a create's cost as the database grows); ``--warm-reads N``
  reads N events one by one first and ``--cache-mb`` sets the response cache (off by default),
  as on a server that served reads before; ``--profile KEY`` runs cProfile over the creates.
* ``editor``: ``--clients`` readers of single events (random among 50, item cache warm,
  response cache off; each yields to the loop between requests, as a server's connections do)
  and one editor PATCHing an excerpt every 20 ms (``live.py``'s writer), for ``--seconds``.
  Prints the editor's latency and the *turns of the event loop* each PATCH waited (a task
  counts them): unlike milliseconds, turns do not depend on the machine's load, and on a loop
  busy with reads each turn costs a round of them.

    PYTHONPATH=src .venv/bin/python bench/writes.py sqlite:////tmp/copy.db creates --clients 32
    PYTHONPATH=src .venv/bin/python bench/writes.py sqlite:////tmp/copy.db editor --clients 16
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import random
import sys
import time
from typing import Any

import orjson

from asgi import call
from hotpaths import AUTH, NS, _requests


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


async def _creates(app: Any, database: Any, args: argparse.Namespace) -> None:
    await _read_events(app, args.warm_reads)
    for request in await _requests(app, "post", 30):  # warm-up
        await call(app, *request)
    pending = iter(await _requests(app, "post", args.requests))
    latencies: list[float] = []
    interval = _Interval(database, args.every)

    async def client() -> None:
        for request in pending:
            started = time.perf_counter()
            status, _, body = await call(app, *request)
            latencies.append(time.perf_counter() - started)
            if status != 201:
                raise RuntimeError(f"{status}: {body[:300]!r}")
            interval.count()

    commits, statements = getattr(database, "commits", 0), database.statement_count
    profile = cProfile.Profile() if args.profile else None
    if profile is not None:
        profile.enable()
    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(client() for _ in range(args.clients)))
    cpu = (time.process_time() - cpu) / args.requests * 1e6
    if profile is not None:
        profile.disable()
        stats = pstats.Stats(profile)
        calls = sum(entry[1] for entry in stats.stats.values())  # type: ignore[attr-defined]
        print(f"Python calls per create: {calls / args.requests:,.0f}")
        stats.sort_stats(args.profile).print_stats(40)
    wall = time.perf_counter() - wall
    commits = getattr(database, "commits", 0) - commits  # SQLite's group commit only
    print(
        f"creates, {args.clients} clients: {cpu:,.0f} µs of CPU per request, "
        f"{args.requests / wall:,.0f}/s, "
        f"{f'{commits} commits (batch {args.requests / commits:.1f}), ' if commits else ''}"
        f"{(database.statement_count - statements) / args.requests:.1f} statements per request, "
        f"p50 {_percentile(latencies, 0.5) * 1e3:.1f} ms, "
        f"p99 {_percentile(latencies, 0.99) * 1e3:.1f} ms"
    )


async def _read_events(app: Any, count: int) -> None:
    """GET ``count`` events one by one (the newest first), as a server that served reads
    before the writes would have: both caches full."""
    page = 1
    while count > 0:
        _, _, body = await call(app, "GET", f"{NS}/events?per_page=100&page={page}")
        events = orjson.loads(body)["events"][:count]
        if not events:
            return
        for event in events:
            await call(app, "GET", f"{NS}/events/{event['id']}")
        count, page = count - len(events), page + 1


class _Interval:
    """With ``--every N``: a line per N creates (CPU and wall time per create, commits, the
    WAL's size, background checkpoints), to see a create's cost as the database grows."""

    def __init__(self, database: Any, every: int) -> None:
        self.database, self.every, self.done = database, every, 0
        self._mark()

    def _mark(self) -> None:
        self.cpu, self.wall = time.process_time(), time.perf_counter()
        self.commits = getattr(self.database, "commits", 0)
        self.checkpoints = getattr(self.database, "checkpoints", 0)

    def count(self) -> None:
        self.done += 1
        if not self.every or self.done % self.every:
            return
        n, path = self.every, getattr(self.database, "path", None)
        wal = os.path.getsize(f"{path}-wal") if path and os.path.exists(f"{path}-wal") else 0
        commits = getattr(self.database, "commits", 0) - self.commits
        print(
            f"  {self.done:>6}: {(time.process_time() - self.cpu) / n * 1e6:,.0f} µs CPU, "
            f"{(time.perf_counter() - self.wall) / n * 1e6:,.0f} µs wall per create, "
            f"batch {n / max(commits, 1):.1f}, WAL {wal / 2**20:.1f} MB, "
            f"{getattr(self.database, 'checkpoints', 0) - self.checkpoints} checkpoints",
            flush=True,
        )
        self._mark()


async def _editor(app: Any, database: Any, args: argparse.Namespace) -> None:
    _, _, body = await call(app, "GET", f"{NS}/events?per_page=50")
    ids = [event["id"] for event in orjson.loads(body)["events"]]
    for item_id in ids:  # the item cache warm
        await call(app, "GET", f"{NS}/events/{item_id}")
    stop = time.perf_counter() + args.seconds
    turns, reads = [0], [0]
    waited: list[int] = []
    latencies: list[float] = []
    rng = random.Random(1)

    async def ticker() -> None:
        while time.perf_counter() < stop:
            turns[0] += 1
            await asyncio.sleep(0)

    async def reader() -> None:
        while time.perf_counter() < stop:
            await call(app, "GET", f"{NS}/events/{rng.choice(ids)}")
            reads[0] += 1
            await asyncio.sleep(0)

    async def editor() -> None:
        n = 0
        while time.perf_counter() < stop:
            n += 1
            started, turn = time.perf_counter(), turns[0]
            edit = orjson.dumps({"excerpt": f"Edited {n} at {started}"})
            status, _, body = await call(
                app, "PATCH", f"{NS}/events/{ids[n % len(ids)]}", AUTH, edit
            )
            latencies.append(time.perf_counter() - started)
            waited.append(turns[0] - turn)
            if status != 200:
                raise RuntimeError(f"{status}: {body[:300]!r}")
            await asyncio.sleep(0.02)

    await asyncio.gather(ticker(), editor(), *(reader() for _ in range(args.clients)))
    print(
        f"editor, {args.clients} readers: {len(latencies)} PATCHes, p50 "
        f"{_percentile(latencies, 0.5) * 1e3:.1f} ms, "
        f"p90 {_percentile(latencies, 0.9) * 1e3:.1f} ms; "
        f"loop turns per PATCH p50 {_percentile(waited, 0.5):.0f}, "
        f"p90 {_percentile(waited, 0.9):.0f}; {reads[0] / args.seconds:,.0f} reads/s"
    )


async def _run(args: argparse.Namespace) -> None:
    from eventcal import logs
    from eventcal.app import create_app
    from eventcal.config import load_settings

    logs.configure("WARNING")
    app = create_app(load_settings())
    async with app.lifespan():
        database = app.state.runtime.database
        scenario = _creates if args.scenario == "creates" else _editor
        await scenario(app, database, args)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("database_url")
    parser.add_argument("scenario", choices=("creates", "editor"))
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--requests", type=int, default=600, help="creates")
    parser.add_argument("--cache-mb", default="0", help="the response cache (off)")
    parser.add_argument("--warm-reads", type=int, default=0, help="creates: GETs of events first")
    parser.add_argument("--profile", default="", help="creates: cProfile, sorted by this key")
    parser.add_argument("--every", type=int, default=0, help="creates: a line per N creates")
    parser.add_argument("--seconds", type=float, default=6.0, help="editor")
    args = parser.parse_args(argv)
    os.environ["EVENTCAL_DATABASE_URL"] = args.database_url
    os.environ["EVENTCAL_RESPONSE_CACHE_MB"] = args.cache_mb
    asyncio.run(_run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())

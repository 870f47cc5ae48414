"""Writes under concurrency, in process: what ``hotpaths.py post`` (one request at a time)
does not show.

Scenarios:

* ``creates``: ``--clients`` clients each sending ``hotpaths.py``'s ``POST /events`` bodies
  (a venue, an organizer, two categories, two tags) one after the other until ``--requests``
  are done, like wrk's connections against one worker. Prints CPU time per request (the
  commit's thread included), commits and so the mean batch of the group commit (SQLite),
  statements per request, and the latency percentiles (wall clock: noisy on a shared machine).
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
import os
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
    for request in await _requests(app, "post", 30):  # warm-up
        await call(app, *request)
    pending = iter(await _requests(app, "post", args.requests))
    latencies: list[float] = []

    async def client() -> None:
        for request in pending:
            started = time.perf_counter()
            status, _, body = await call(app, *request)
            latencies.append(time.perf_counter() - started)
            if status != 201:
                raise RuntimeError(f"{status}: {body[:300]!r}")

    commits, statements = getattr(database, "commits", 0), database.statement_count
    cpu = time.process_time()
    await asyncio.gather(*(client() for _ in range(args.clients)))
    cpu = (time.process_time() - cpu) / args.requests * 1e6
    commits = getattr(database, "commits", 0) - commits  # SQLite's group commit only
    print(
        f"creates, {args.clients} clients: {cpu:,.0f} µs of CPU per request, "
        f"{f'{commits} commits (batch {args.requests / commits:.1f}), ' if commits else ''}"
        f"{(database.statement_count - statements) / args.requests:.1f} statements per request, "
        f"p50 {_percentile(latencies, 0.5) * 1e3:.1f} ms, "
        f"p99 {_percentile(latencies, 0.99) * 1e3:.1f} ms"
    )


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
    parser.add_argument("--seconds", type=float, default=6.0, help="editor")
    args = parser.parse_args(argv)
    os.environ["EVENTCAL_DATABASE_URL"] = args.database_url
    os.environ["EVENTCAL_RESPONSE_CACHE_MB"] = "0"
    asyncio.run(_run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())

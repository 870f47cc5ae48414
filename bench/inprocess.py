"""The building path measured in process: CPU time per request, without granian, wrk or load.

Requests go straight to the ASGI app (no sockets), one after another, so ``time.process_time``
per request is the worker's own cost and does not depend on what else the machine runs. The
same loop under ``valgrind --tool=callgrind`` counts instructions: run it with ``--requests 20``
and ``--requests 220``; the difference divided by 200 is the instructions of one request.

    .venv/bin/python bench/seed.py --database-url sqlite:////tmp/b.db --fast
    .venv/bin/python bench/inprocess.py --database-url sqlite:////tmp/b.db
    .venv/bin/python bench/inprocess.py --database-url sqlite:////tmp/b.db --only page \\
        --requests 220 --rounds 1

The response cache is off unless ``--cache-mb`` says otherwise; the item cache follows
``EVENTCAL_ITEM_CACHE_MB`` (``--item-cache-mb``).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from asgi import call

NS = "/cal/events/v1"
WORDS = ("jazz", "market", "gala", "lecture")


@dataclass(frozen=True, slots=True)
class Pool:
    """What the scenarios pick from: ids of the seeded database."""

    events: list[int]
    categories: list[int]
    tags: list[int]
    venues: list[int]
    organizers: list[int]


def _window(rng: random.Random) -> str:
    month = rng.randrange(1, 13)
    return f"start_date=2027-{month:02d}-01&end_date=2027-{month:02d}-20"


SCENARIOS: dict[str, Callable[[random.Random, Pool], str]] = {
    "single": lambda r, p: f"/events/{r.choice(p.events)}",
    "page": lambda r, p: f"/events?page={r.randrange(1, 61)}",
    "page1": lambda r, p: "/events",
    "categories": lambda r, p: (
        f"/events?categories={r.choice(p.categories)}&page={r.randrange(1, 6)}"
    ),
    "tags": lambda r, p: f"/events?tags={r.choice(p.tags)}",
    "venue": lambda r, p: f"/events?venue={r.choice(p.venues)}",
    "organizer": lambda r, p: f"/events?organizer={r.choice(p.organizers)}",
    "featured": lambda r, p: f"/events?featured=1&page={r.randrange(1, 6)}",
    "search": lambda r, p: f"/events?search={r.choice(WORDS)}",
    "jazz": lambda r, p: "/events?search=jazz",  # one word, in one event of eight
    "dates": lambda r, p: f"/events?{_window(r)}",
    "strict_dates": lambda r, p: f"/events?{_window(r)}&strict_dates=1",
    "geoloc": lambda r, p: "/events?geoloc=1",
    "include": lambda r, p: "/events?include=" + ",".join(map(str, r.sample(p.events, 10))),
    "status": lambda r, p: f"/events?event_status=scheduled&page={r.randrange(1, 6)}",
    "mixed": lambda r, p: _mixed(r, p),  # noqa: PLW0108 (defined below)
}


def _mixed(rng: random.Random, pool: Pool) -> str:
    """40% single events, 25% listing pages 1-60, 15% a category and a page, 10% a search
    word, 10% date windows (the mix of issue 18)."""
    roll = rng.random()
    name = (
        "single"
        if roll < 0.40
        else "page"
        if roll < 0.65
        else "categories"
        if roll < 0.80
        else "search"
        if roll < 0.90
        else "dates"
    )
    return SCENARIOS[name](rng, pool)


async def _call(
    app: Any, path_query: str, *, body: bytes = b"", headers: Sequence[tuple[bytes, bytes]] = ()
) -> tuple[int, bytes]:
    status, _, answer = await call(app, "POST" if body else "GET", NS + path_query, headers, body)
    return status, answer


async def _pool(app: Any) -> Pool:
    async def ids(path: str, key: str | None = None, pages: int = 3) -> list[int]:
        found: list[int] = []
        for page in range(1, pages + 1):
            status, body = await _call(app, f"{path}?per_page=50&page={page}")
            if status != 200:
                break
            data = orjson.loads(body)
            found += [int(item["id"]) for item in (data[key] if key else data)]
        return found

    return Pool(
        events=await ids("/events", "events", pages=200),  # up to 10,000
        categories=await ids("/categories", "categories"),
        tags=await ids("/tags", "tags"),
        venues=await ids("/venues", "venues"),
        organizers=await ids("/organizers", "organizers"),
    )


async def _run(args: argparse.Namespace) -> None:
    from eventcal.app import create_app
    from eventcal.config import load_settings

    app = create_app(load_settings())
    async with app.lifespan():
        pool = await _pool(app)
        if hasattr(app.state.runtime, "items"):
            app.state.runtime.items.clear()  # filled by the pages read above
        print(
            f"| scenario | requests | CPU µs/request (median of {args.rounds}) | non-200 "
            "| item cache | response cache |"
        )
        print("|---|--:|--:|--:|---|---|")
        items = getattr(app.state.runtime, "items", None)
        for name, make in SCENARIOS.items():
            if args.only and not any(o == name for o in args.only.split(",")):
                continue
            # The warm-up asks other paths of the same mix (a cache warmed by the measured
            # paths themselves would flatter it).
            warm_rng = random.Random(17)
            for i in range(args.warmup):
                if args.write_every and i % args.write_every == args.write_every - 1:
                    await _write(app, warm_rng.choice(pool.events))
                await _call(app, make(warm_rng, pool))
            rng = random.Random(18)
            urls = [make(rng, pool) for _ in range(args.requests)]
            per_request: list[float] = []
            failures = 0
            for _ in range(args.rounds):
                started = time.process_time()
                for i, url in enumerate(urls):
                    if args.write_every and i % args.write_every == args.write_every - 1:
                        await _write(app, rng.choice(pool.events))
                    status, _ = await _call(app, url)
                    failures += status != 200
                per_request.append((time.process_time() - started) / len(urls) * 1e6)
            median = statistics.median(per_request)
            kept = (
                f"{items.hits:,} hits, {items.misses:,} misses, {items.size / 2**20:.1f} MB"
                if items is not None
                else "none"
            )
            responses = app.state.runtime.cache
            answered = (
                f"{responses.hits:,} hits, {responses.misses:,} misses, "
                f"{responses.size / 2**20:.1f} MB"
            )
            print(
                f"| {name} | {len(urls)} | {median:,.0f} | {failures} | {kept} | {answered} |",
                flush=True,
            )


AUTH = [
    (b"authorization", b"Basic " + base64.b64encode(b"bench:bench password 8")),
    (b"content-type", b"application/json"),
]


async def _write(app: Any, event_id: int) -> None:
    """What the editor of the live-site scenario does (a new excerpt for an event)."""
    body = orjson.dumps({"excerpt": f"Edited at {time.time_ns()}"})
    status, answer = await _call(app, f"/events/{event_id}", body=body, headers=AUTH)
    if status != 200:
        raise RuntimeError(f"write failed: {status} {answer[:300]!r}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3, help="repeat the loop, report the median")
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--only", default="", help="comma-separated scenario names")
    parser.add_argument("--cache-mb", default="0", help="EVENTCAL_RESPONSE_CACHE_MB (0)")
    parser.add_argument(
        "--write-every", type=int, default=0, help="PATCH a random event every N requests"
    )
    parser.add_argument("--item-cache-mb", default=None, help="EVENTCAL_ITEM_CACHE_MB")
    args = parser.parse_args(argv)
    os.environ["EVENTCAL_DATABASE_URL"] = args.database_url
    os.environ["EVENTCAL_RESPONSE_CACHE_MB"] = args.cache_mb
    if args.item_cache_mb is not None:
        os.environ["EVENTCAL_ITEM_CACHE_MB"] = args.item_cache_mb
    asyncio.run(_run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())

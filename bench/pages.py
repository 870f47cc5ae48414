"""How long the calendar's month page takes to build (issue 17: under 20 ms with 150 events
on SQLite).

    .venv/bin/python bench/pages.py [--events 150] [--rounds 200]

Seeds a temporary SQLite database through the services (the pools of ``seed.py``: venues,
organizers, categories, tags; then ``--events`` events inside one month) and requests
``/calendar/month/?date=…`` straight from the ASGI app in this process (no client, no sockets),
so the CPU time of a request is the page's own:

* built, nothing kept: response cache and item cache off (every item presented);
* built, items kept: response cache off, the item cache on and warm (the default setting);
* built after an edit: the same, one event's title changed through the API before each request
  (the edit's own time is not counted);
* cached: the response cache on (a hit), and ``If-None-Match`` (a 304).

Prints the median and 95th percentile of wall-clock milliseconds and the median CPU
milliseconds (``time.process_time``; on a shared machine the wall clock measures the others).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
import random
import statistics
import tempfile
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson

import seed
from asgi import call
from eventcal.app import create_app, site_from
from eventcal.config import Settings
from eventcal.storage import migrate
from eventcal.storage.db import create_database

MONTH = datetime(2027, 3, 1)


def month_events(pools: seed.Pools, count: int, rng: random.Random) -> Iterator[seed.EventSpec]:
    """``count`` events in MONTH: 1-4 hours, some all-day, some over several days."""
    for number in range(1, count + 1):
        start = MONTH + timedelta(days=rng.randrange(0, 31), hours=rng.randint(8, 21))
        all_day = rng.random() < 0.05
        if all_day:
            start = start.replace(hour=0)
            end = start.replace(hour=23, minute=59, second=59)
        elif rng.random() < 0.05:
            end = start + timedelta(days=rng.randint(1, 4))
        else:
            end = start + timedelta(hours=rng.randint(1, 4))
        categories = rng.sample(pools.category_ids, 2)
        tags = rng.sample(pools.tag_ids, 2)
        yield seed.EventSpec(
            title=f"{rng.choice(seed.ADJECTIVES)} {rng.choice(seed.NOUNS)} {number}",
            description=" ".join(rng.sample(seed.SENTENCES, 3)),
            timezone=rng.choice(seed.ZONES),
            start=start,
            end=end,
            all_day=all_day,
            featured=False,
            cost=["10"],
            venue_id=rng.choice(pools.venue_ids),
            organizer_id=rng.choice(pools.organizer_ids),
            term_ids=(categories[0], categories[1], tags[0], tags[1]),
        )


async def populate(url: str, events: int) -> None:
    settings = Settings(database_url=url)
    site = site_from(settings)
    database = create_database(url)
    await database.startup()
    rng = random.Random(17)
    try:
        pools = await seed.create_pools(database, site, 20, rng)
        specs = month_events(pools, events, rng)
        await seed.seed_events_service(database, site, pools, specs, total=events, batch=events)
    finally:
        await database.shutdown()


AUTH = (
    b"authorization",
    b"Basic " + base64.b64encode(f"{seed.ADMIN_LOGIN}:{seed.ADMIN_PASSWORD}".encode()),
)


async def edit(app: Any, event_id: int, number: int) -> None:
    body = orjson.dumps({"title": f"Edited {number}"})
    headers = [AUTH, (b"content-type", b"application/json")]
    status, _, answer = await call(app, "POST", f"/cal/events/v1/events/{event_id}", headers, body)
    assert status == 200, answer[:300]


async def timed(
    app: Any,
    path: str,
    rounds: int,
    headers: Sequence[tuple[bytes, bytes]] = (),
    edits: Sequence[int] = (),
) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU milliseconds of each request (an edit before each, if ``edits``)."""
    wall, cpu = [], []
    for number in range(rounds):
        if edits:
            await edit(app, edits[number % len(edits)], number)
        started, used = time.perf_counter(), time.process_time()
        status, _, _ = await call(app, "GET", path, headers)
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - used) * 1000)
        assert status in (200, 304), status
    return wall, cpu


def report(name: str, times: tuple[list[float], list[float]]) -> None:
    wall, cpu = times
    p95 = statistics.quantiles(wall, n=20)[-1]
    print(f"| {name} | {statistics.median(wall):.2f} | {p95:.2f} | {statistics.median(cpu):.2f} |")


SCENARIOS = (
    ("month page, built, nothing kept", 0, 0, False),
    ("month page, built, items kept", 0, 32, False),
    ("month page, built after an edit", 0, 32, True),
    ("month page, cached", 48, 32, False),
)
"""Name, response cache MB, item cache MB, an edit before each request."""


async def measure(url: str, events: int, rounds: int) -> None:
    path = f"/calendar/month/?date={MONTH:%Y-%m-%d}"
    now = datetime(2027, 2, 20, tzinfo=UTC)
    for name, cache_mb, items_mb, edits in SCENARIOS:
        settings = Settings(database_url=url, response_cache_mb=cache_mb, item_cache_mb=items_mb)
        app = create_app(settings, clock=lambda: now)
        async with app.lifespan():
            status, headers, first = await call(app, "GET", path)
            assert status == 200
            assert first.count(b'class="event') >= events, "events missing"
            listed = await call(
                app, "GET", "/cal/events/v1/events?start_date=2027-03-01&per_page=5"
            )
            ids = [int(e["id"]) for e in orjson.loads(listed[2])["events"]]
            await timed(app, path, 20)
            report(name, await timed(app, path, rounds, edits=ids if edits else ()))
            if cache_mb:
                tag = [(b"if-none-match", headers[b"etag"])]
                report("month page, If-None-Match (304)", await timed(app, path, rounds, tag))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/pages.db"
        migrate.upgrade(url)
        asyncio.run(populate(url, args.events))
        load = os.getloadavg()[0]
        print(f"{args.events} events, {args.rounds} requests each, ms; load average {load:.1f}\n")
        print("| request | median | p95 | CPU median |\n|---|--:|--:|--:|")
        asyncio.run(measure(url, args.events, args.rounds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

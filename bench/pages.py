"""How long the calendar's month page takes to build (issue 17: under 20 ms with 150 events
on SQLite).

    .venv/bin/python bench/pages.py [--events 150] [--rounds 200]

Seeds a temporary SQLite database through the services (the pools of ``seed.py``: venues,
organizers, categories, tags; then ``--events`` events inside one month), starts the app
in-process and requests ``/calendar/month/?date=…`` with the response cache off, so every
request reads the events and renders the page; then with the cache on (a hit) and with
``If-None-Match`` (a 304). Prints the median and 95th percentile of each, in milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

from starlette.testclient import TestClient

import seed
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


def timed(
    client: TestClient, path: str, rounds: int, headers: dict[str, str]
) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU milliseconds of each request (CPU: this process, client included,
    which on a busy shared machine says more about the work than the wall clock does)."""
    wall, cpu = [], []
    for _ in range(rounds):
        started, used = time.perf_counter(), time.process_time()
        response = client.get(path, headers=headers)
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - used) * 1000)
        assert response.status_code in (200, 304), response.status_code
    return wall, cpu


def report(name: str, times: tuple[list[float], list[float]]) -> None:
    wall, cpu = times
    p95 = statistics.quantiles(wall, n=20)[-1]
    print(f"| {name} | {statistics.median(wall):.2f} | {p95:.2f} | {statistics.median(cpu):.2f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/pages.db"
        migrate.upgrade(url)
        asyncio.run(populate(url, args.events))
        path = f"/calendar/month/?date={MONTH:%Y-%m-%d}"
        now = datetime(2027, 2, 20, tzinfo=UTC)
        load = os.getloadavg()[0]
        print(f"{args.events} events, {args.rounds} requests each, ms; load average {load:.1f}\n")
        print("| request | median | p95 | CPU median |\n|---|--:|--:|--:|")
        for cache_mb, name in ((0, "month page, built (cache off)"), (48, "month page, cached")):
            settings = Settings(database_url=url, response_cache_mb=cache_mb)
            app = create_app(settings, clock=lambda: now)
            with TestClient(app, base_url="http://127.0.0.1") as client:
                first = client.get(path)
                assert first.status_code == 200
                assert first.text.count('class="event') >= args.events, "events missing"
                timed(client, path, 20, {})
                report(name, timed(client, path, args.rounds, {}))
                if cache_mb:
                    tag = {"If-None-Match": first.headers["etag"]}
                    report("month page, If-None-Match (304)", timed(client, path, 200, tag))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Recurring events (issue 15): what series cost next to single events, in one process.

Two SQLite databases with the same number of listed events: **series** holds 1,000 weekly series
(materialised 24 months ahead: about 104,000 occurrences) and 10,000 single events; **singles**
holds as many single events as the first has occurrences and events together. Both answer
``GET /events`` page 1 and a category filter through the app in-process (ASGI, response cache
off), alternating, so machine load hits both alike; the ratio is what counts (target: at most
1.5). Then: creating a daily series of two years (730 occurrences), by wall clock and by CPU
time of this process (``time.process_time``, less noisy on a loaded machine); target 100 ms.

    .venv/bin/python bench/recurring.py [--series 1000] [--singles 10000] [--rounds 30]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx2
import sqlalchemy as sa

import seed
from eventcal.app import create_app, site_from
from eventcal.collections import REGISTRY
from eventcal.config import Settings, load_settings
from eventcal.permissions import Actor, Role
from eventcal.resources import service
from eventcal.storage import migrate
from eventcal.storage.db import create_database
from eventcal.storage.tables import event

NS = "/cal/events/v1"
WEEKLY = ["RRULE:FREQ=WEEKLY"]
LISTED = sa.select(sa.func.count()).select_from(event).where(event.c.hide_from_listings.is_(False))


async def _populate(url: str, *, series: int, singles: int) -> tuple[int, int]:
    """The pools, ``singles`` single events (bulk) and ``series`` weekly series (through the
    service). Returns the listed events and a category id."""
    site = site_from(load_settings().with_overrides(database_url=url))
    rng = random.Random(15)
    database = create_database(url)
    await database.startup()
    try:
        pools = await seed.create_pools(database, site, 200, rng)
        today = datetime.now(site.zone)
        specs = seed.generate_events(pools, singles + series, today, rng)
        if singles:
            await seed.seed_events_fast(database, pools, specs, total=singles, batch=20_000)
        actor = Actor(user_id=pools.admin_id, role=Role.ADMINISTRATOR, login=seed.ADMIN_LOGIN)
        for start in range(0, series, 50):
            async with database.transaction() as conn:
                call = seed.make_call(conn, actor, site)
                for _ in range(min(50, series - start)):
                    spec = next(specs)
                    # Starting within a week, so each series fills the 24 months (~104 each).
                    first = spec.start.replace(year=today.year, month=today.month, day=today.day)
                    moved = first + timedelta(days=rng.randint(1, 7))
                    spec = replace(spec, start=moved, end=moved + (spec.end - spec.start))
                    fields = {**seed.event_input(spec), "recurrence": WEEKLY}
                    await service.insert_item(call, REGISTRY["events"], fields)
        async with database.read() as conn:
            listed = int(await conn.scalar(LISTED))
        return listed, pools.category_ids[0]
    finally:
        await database.shutdown()


def build(path: Path, *, series: int, singles: int) -> tuple[str, int, int]:
    url = f"sqlite:///{path}"
    migrate.upgrade(url)
    started = time.perf_counter()
    listed, category = asyncio.run(_populate(url, series=series, singles=singles))
    print(f"{path.name}: {listed:,} listed events in {time.perf_counter() - started:.0f} s")
    return url, listed, category


async def _timed(fn: Callable[[], Awaitable[Any]]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    await fn()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def _app(url: str) -> Any:
    return create_app(Settings(database_url=url, response_cache_mb=0))


async def compare(databases: dict[str, tuple[str, int]], rounds: int) -> dict[str, Any]:
    """Median wall and CPU milliseconds per request, the two databases alternating."""
    apps = {name: _app(url) for name, (url, _) in databases.items()}
    results: dict[str, dict[str, list[tuple[float, float]]]] = {n: {} for n in apps}
    clients = {}
    lifespans = {name: app.lifespan() for name, app in apps.items()}
    for name, app in apps.items():
        await lifespans[name].__aenter__()
        transport = httpx2.ASGITransport(app=app)
        clients[name] = httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1")
    try:
        for _ in range(rounds):
            for name, client in clients.items():
                category = databases[name][1]
                for label, path in (
                    ("GET /events", f"{NS}/events"),
                    ("GET /events?categories=", f"{NS}/events?categories={category}"),
                ):

                    async def get(c: Any = client, p: str = path) -> None:
                        response = await c.get(p)
                        assert response.status_code == 200, response.text

                    results[name].setdefault(label, []).append(await _timed(get))
    finally:
        for name, client in clients.items():
            await client.aclose()
            await lifespans[name].__aexit__(None, None, None)
    return {
        name: {
            label: (
                statistics.median(w for w, _ in values),
                statistics.median(c for _, c in values),
            )
            for label, values in by_label.items()
        }
        for name, by_label in results.items()
    }


async def create_daily(url: str, rounds: int) -> list[tuple[float, float]]:
    """POST a daily series of two years (COUNT=730) through the app, ``rounds`` times."""
    app = _app(url)
    lifespan = app.lifespan()
    await lifespan.__aenter__()
    transport = httpx2.ASGITransport(app=app)
    times = []
    async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        auth = httpx2.BasicAuth(seed.ADMIN_LOGIN, seed.ADMIN_PASSWORD)
        for number in range(rounds):
            body = {
                "title": f"Daily {number}",
                "start_date": "2027-01-04 07:00:00",
                "end_date": "2027-01-04 08:00:00",
                "timezone": "Europe/Berlin",
                "recurrence": ["RRULE:FREQ=DAILY;COUNT=730"],
            }

            async def post(b: dict[str, Any] = body) -> None:
                response = await client.post(f"{NS}/events", json=b, auth=auth)
                assert response.status_code == 201, response.text

            times.append(await _timed(post))
    await lifespan.__aexit__(None, None, None)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--series", type=int, default=1_000)
    parser.add_argument("--singles", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        url, listed, category = build(
            Path(tmp) / "series.db", series=args.series, singles=args.singles
        )
        other, same, other_category = build(Path(tmp) / "singles.db", series=0, singles=listed)
        assert same == listed
        medians = asyncio.run(
            compare({"series": (url, category), "singles": (other, other_category)}, args.rounds)
        )
        print(f"\n{listed:,} listed events each; median ms per request (wall / CPU)\n")
        print("| request | series | singles | ratio (wall) | ratio (CPU) |\n|---|---|---|---|---|")
        for label in medians["series"]:
            (sw, sc), (ow, oc) = medians["series"][label], medians["singles"][label]
            ratios = f"{sw / ow:.2f} | {sc / oc:.2f}"
            print(f"| `{label}` | {sw:.1f} / {sc:.1f} | {ow:.1f} / {oc:.1f} | {ratios} |")
        created = asyncio.run(create_daily(other, 7))
        wall = statistics.median(w for w, _ in created)
        cpu = statistics.median(c for _, c in created)
        print(f"\ndaily series of 730 occurrences: median {wall:.0f} ms wall, {cpu:.0f} ms CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

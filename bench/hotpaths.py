"""The request path's own cost, one scenario at a time, in process, comparable across commits.

Scenarios: ``cached`` (``GET /events`` from the response cache), ``single`` (``GET
/events/{id}``, random ids among the first 100 events, the response cache off unless
``EVENTCAL_RESPONSE_CACHE_MB`` is set, the item cache warm unless ``EVENTCAL_ITEM_CACHE_MB=0``),
``cold`` (``GET /events/{id}`` of published events in a random order, each read once: what
``make bench`` pays for each of its events until the item cache holds them; the caches at their
defaults), ``page`` (``GET /events?page=1..60``, the response cache off) and ``post`` (``POST
/events`` as ``run.py`` sends it: a venue, an organizer, two categories, two tags). The access
log is on, as the server has it (its lines go to standard error). Prints CPU time per request
(``time.process_time``: the commit thread included), Python calls per request with
``--profile`` and statements per request.

Another commit's code runs from its own worktree on a copy of the same seeded database
(``seed.py`` of the older commit, then ``eventcal migrate`` for the newer one)::

    PYTHONPATH=/work/wt-old/src .venv/bin/python bench/hotpaths.py sqlite:////tmp/old.db post

Instructions per request: run it under ``valgrind --tool=callgrind`` with ``PYTHONHASHSEED=0``
for two request counts (``cached``: 100 and 600; ``post``: 20 and 100) and divide the difference
of the totals by the difference of the counts (start-up and warm-up cancel out).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import cProfile
import os
import pstats
import random
import sys
import time
from typing import Any

import orjson

from asgi import call

NS = "/cal/events/v1"
AUTH = (
    (b"authorization", b"Basic " + base64.b64encode(b"bench:bench password 8")),
    (b"content-type", b"application/json"),
)
Request = tuple[str, str, tuple[tuple[bytes, bytes], ...], bytes]


async def _ids(app: Any, collection: str, key: str = "id") -> list[Any]:
    _, _, body = await call(app, "GET", f"{NS}/{collection}?per_page=50")
    return [item[key] for item in orjson.loads(body)[collection]]


async def _requests(app: Any, scenario: str, count: int) -> list[Request]:
    rng = random.Random(5)
    if scenario == "cached":
        return [("GET", f"{NS}/events", (), b"")] * count
    if scenario == "page":
        return [("GET", f"{NS}/events?page={rng.randrange(1, 61)}", (), b"") for _ in range(count)]
    if scenario == "cold":
        return [("GET", f"{NS}/events/{item_id}", (), b"") for item_id in _cold_ids[:count]]
    _, _, body = await call(app, "GET", f"{NS}/events?per_page=100")
    events = [e["id"] for e in orjson.loads(body)["events"]]
    if scenario == "single":
        return [("GET", f"{NS}/events/{rng.choice(events)}", (), b"") for _ in range(count)]
    venues, organizers = await _ids(app, "venues"), await _ids(app, "organizers")
    categories, tags = await _ids(app, "categories"), await _ids(app, "tags", "name")
    stamp = time.time_ns()
    return [
        (
            "POST",
            f"{NS}/events",
            AUTH,
            orjson.dumps(
                {
                    "title": f"Bench post {stamp} {n}",
                    "description": "A bench event. " * 20,
                    "start_date": "2027-05-01 19:00:00",
                    "end_date": "2027-05-01 22:00:00",
                    "timezone": "Europe/Berlin",
                    "cost": "10",
                    "venue": rng.choice(venues),
                    "organizer": rng.choice(organizers),
                    "categories": rng.sample(categories, 2),
                    "tags": rng.sample(tags, 2),
                }
            ),
        )
        for n in range(count)
    ]


_cold_ids: list[int] = []
"""Published events in a random order (``cold``: each request takes the next ones)."""


async def _published(database: Any) -> list[int]:
    import sqlalchemy as sa

    async with database.read() as conn:
        rows = await conn.all(sa.text("SELECT id FROM event WHERE status = 'publish'"))
    ids = sorted(int(r["id"]) for r in rows)
    random.Random(5).shuffle(ids)
    return ids


async def _run(args: argparse.Namespace) -> None:
    from eventcal import logs
    from eventcal.app import create_app
    from eventcal.config import load_settings

    logs.configure("INFO")
    app = create_app(load_settings())
    expected = 201 if args.scenario == "post" else 200
    async with app.lifespan():
        # The database of 3e54e5a's app is in ``state.services``.
        holder = getattr(app.state, "runtime", None) or app.state.services
        _cold_ids[:] = await _published(holder.database)
        warm_up = await _requests(app, args.scenario, args.warmup)
        if args.scenario == "cold":  # the warm-up reads other events than the measured ones
            del _cold_ids[: args.warmup]
        if args.scenario in ("single", "page"):  # every item of the scenario in the item cache
            for path in {path for _, path, _, _ in await _requests(app, args.scenario, 600)}:
                await call(app, "GET", path)
        for request in warm_up:
            await call(app, *request)
        requests = await _requests(app, args.scenario, args.requests)
        profile = cProfile.Profile() if args.profile else None
        statements = holder.database.statement_count
        if profile is not None:
            profile.enable()
        started = time.process_time()
        for request in requests:
            status, _, body = await call(app, *request)
            if status != expected:
                raise RuntimeError(f"{status}: {body[:300]!r}")
        cpu = (time.process_time() - started) / len(requests) * 1e6
        if profile is not None:
            profile.disable()
            stats = pstats.Stats(profile)
            calls = sum(entry[1] for entry in stats.stats.values())  # type: ignore[attr-defined]
            print(f"Python calls per request: {calls / len(requests):,.0f}")
        done = (holder.database.statement_count - statements) / len(requests)
        print(f"statements per request: {done:.1f}")
        print(f"{args.scenario}: {cpu:,.1f} µs of CPU per request ({len(requests)} requests)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("database_url")
    parser.add_argument("scenario", choices=("cached", "single", "cold", "page", "post"))
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--profile", action="store_true", help="count Python calls (cProfile)")
    args = parser.parse_args(argv)
    os.environ["EVENTCAL_DATABASE_URL"] = args.database_url
    if args.scenario != "cold":  # unless set: 3e54e5a's single read hit its response cache
        default = "24" if args.scenario == "cached" else "0"
        os.environ.setdefault("EVENTCAL_RESPONSE_CACHE_MB", default)
    asyncio.run(_run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Fill a database with published events for the benchmark (issue 8).

    .venv/bin/python bench/seed.py [--database-url URL] [--events 10000] [--batch 500]
    .venv/bin/python bench/seed.py --fast --events 1000000

The database is ``--database-url`` or ``EVENTCAL_DATABASE_URL`` (``sqlite:///path.db`` or
``postgresql://user@host/db``); it is migrated first and should be empty.

Every event has a venue, an organizer, two categories and two tags, and starts within the next
~2 years (inside the default listing window: yesterday to +24 months). The venues, organizers,
categories and tags come from small pools created first and reused.

By default events are created through the pipeline itself (``resources.service.insert_item``
inside ``database.transaction()``, as the HTTP layer does), so the rows, slugs, links and term
counts are exactly what the API writes. ``--fast`` writes the event rows with bulk inserts
instead (see :func:`seed_events_fast`).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa

from eventcal.app import site_from
from eventcal.collections import REGISTRY
from eventcal.config import load_settings
from eventcal.context import Call, Site, Urls
from eventcal.domains.accounts import credentials
from eventcal.domains.accounts import users as user_service
from eventcal.domains.events.cost import store_cost
from eventcal.domains.places.common import LinkedItem
from eventcal.domains.terms import store as term_store
from eventcal.domains.terms.store import TermValue
from eventcal.errors import ApiError
from eventcal.permissions import Actor, Role
from eventcal.resources import service
from eventcal.storage import migrate
from eventcal.storage.db import Connection, Database, create_database
from eventcal.storage.queries import ADD_TO_TERM_COUNT
from eventcal.storage.tables import (
    CATEGORY_TAXONOMY,
    TAG_TAXONOMY,
    event,
    event_organizer,
    event_term,
    post,
)
from eventcal.timezones import resolve_timezone, to_utc

ADMIN_LOGIN = "bench"
ADMIN_PASSWORD = "bench password 8"
"""Credentials of the seeded administrator (HTTP Basic), used by the POST scenario."""

PUBLIC_URL = "http://127.0.0.1:8765"
"""Base of the URLs in the service's responses while seeding (the responses are discarded)."""

DAYS_AHEAD = 720
"""Events start within this many days from today: inside the default +24 months window."""

ZONES = ("UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo")
CATEGORY_NAMES = (
    "Concerts",
    "Theatre",
    "Workshops",
    "Exhibitions",
    "Talks",
    "Festivals",
    "Sports",
    "Family",
    "Film",
    "Markets",
    "Dance",
    "Comedy",
    "Food and drink",
    "Literature",
    "Science",
    "Tours",
    "Charity",
    "Networking",
    "Opera",
    "Outdoors",
)
TAG_NAMES = tuple(f"tag {word}" for word in ("free", "kids", "indoor", "outdoor", "late")) + tuple(
    f"topic {n}" for n in range(1, 96)
)
ADJECTIVES = ("Open", "Late", "Summer", "Winter", "Grand", "Little", "Acoustic", "Modern")
NOUNS = ("jazz night", "book club", "market", "lecture", "workshop", "gala", "screening", "run")
SENTENCES = (
    "Doors open thirty minutes before the start.",
    "Tickets are available at the box office and online.",
    "The venue is accessible by wheelchair and close to public transport.",
    "Bring a friend: the second ticket is half price on weekdays.",
    "Light refreshments will be served during the break.",
    "Children under twelve must be accompanied by an adult.",
    "The programme may change at short notice; check back before you come.",
    "Photography without flash is welcome.",
)


@dataclass(frozen=True, slots=True)
class Pools:
    """Ids of the items every event links to."""

    admin_id: int
    venue_ids: list[int]
    organizer_ids: list[int]
    category_ids: list[int]
    tag_ids: list[int]


@dataclass(frozen=True, slots=True)
class EventSpec:
    """One generated event, before it is turned into an API input or table rows."""

    title: str
    description: str
    timezone: str
    start: datetime
    """Wall-clock start in ``timezone`` (naive)."""
    end: datetime
    all_day: bool
    featured: bool
    cost: list[str]
    venue_id: int
    organizer_id: int
    term_ids: tuple[int, int, int, int]
    """Two categories, then two tags."""


def generate_events(
    pools: Pools, count: int, today: datetime, rng: random.Random
) -> Iterator[EventSpec]:
    """``count`` events starting between ``today`` and ``today + DAYS_AHEAD`` (site-local)."""
    first_day = today.replace(hour=0, minute=0, second=0, microsecond=0, tzinfo=None)
    for number in range(1, count + 1):
        all_day = rng.random() < 0.05
        start = first_day + timedelta(days=rng.randrange(1, DAYS_AHEAD), hours=rng.randint(9, 21))
        if all_day:
            start = start.replace(hour=0)
            end = start.replace(hour=23, minute=59, second=59)
        else:
            end = start + timedelta(hours=rng.randint(1, 4))
        title = f"{rng.choice(ADJECTIVES)} {rng.choice(NOUNS)} {number}"
        categories = rng.sample(pools.category_ids, 2)
        tags = rng.sample(pools.tag_ids, 2)
        yield EventSpec(
            title=title,
            description=" ".join(rng.sample(SENTENCES, 3)),
            timezone=rng.choice(ZONES),
            start=start,
            end=end,
            all_day=all_day,
            featured=rng.random() < 0.05,
            cost=[str(rng.choice((5, 10, 15, 20, 35)))] if rng.random() < 0.8 else [],
            venue_id=rng.choice(pools.venue_ids),
            organizer_id=rng.choice(pools.organizer_ids),
            term_ids=(categories[0], categories[1], tags[0], tags[1]),
        )


def event_input(spec: EventSpec) -> dict[str, Any]:
    """The event as the HTTP layer would hand it to the pipeline (parsed fields)."""
    data: dict[str, Any] = {
        "title": spec.title,
        "description": spec.description,
        "timezone": spec.timezone,
        "start_date": spec.start.isoformat(" "),
        "end_date": spec.end.isoformat(" "),
        "all_day": spec.all_day,
        "featured": spec.featured,
        "venue": [LinkedItem(id=spec.venue_id)],
        "organizer": [LinkedItem(id=spec.organizer_id)],
        "categories": [TermValue(str(i), i) for i in spec.term_ids[:2]],
        "tags": [TermValue(str(i), i) for i in spec.term_ids[2:]],
    }
    if spec.cost:
        data["cost"] = spec.cost
    return data


# --- the pools: administrator, venues, organizers, terms (always through the services) --------


async def admin_actor(conn: Connection, now: datetime) -> Actor:
    """The seeded administrator (created on the first run, found again on later ones)."""
    try:
        user_id, _ = await user_service.add_user(
            conn, login=ADMIN_LOGIN, role=Role.ADMINISTRATOR, now=now, password=ADMIN_PASSWORD
        )
    except ApiError:
        user = await credentials.authenticate(conn, ADMIN_LOGIN, ADMIN_PASSWORD)
        user_id = user.id
    return Actor(user_id=user_id, role=Role.ADMINISTRATOR, login=ADMIN_LOGIN)


def make_call(conn: Connection, actor: Actor, site: Site) -> Call:
    return Call(
        conn=conn,
        actor=actor,
        site=site,
        urls=Urls.build(PUBLIC_URL),
        now=datetime.now(UTC),
        registry=REGISTRY,
    )


async def create_pools(database: Database, site: Site, linked: int, rng: random.Random) -> Pools:
    """The administrator, ``linked`` venues and as many organizers, the categories and tags."""
    async with database.transaction() as conn:
        actor = await admin_actor(conn, datetime.now(UTC))
        call = make_call(conn, actor, site)
        venue_ids = []
        organizer_ids = []
        for n in range(1, linked + 1):
            zone_city = rng.choice((("Berlin", "Germany"), ("Lyon", "France"), ("Austin", "US")))
            venue_id, _ = await service.insert_item(
                call,
                REGISTRY["venues"],
                {
                    "venue": f"Hall {n}",
                    "address": f"{n} Main Street",
                    "city": zone_city[0],
                    "country": zone_city[1],
                    "latitude": round(rng.uniform(-60, 60), 5),
                    "longitude": round(rng.uniform(-150, 150), 5),
                },
            )
            organizer_id, _ = await service.insert_item(
                call,
                REGISTRY["organizers"],
                {"organizer": f"Organizer {n}", "email": f"organizer{n}@example.org"},
            )
            venue_ids.append(venue_id)
            organizer_ids.append(organizer_id)
        category_ids = [
            await term_store.find_or_create_term(conn, CATEGORY_TAXONOMY, name)
            for name in CATEGORY_NAMES
        ]
        tag_ids = [
            await term_store.find_or_create_term(conn, TAG_TAXONOMY, name) for name in TAG_NAMES
        ]
    assert actor.user_id is not None
    return Pools(actor.user_id, venue_ids, organizer_ids, category_ids, tag_ids)


# --- events through the service ----------------------------------------------------------------


async def seed_events_service(
    database: Database,
    site: Site,
    pools: Pools,
    specs: Iterator[EventSpec],
    *,
    total: int,
    batch: int,
) -> None:
    """``create_event`` for every event, ``batch`` creates per transaction."""
    actor = Actor(user_id=pools.admin_id, role=Role.ADMINISTRATOR, login=ADMIN_LOGIN)
    progress = Progress(total)
    done = 0
    while done < total:
        size = min(batch, total - done)
        async with database.transaction() as conn:
            call = make_call(conn, actor, site)
            for _ in range(size):
                await service.insert_item(call, REGISTRY["events"], event_input(next(specs)))
        done += size
        progress.show(done)


# --- events by bulk inserts (--fast) ---------------------------------------------------------
#
# Creating events through the service costs a few milliseconds each (slug checks, link and term
# resolution, presenting the created event), which is fine for 10,000 events but means about an
# hour for the 1,000,000 that tell us how the listing scales. This path writes the same rows with
# one multi-row insert per table and chunk instead. It must keep what the service keeps:
# * every event id is first reserved in ``post`` (the shared id space), and the id sequence is
#   moved past the ids used, so later creates through the API get fresh ids;
# * slugs are unique among live events (the number in every title makes them so);
# * ``term.count`` is the number of published events per term (applied with the service's own
#   ``adjust_counts``).


def _insert(table: sa.Table, columns: list[str]) -> sa.Insert:
    """``INSERT INTO table (columns) VALUES (:column, ...)`` for ``execute_many``."""
    return sa.insert(table).values({name: sa.bindparam(name) for name in columns})


EVENT_COLUMNS = [
    "id",
    "author_id",
    "status",
    "slug",
    "title",
    "description",
    "excerpt",
    "post_password",
    "published_at",
    "date_floating",
    "modified_at",
    "timezone",
    "all_day",
    "start_local",
    "end_local",
    "start_at",
    "end_at",
    "cost",
    "currency_symbol",
    "currency_position",
    "show_map",
    "show_map_link",
    "hide_from_listings",
    "sticky",
    "featured",
    "ticketed",
    "venue_id",
]
INSERT_POST_ROWS = _insert(post, ["id", "type"])
INSERT_EVENT_ROWS = _insert(event, EVENT_COLUMNS)
INSERT_EVENT_ORGANIZERS = _insert(event_organizer, ["event_id", "organizer_id", "position"])
INSERT_EVENT_TERMS = _insert(event_term, ["event_id", "term_id"])
MAX_POST_ID = sa.select(sa.func.coalesce(sa.func.max(post.c.id), 0))


def _slug(title: str) -> str:
    """What ``sanitize_slug`` makes of the generated titles (ASCII words and a number)."""
    return title.lower().replace(" ", "-")


def event_row(spec: EventSpec, event_id: int, admin_id: int, now: datetime) -> dict[str, Any]:
    zone = resolve_timezone(spec.timezone)
    assert zone is not None
    cost = store_cost(spec.cost)
    return {
        "id": event_id,
        "author_id": admin_id,
        "status": "publish",
        "slug": _slug(spec.title),
        "title": spec.title,
        "description": spec.description,
        "excerpt": "",
        "post_password": "",
        "published_at": now,
        "date_floating": False,
        "modified_at": now,
        "timezone": spec.timezone,
        "all_day": spec.all_day,
        "start_local": spec.start,
        "end_local": spec.end,
        "start_at": to_utc(spec.start, zone),
        "end_at": to_utc(spec.end, zone),
        "cost": cost.to_column(),
        "currency_symbol": cost.currency_symbol,
        "currency_position": cost.currency_position,
        "show_map": False,
        "show_map_link": False,
        "hide_from_listings": False,
        "sticky": False,
        "featured": spec.featured,
        "ticketed": False,
        "venue_id": spec.venue_id,
    }


async def seed_events_fast(
    database: Database, pools: Pools, specs: Iterator[EventSpec], *, total: int, batch: int
) -> None:
    """Bulk inserts, ``batch`` events per transaction."""
    now = datetime.now(UTC).replace(microsecond=0)
    progress = Progress(total)
    async with database.read() as conn:
        next_id = int(await conn.scalar(MAX_POST_ID)) + 1
    term_counts: dict[int, int] = {}
    done = 0
    while done < total:
        size = min(batch, total - done)
        chunk = [next(specs) for _ in range(size)]
        ids = range(next_id, next_id + size)
        async with database.transaction() as conn:
            await conn.execute_many(INSERT_POST_ROWS, [{"id": i, "type": "event"} for i in ids])
            await conn.execute_many(
                INSERT_EVENT_ROWS,
                [event_row(s, i, pools.admin_id, now) for s, i in zip(chunk, ids, strict=True)],
            )
            await conn.execute_many(
                INSERT_EVENT_ORGANIZERS,
                [
                    {"event_id": i, "organizer_id": s.organizer_id, "position": 0}
                    for s, i in zip(chunk, ids, strict=True)
                ],
            )
            await conn.execute_many(
                INSERT_EVENT_TERMS,
                [
                    {"event_id": i, "term_id": t}
                    for s, i in zip(chunk, ids, strict=True)
                    for t in s.term_ids
                ],
            )
        for spec in chunk:
            for term_id in spec.term_ids:
                term_counts[term_id] = term_counts.get(term_id, 0) + 1
        next_id += size
        done += size
        progress.show(done)
    async with database.transaction() as conn:
        await conn.execute_many(
            ADD_TO_TERM_COUNT,
            [{"term_id": t, "delta": n} for t, n in sorted(term_counts.items())],
        )
        await move_post_sequence(conn, next_id - 1)


async def move_post_sequence(conn: Connection, last_id: int) -> None:
    """Make the next id ``post`` hands out ``last_id + 1`` (explicit ids do not advance it on
    PostgreSQL; SQLite's AUTOINCREMENT already moved past them)."""
    if conn.dialect_name == "postgresql":
        await conn.execute(
            sa.text("SELECT setval(pg_get_serial_sequence('post', 'id'), :last_id)").bindparams(
                last_id=last_id
            )
        )


# --- running -----------------------------------------------------------------------------------


class Progress:
    def __init__(self, total: int) -> None:
        self.total = total
        self.started = time.perf_counter()
        self.last_shown = 0.0

    def show(self, done: int) -> None:
        elapsed = time.perf_counter() - self.started
        if done < self.total and elapsed - self.last_shown < 2:
            return
        self.last_shown = elapsed
        rate = done / elapsed if elapsed else 0.0
        print(f"  {done:>9,}/{self.total:,} events  {elapsed:7.1f} s  {rate:8,.0f} events/s")


def seed(
    url: str, *, events: int, fast: bool = False, batch: int | None = None, linked: int = 200
) -> None:
    """Migrate the database at ``url`` and add the pools and ``events`` published events."""
    started = time.perf_counter()
    migrate.upgrade(url)  # runs its own event loop on PostgreSQL: not from a coroutine
    print(f"migrated in {time.perf_counter() - started:.1f} s")
    asyncio.run(populate(url, events=events, fast=fast, batch=batch, linked=linked))
    print(f"seeded {url} in {time.perf_counter() - started:.1f} s")


async def populate(url: str, *, events: int, fast: bool, batch: int | None, linked: int) -> None:
    site = site_from(load_settings().with_overrides(database_url=url))
    rng = random.Random(8)
    database = create_database(url)
    await database.startup()
    try:
        step = time.perf_counter()
        pools = await create_pools(database, site, linked, rng)
        print(
            f"{len(pools.venue_ids)} venues, {len(pools.organizer_ids)} organizers, "
            f"{len(pools.category_ids)} categories, {len(pools.tag_ids)} tags "
            f"in {time.perf_counter() - step:.1f} s"
        )
        step = time.perf_counter()
        specs = generate_events(pools, events, datetime.now(site.zone), rng)
        how = "bulk inserts" if fast else "services.events.create_event"
        print(f"creating {events:,} events with {how}")
        if fast:
            await seed_events_fast(database, pools, specs, total=events, batch=batch or 20_000)
        else:
            await seed_events_service(
                database, site, pools, specs, total=events, batch=batch or 500
            )
        elapsed = time.perf_counter() - step
        print(f"{events:,} events in {elapsed:.1f} s ({events / elapsed:,.0f} events/s)")
        if database.dialect_name == "postgresql":
            # Without statistics the planner guesses one row per filter and picks plans that
            # are 100x slower on this data. Autovacuum would vacuum and analyze the new rows at
            # some later moment (and compete for the CPUs while it does); do it now, so results
            # do not depend on when the measurement started. (Outside a transaction: VACUUM.)
            async with database.read() as conn:
                await conn.execute(sa.text("VACUUM ANALYZE"))
            print("vacuumed and analyzed")
    finally:
        await database.shutdown()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database-url",
        default=os.environ.get("EVENTCAL_DATABASE_URL"),
        help="sqlite:///path.db or postgresql://... (default: EVENTCAL_DATABASE_URL)",
    )
    parser.add_argument("--events", type=int, default=10_000, help="events to add (10,000)")
    parser.add_argument(
        "--fast", action="store_true", help="bulk inserts instead of the service (for 1,000,000)"
    )
    parser.add_argument(
        "--batch", type=int, help="events per transaction (500; 20,000 with --fast)"
    )
    parser.add_argument(
        "--linked", type=int, default=200, help="venues and organizers in the pool (200 each)"
    )
    args = parser.parse_args(argv)
    if not args.database_url:
        parser.error("give --database-url or set EVENTCAL_DATABASE_URL")
    seed(
        args.database_url,
        events=args.events,
        fast=args.fast,
        batch=args.batch,
        linked=args.linked,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Totals filtered by one category, tag or organizer come from ``event_link_day_count``
(migration 0020_filter_totals), kept by triggers: after every kind of write (links set and
changed, dates, status, hidden, trash, deletion through the API and by a plain ``DELETE`` that
cascades to the links, a recurring series) the summary equals its recomputation from the events
and their links, and each total equals a plain ``count(*)`` of the same events."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from typing import Any

import pytest
import sqlalchemy as sa

from eventcal.domains.events import conditions, link_pages
from eventcal.domains.events.listing import LISTING
from eventcal.resources.listing import ListQuery
from eventcal.storage.tables import event, event_link_day_count, event_organizer, event_term
from tests import factories
from tests.conftest import NS, Api

WINDOWS = [
    # The default listing's window at the recorded time (yesterday … +24 months).
    (datetime(2026, 11, 21, tzinfo=UTC), datetime(2028, 11, 22, 23, 59, 59, tzinfo=UTC)),
    # Edges inside days that have events, and a window of less than a day.
    (datetime(2026, 12, 1, 10, 30, tzinfo=UTC), datetime(2026, 12, 3, 12, 0, tzinfo=UTC)),
    (datetime(2026, 12, 1, 8, 0, tzinfo=UTC), datetime(2026, 12, 1, 21, 0, tzinfo=UTC)),
    (datetime(2026, 12, 2, 0, 0, tzinfo=UTC), datetime(2027, 1, 1, 0, 0, tzinfo=UTC)),
]
FILTERS = {"categories": "category_ids", "tags": "tag_ids", "organizer": "organizer_ids"}
"""The filters by one linked item, and ``featured=1`` (item 1, no ids)."""


def recomputed(dialect: str) -> sa.Select[Any]:
    """The summary as the migration's backfill computes it."""
    days: list[Any]
    if dialect == "sqlite":
        days = [sa.func.date(event.c.start_at), sa.func.date(event.c.end_at)]
    else:
        days = [
            sa.cast(sa.func.timezone("UTC", event.c[c]), sa.Date) for c in ("start_at", "end_at")
        ]
    parts = []
    for kind, table, column in (
        ("term", event_term, event_term.c.term_id),
        ("organizer", event_organizer, event_organizer.c.organizer_id),
    ):
        parts.append(
            sa.select(
                sa.literal(kind).label("link"),
                column.label("item_id"),
                event.c.status,
                days[0].label("start_day"),
                days[1].label("end_day"),
                sa.func.count().label("events"),
            )
            .select_from(table.join(event, event.c.id == table.c.event_id))
            .where(event.c.hide_from_listings == sa.false())
            .group_by(sa.literal_column("1"), column, event.c.status, *days)
        )
    parts.append(
        sa.select(
            sa.literal("featured").label("link"),
            sa.literal(1).label("item_id"),
            event.c.status,
            days[0].label("start_day"),
            days[1].label("end_day"),
            sa.func.count().label("events"),
        )
        .where(event.c.hide_from_listings == sa.false(), event.c.featured == sa.true())
        .group_by(event.c.status, *days)
    )
    return sa.union_all(*parts)  # type: ignore[return-value]


COLUMNS = ("link", "item_id", "status", "start_day", "end_day", "events")


def row_values(row: Any) -> tuple[str, ...]:
    return tuple(str(row[c]) for c in COLUMNS)


def assert_link_totals_exact(api: Api, items: dict[str, list[int]]) -> None:
    async def check() -> None:
        async with api.database.read() as conn:
            counts = event_link_day_count.c
            kept = await conn.all(sa.select(event_link_day_count).where(counts.events != 0))
            expected = await conn.all(recomputed(conn.dialect_name))
            assert sorted(row_values(r) for r in kept) == sorted(row_values(r) for r in expected)
            for (start_min, end_max), statuses in (
                (w, s) for w in WINDOWS for s in (["publish"], ["publish", "draft", "future"])
            ):
                for name, ids in items.items():
                    for item in ids:
                        query = ListQuery(1, 10)
                        query.on("listed")
                        query.on("statuses", statuses=statuses)
                        query.on("start_min", start_min=start_min)
                        query.on("end_max", end_max=end_max)
                        named = {FILTERS[name]: [item]} if name in FILTERS else {}
                        query.on(name, True, **named)
                        assert LISTING.counted_by_link(query) == name
                        plain = await conn.scalar(LISTING.count_statement(query.key), query.values)
                        total = await LISTING.count(conn, query)
                        assert total == plain, (name, item, start_min, statuses)

    api.run(check)


def make(api: Api, title: str, start: str, end: str | None = None, **fields: Any) -> int:
    return api.run(
        partial(factories.make_event, api.database, title, start=start, end=end, **fields)
    )


def test_link_totals_stay_exact_through_every_kind_of_write(api: Api) -> None:
    db = api.database
    rock, jazz = (api.run(partial(factories.make_term, db, n)) for n in ("Rock", "Jazz"))
    tag = api.run(partial(factories.make_term, db, "Free", taxonomy="post_tag"))
    ann, bob = (api.run(partial(factories.make_organizer, db, n)) for n in ("Ann", "Bob"))
    items = {"categories": [rock, jazz], "tags": [tag], "organizer": [ann, bob], "featured": [1]}
    assert_link_totals_exact(api, items)
    both: dict[str, Any] = {"term_ids": (rock, tag), "organizer_ids": (ann, bob)}
    make(api, "Morning", "2026-12-01 09:00:00", featured=True, **both)
    make(api, "Evening", "2026-12-01 20:00:00", "2026-12-02 01:00:00", term_ids=(jazz,))
    make(api, "Three days", "2026-12-01 11:00:00", "2026-12-03 11:00:00", **both)
    make(api, "Tokyo", "2026-12-02 08:00:00", timezone="Asia/Tokyo", organizer_ids=(bob,))
    make(api, "Hidden", "2026-12-02 10:00:00", hide_from_listings=True, featured=True, **both)
    make(api, "Draft", "2026-12-02 12:00:00", status="draft", **both)
    make(api, "Last day", "2028-11-22 22:00:00", "2028-11-22 23:59:59", term_ids=(rock,))
    doomed = make(api, "Deleted by SQL", "2026-12-02 14:00:00", featured=True, **both)
    assert_link_totals_exact(api, items)

    links = {"categories": [rock], "tags": [tag], "organizer": [ann]}
    body = {"title": "Created", "start_date": "2026-12-01 10:00", "end_date": "2026-12-01 12:00"}
    created = api.post(f"{NS}/events", json={**body, **links})
    assert created.status_code == 201, created.text
    event_id = created.json()["id"]
    assert_link_totals_exact(api, items)
    for change in (
        {"start_date": "2026-12-03 09:00", "end_date": "2026-12-03 13:00"},
        {"categories": [jazz, rock], "organizer": [bob, ann]},
        {"featured": True},
        {"hide_from_listings": True},
        {"categories": [jazz], "tags": []},
        {"hide_from_listings": False},
        {"status": "draft"},
        {"organizer": [ann], "featured": False},
        {"featured": True},
        {"status": "publish"},
        {"title": "Renamed"},
        {"timezone": "America/New_York"},
    ):
        response = api.post(f"{NS}/events/{event_id}", json=change)
        assert response.status_code == 200, (change, response.text)
        assert_link_totals_exact(api, items)
    assert api.delete(f"{NS}/events/{event_id}").status_code == 200  # trash
    assert_link_totals_exact(api, items)
    assert api.delete(f"{NS}/events/{event_id}?force=true").status_code == 200
    assert_link_totals_exact(api, items)

    async def delete_by_sql() -> None:
        async with db.transaction() as conn:
            await conn.execute(sa.delete(event).where(event.c.id == doomed))

    api.run(delete_by_sql)  # the foreign keys delete the links after the event row
    assert_link_totals_exact(api, items)

    series = {"recurrence": ["RRULE:FREQ=DAILY;COUNT=12"], "timezone": "Europe/Berlin"}
    created = api.post(f"{NS}/events", json={**body, **series, **links, "featured": True})
    assert created.status_code == 201, created.text
    assert_link_totals_exact(api, items)
    moved = {"start_date": "2026-12-01 23:30", "end_date": "2026-12-02 01:00"}
    response = api.post(f"{NS}/events/{created.json()['id']}", json=moved)
    assert response.status_code == 200, response.text
    assert_link_totals_exact(api, items)


@pytest.mark.parametrize(
    ("query", "summary"),
    [
        ("categories={rock}", True),
        ("organizer={ann}", True),
        ("categories={rock},{jazz}", False),
        ("categories={rock}&featured=1", False),
    ],
)
def test_one_linked_item_alone_is_counted_from_its_summary(
    api: Api, query: str, summary: bool
) -> None:
    """One category, tag or organizer on the default listing reads the summary (several, or
    another filter, count the events): the listing's total and its events agree either way."""
    db = api.database
    rock, jazz = (api.run(partial(factories.make_term, db, n)) for n in ("Rock", "Jazz"))
    ann = api.run(partial(factories.make_organizer, db, "Ann"))
    for day in range(1, 6):
        terms = (rock,) if day % 2 else (rock, jazz)
        make(api, f"Day {day}", f"2026-12-{day:02d} 10:00:00", term_ids=terms, organizer_ids=(ann,))
    url = f"{NS}/events?per_page=50&" + query.format(rock=rock, jazz=jazz, ann=ann)
    response = api.get(url)
    assert response.status_code == 200, response.text
    assert int(response.headers["x-tec-total"]) == len(response.json().get("events", []))
    parsed = ListQuery(1, 10)
    parsed.on("listed")
    parsed.on("status", status="publish")
    parsed.on("start_min")
    parsed.on("end_max")
    name = query.split("=", maxsplit=1)[0]
    values = query.split("=")[1].split("&", maxsplit=1)[0].split(",")
    parsed.on(name, True, **{FILTERS[name]: values})
    if "featured" in query:
        parsed.on("featured", True)
    assert (LISTING.counted_by_link(parsed) is not None) is summary


def test_a_page_probes_the_window_only_when_the_item_has_its_rows_early(api: Api) -> None:
    """A page of a category, tag or organizer probes the window's events for the link when
    the item's events come early and often (``link_pages``), and lists the item's events first
    when they are few or come late (a probe per event of the window up to them would cost
    more); both give the same events in the same order."""
    db = api.database
    common, late, rare = (api.run(partial(factories.make_term, db, n)) for n in "ABC")
    for day in range(1, 29):
        for hour in (9, 12, 15, 18):
            terms = (common,) if hour != 18 else (common, rare) if day == 5 else ()
            make(api, f"{day} {hour}", f"2026-12-{day:02d} {hour:02d}:00:00", term_ids=terms)
    for day in range(1, 8):
        make(api, f"Late {day}", f"2027-03-{day:02d} 10:00:00", term_ids=(late, common))

    def probed(item: int, page: int) -> tuple[bool, list[int], list[int]]:
        async def run() -> tuple[bool, list[int], list[int]]:
            query = ListQuery(page, 5)
            query.on("listed")
            query.on("status", status="publish")
            query.on("start_min", start_min=WINDOWS[0][0])
            query.on("end_max", end_max=WINDOWS[0][1])
            query.on("categories", True, category_ids=[item])
            async with db.read() as conn:
                params = {**LISTING._linked_params(query, "categories"), "need": page * 5}
                probes = await link_pages.probes(conn, params)
                values = {**query.values, "limit": 5, "offset": (page - 1) * 5, "linked_id": item}
                pages = []
                for shape in (True, conditions.PROBE):
                    key = frozenset({*(i for i in query.key if i[0] != "categories")})
                    statement = LISTING.page_statement(key | {("categories", shape)}, "default")
                    pages.append([int(r["id"]) for r in await conn.all(statement, values)])
            return probes, pages[0], pages[1]

        return api.run(run)

    assert probed(common, 1)[0] is True  # 3 events of 4 from the first day
    assert probed(late, 1)[0] is False  # after every other event of the window
    assert probed(rare, 1)[0] is False  # one event: fewer than the page's rows
    for item, page in ((common, 1), (common, 3), (late, 1), (late, 2), (rare, 1)):
        _, listed, by_probe = probed(item, page)
        assert listed == by_probe, (item, page)
        assert len(listed) == {rare: 1, late: 5 if page == 1 else 2}.get(item, 5)

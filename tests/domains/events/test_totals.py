"""The listing's total from ``event_day_count`` (migration 0007) stays exact: after every kind
of write it equals a plain ``count(*)`` of the same events, for any window and statuses."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

import pytest

from eventcal.collections import REGISTRY
from eventcal.domains.events import search
from eventcal.domains.events.listing import LISTING
from eventcal.resources import scheduling
from eventcal.resources.listing import ListQuery
from tests import factories
from tests.conftest import NS, Api

ALL_STATUSES = ("publish", "future", "draft", "pending", "private")
WINDOWS = [
    # The default listing's window at the recorded time (yesterday … +24 months).
    (datetime(2026, 11, 21, tzinfo=UTC), datetime(2028, 11, 22, 23, 59, 59, tzinfo=UTC)),
    # Edges inside days that have events, and a window of less than a day.
    (datetime(2026, 12, 1, 10, 30, tzinfo=UTC), datetime(2026, 12, 3, 12, 0, tzinfo=UTC)),
    (datetime(2026, 12, 1, 8, 0, tzinfo=UTC), datetime(2026, 12, 1, 21, 0, tzinfo=UTC)),
    (datetime(2026, 12, 2, 0, 0, tzinfo=UTC), datetime(2027, 1, 1, 0, 0, tzinfo=UTC)),
    # An inverted window.
    (datetime(2026, 12, 3, tzinfo=UTC), datetime(2026, 12, 1, tzinfo=UTC)),
]


def assert_totals_exact(api: Api) -> None:
    async def check() -> None:
        async with api.database.read() as conn:
            for start_min, end_max in WINDOWS:
                for statuses in (("publish",), ALL_STATUSES):
                    query = ListQuery(1, 10)
                    query.on("listed")
                    if len(statuses) == 1:
                        query.on("status", status=statuses[0])
                    else:
                        query.on("statuses", statuses=list(statuses))
                    query.on("start_min", start_min=start_min)
                    query.on("end_max", end_max=end_max)
                    assert LISTING.counts_by_day(query.key)
                    plain = await conn.scalar(LISTING.count_statement(query.key), query.values)
                    assert await LISTING.count(conn, query) == plain, (start_min, end_max, statuses)

    api.run(check)


def make(api: Api, title: str, start: str, end: str | None = None, **fields: Any) -> int:
    return api.run(
        partial(factories.make_event, api.database, title, start=start, end=end, **fields)
    )


def test_totals_stay_exact_through_every_kind_of_write(api: Api, clock: Any) -> None:
    assert_totals_exact(api)
    # Events at the edges of the windows, over several days, in other zones, hidden, drafts.
    make(api, "Morning", "2026-12-01 09:00:00")
    make(api, "Evening", "2026-12-01 20:00:00", "2026-12-02 01:00:00")
    make(api, "Three days", "2026-12-01 11:00:00", "2026-12-03 11:00:00")
    make(api, "Tokyo", "2026-12-02 08:00:00", timezone="Asia/Tokyo")
    make(api, "Hidden", "2026-12-02 10:00:00", hide_from_listings=True)
    draft = make(api, "Draft", "2026-12-02 12:00:00", status="draft")
    make(api, "First day", "2026-11-21 00:00:00")
    make(api, "Last day", "2028-11-22 22:00:00", "2028-11-22 23:59:59")
    make(api, "After the window", "2028-11-22 23:00:00", "2028-11-23 01:00:00")
    assert_totals_exact(api)

    created = api.post(
        f"{NS}/events",
        json={"title": "Created", "start_date": "2026-12-01 10:00", "end_date": "2026-12-01 12:00"},
    ).json()
    assert_totals_exact(api)
    for change in (
        {"start_date": "2026-12-03 09:00", "end_date": "2026-12-03 13:00"},
        {"hide_from_listings": True},
        {"hide_from_listings": False},
        {"status": "draft"},
        {"status": "publish"},
        {"all_day": True},
        {"timezone": "America/New_York"},
    ):
        assert api.post(f"{NS}/events/{created['id']}", json=change).status_code == 200, change
        assert_totals_exact(api)
    assert api.post(f"{NS}/events/{draft}", json={"status": "publish"}).status_code == 200
    assert_totals_exact(api)
    assert api.delete(f"{NS}/events/{created['id']}").status_code == 200
    assert_totals_exact(api)

    scheduled = api.post(
        f"{NS}/events",
        json={
            "title": "Scheduled",
            "date": "2026-11-23 09:00:00",
            "start_date": "2026-12-02 10:00",
            "end_date": "2026-12-02 11:00",
        },
    ).json()
    assert scheduled["status"] == "future"
    assert_totals_exact(api)
    clock.now += timedelta(days=2)
    assert api.run(lambda: scheduling.publish_due(api.database, REGISTRY, clock.now)) == {
        "event": 1
    }
    assert_totals_exact(api)


def test_the_default_listing_total_comes_from_the_summary(api: Api) -> None:
    for day in range(1, 6):
        make(api, f"Day {day}", f"2026-12-{day:02d} 10:00:00")
    make(api, "Hidden", "2026-12-02 10:00:00", hide_from_listings=True)
    response = api.get(f"{NS}/events")
    assert response.headers["x-tec-total"] == "5"
    assert response.json()["total"] == 5


@pytest.mark.parametrize(
    "query",
    [
        "search=day",
        "categories=1",
        "starts_after=2026-12-02",
        "featured=1",
        "start_date=2026-12-02",
    ],
)
def test_other_filters_count_the_events(api: Api, query: str) -> None:
    """Filters the summary cannot answer fall back to counting the rows (still exact)."""
    for day in range(1, 6):
        make(api, f"Day {day}", f"2026-12-{day:02d} 10:00:00")
    response = api.get(f"{NS}/events?{query}")
    assert response.status_code in (200, 400), response.text
    if response.status_code == 200:
        assert int(response.headers["x-tec-total"]) == len(response.json()["events"])


# --- search: the SQLite FTS5 index (migration 0008) follows every write ----------------------


def searched(api: Api, words: str) -> list[int]:
    response = api.get(f"{NS}/events", params={"search": words})
    assert response.status_code == 200, response.text
    assert int(response.headers["x-tec-total"]) == len(response.json()["events"])
    return [e["id"] for e in response.json()["events"]]


def test_search_follows_creates_updates_and_trash(api: Api) -> None:
    created = api.post(
        f"{NS}/events",
        json={
            "title": "Late Jazz Night",
            "description": "Bring your own saxophone.",
            "start_date": "2026-12-01 20:00",
            "end_date": "2026-12-01 23:00",
        },
    ).json()["id"]
    other = make(api, "Book club", "2026-12-02 10:00:00", description="Jazz age novels")
    assert sorted(searched(api, "jazz")) == sorted([created, other])
    assert searched(api, "JAZZ nig") == [created]
    assert searched(api, "saxophone") == [created]
    assert searched(api, "ja") == [created, other]  # too short for the index: still found
    assert searched(api, '"jazz night"') == [created]
    assert searched(api, "jazz -saxophone") == [other]

    api.post(f"{NS}/events/{created}", json={"title": "Early Blues Morning"})
    assert searched(api, "jazz") == [other]
    assert searched(api, "blues saxophone") == [created]
    api.post(f"{NS}/events/{created}", json={"description": "Trumpets welcome."})
    assert searched(api, "saxophone") == []
    assert searched(api, "trumpet") == [created]
    api.post(f"{NS}/events/{created}", json={"excerpt": "Ünïcode Ëxcerpt"})
    assert searched(api, "Ünïcode") == [created]
    api.delete(f"{NS}/events/{created}")
    assert searched(api, "trumpet") == []
    assert searched(api, "novels") == [other]


def test_the_index_is_asked_for_the_rarest_word_and_results_do_not_change(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``search.index_query`` (SQLite): with a rare word among common ones, only the rare
    word goes to the index; every word still decides, so results equal the full intersection."""
    for i in range(4):
        make(api, f"Summer jazz {i}", f"2026-12-0{i + 1} 20:00:00", description="Open air gala")
    rare = make(api, "Summer gala 9999", "2026-12-05 20:00:00")
    make(api, "Winter 9999", "2026-12-06 20:00:00")  # the rare word without the others
    monkeypatch.setattr(search, "PROBE_CAP", 3)

    def narrowed(words: tuple[str, ...]) -> str | None:
        """The FTS5 query the listing sends (None: the search index is not read)."""

        async def run() -> str | None:
            async with api.database.read() as conn:
                indexed = search.indexed_words(words)
                if conn.dialect_name != "sqlite":
                    return None  # PostgreSQL: pg_trgm decides
                return await search.index_query(conn, indexed) if indexed else None

        return api.run(run)

    if api.database.dialect_name == "sqlite":
        assert narrowed(("summer", "gala", "9999")) == '"9999"'
        assert narrowed(("summer", "gala")) == '"summer" AND "gala"'  # both common: intersected
        assert narrowed(("summer",)) == '"summer"'  # one word: nothing to choose
        assert narrowed(("summer", "ga")) == '"summer"'  # "ga" is too short for the index
    else:
        assert narrowed(("summer", "gala", "9999")) is None
    queries = ("summer gala 9999", "9999 summer", "gala summer", "summer -9999", "air 9999")
    found = {words: searched(api, words) for words in queries}
    assert found["summer gala 9999"] == [rare]
    assert found["9999 summer"] == [rare]
    assert len(found["gala summer"]) == 5
    assert rare not in found["summer -9999"]
    assert found["air 9999"] == []
    monkeypatch.setattr(search, "PROBE_CAP", 0)  # never narrowed: the plain intersection
    assert {words: searched(api, words) for words in queries} == found


def test_a_common_words_page_in_listing_order_is_the_same(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A search with at least ``search.COMMON`` index matches reads its page in listing order
    (SQLite; its total still from the index): pages and totals are those of the index path."""
    for i in range(7):
        make(api, f"Jazz {i}", f"2026-12-{i + 10} 20:00:00", description="Late night")
    make(api, "Quiet", "2026-12-01 20:00:00", description="A jazz trio")
    make(api, "Locked jazz", "2026-12-02 20:00:00", post_password="pw")
    make(api, "Locked", "2026-12-03 20:00:00", post_password="pw", description="jazz")
    queries = ("jazz", "jazz night", "jazz -trio", "night jazz 3")

    def pages(words: str) -> list[tuple[str, list[int]]]:
        found: list[tuple[str, list[int]]] = []
        for page in (1, 2, 3):
            response = api.get(
                f"{NS}/events", params={"search": words, "per_page": 3, "page": page}
            )
            if response.status_code != 200:  # past the last page
                found.append((str(response.status_code), []))
                continue
            events = [e["id"] for e in response.json()["events"]]
            found.append((response.headers["x-tec-total"], events))
        return found

    indexed = {words: pages(words) for words in queries}
    assert indexed["jazz"][0][0] == "9"
    monkeypatch.setattr(search, "COMMON", 2)
    if api.database.dialect_name == "sqlite":

        async def plan() -> search.IndexPlan:
            async with api.database.read() as conn:
                return await search.index_plan(conn, ["jazz"])

        assert api.run(plan).common
    assert {words: pages(words) for words in queries} == indexed


def test_exact_index_totals_equal_the_word_tests(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite's index holds the texts in SQLite's ``lower`` and its matches count as exact in
    totals (migration 0015_search): totals and pages equal those of the ``ILIKE`` tests
    alone, for letter case, non-ASCII letters, wildcards, quotes and protected events."""
    for i, (title, description, password) in enumerate(
        [
            ("Jazz Night", "", ""),
            ("JAZZ", "late NIGHT", ""),
            ("Ünïcode Café", "", ""),
            ("ÜNÏCODE CAFÉ", "", ""),
            ("50% off_sale", "", ""),
            ("5000 offXsale", "", ""),
            ('say "hi" there', "", ""),
            ("Locked jazz", "night", "pw"),
            ("Locked", "jazz night", "pw"),
            ("Straße", "strasse", ""),
        ]
    ):
        make(
            api,
            title,
            f"2026-12-{i + 10} 20:00:00",
            description=description,
            post_password=password,
            slug=f"text-{i}",
        )
    queries = (
        "jazz", "JAZZ night", "ünïcode", "ÜNÏ", "café", "50%", "off_sale", '"hi"', 'say "hi',
        "straße", "STRASSE", "jazz -night", "jazz ni", "Locked",
    )  # fmt: skip

    def results(as_: str | None) -> dict[str, tuple[str, list[int]]]:
        found = {}
        for words in queries:
            response = api.get(f"{NS}/events", params={"search": words, "per_page": 50}, as_=as_)
            assert response.status_code == 200, response.text
            ids = [e["id"] for e in response.json()["events"]]
            found[words] = (response.headers["x-tec-total"], ids)
        return found

    indexed = {as_: results(as_) for as_ in (None, "administrator")}
    assert indexed[None]["jazz"][0] == "3"  # the protected description is not searched
    assert indexed["administrator"]["jazz"][0] == "4"
    monkeypatch.setattr(search, "MIN_INDEXED_WORD", 1000)  # no word indexed: the tests alone
    assert {as_: results(as_) for as_ in (None, "administrator")} == indexed


def test_a_search_is_common_by_its_share_of_the_events(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite: a search is common (its page read in listing order) only when its matches are
    at least ``search.COMMON`` and one event in ``search.COMMON_SHARE``: a word in 3 of ~45
    events is not, in 10 of ~50 it is."""
    if api.database.dialect_name != "sqlite":
        pytest.skip("SQLite's search index")
    monkeypatch.setattr(search, "COMMON", 2)
    for i in range(40):
        make(api, f"Talk {i}", f"2026-12-{i % 28 + 1:02d} 10:00:00")

    async def plan() -> search.IndexPlan:
        async with api.database.read() as conn:
            return await search.index_plan(conn, ["jazz"])

    for i in range(3):
        make(api, f"Jazz {i}", f"2026-12-{i + 1:02d} 20:00:00")
    assert not api.run(plan).common
    for i in range(3, 10):
        make(api, f"Jazz {i}", f"2026-12-{i + 1:02d} 20:00:00")
    assert api.run(plan).common

"""A common search's total counted from the events the listing leaves out (SQLite,
``domains/events/left_out.py``) equals the ``ILIKE`` tests' total, whatever leaves an event
out: other statuses, hidden, before or after the window, protected, series and their
occurrences (shared text or their own)."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from typing import Any

import pytest

from eventcal.domains.events import left_out, search
from eventcal.domains.events.listing import LISTING
from tests import factories
from tests.conftest import NS, Api

QUERIES = ("jazz", "JAZZ night", "jazz club", "locked", "sunset", "mat", "trio", "Stretch")


def make(api: Api, title: str, start: str, **fields: Any) -> int:
    return api.run(partial(factories.make_event, api.database, title, start=start, **fields))


def series(api: Api, title: str, start: str, description: str = "") -> list[int]:
    body = {
        "title": title,
        "description": description,
        "start_date": start,
        "end_date": start.replace("10:00", "11:30"),
        "recurrence": ["RRULE:FREQ=WEEKLY;COUNT=6"],
    }
    created = api.post(f"{NS}/events", json=body)
    assert created.status_code == 201, created.text
    occurrences = api.get(f"{NS}/events/{created.json()['id']}/occurrences", as_="administrator")
    ids = [e["id"] for e in occurrences.json()["events"]]
    assert len(ids) >= 4, occurrences.text
    return ids


def seed(api: Api) -> None:
    """The default window at the recorded time is 2026-11-21 … 2028-11-22 (site UTC)."""
    for i in range(6):
        make(api, f"Jazz night {i}", f"2026-12-{i + 10} 20:00:00", description="Late club")
    make(api, "Quiet", "2026-12-01 20:00:00", description="A jazz trio")
    make(api, "Draft jazz", "2026-12-02 20:00:00", status="draft")
    make(api, "Pending jazz", "2026-12-02 21:00:00", status="pending")
    make(api, "Private jazz", "2026-12-02 22:00:00", status="private")
    make(api, "Trashed jazz", "2026-12-03 20:00:00", status="trash")
    make(api, "Hidden jazz", "2026-12-03 21:00:00", hide_from_listings=True)
    make(api, "Past jazz", "2026-11-01 20:00:00")
    make(api, "Starts before the window", "2026-11-20 23:00:00", description="jazz")
    make(api, "Jazz after the window", "2028-11-22 23:00:00", end="2028-11-23 01:00:00")
    make(api, "Jazz far ahead", "2029-03-01 20:00:00")
    make(api, "Locked jazz", "2026-12-04 20:00:00", post_password="pw", description="night")
    make(api, "Locked", "2026-12-04 21:00:00", post_password="pw", description="jazz night")
    make(api, "Locked past jazz", "2026-11-02 21:00:00", post_password="pw")
    # A series starting before the window (some occurrences out), one occurrence with its
    # own title and one moved out of the window; a series with its own text only.
    yoga = series(api, "Sunset Yoga jazz", "2026-11-10 10:00:00", "Bring a mat.")
    own = api.patch(f"{NS}/events/{yoga[1]}?scope=this", json={"title": "Sunrise Stretch"})
    assert own.status_code == 200, own.text
    moved = api.patch(
        f"{NS}/events/{yoga[2]}?scope=this",
        json={"start_date": "2026-11-05 10:00:00", "end_date": "2026-11-05 11:00:00"},
    )
    assert moved.status_code == 200, moved.text
    series(api, "Evening Stretch", "2026-12-01 10:00:00", "jazz mats lent")


def totals(api: Api) -> dict[tuple[str | None, str, str], str]:
    found = {}
    statuses = "publish,draft,private,trash"
    for as_, status in ((None, ""), ("administrator", ""), ("administrator", statuses)):
        for words in QUERIES:
            params = {"search": words, "per_page": 50}
            if status:
                params["status"] = status
            response = api.get(f"{NS}/events", params=params, as_=as_)
            assert response.status_code == 200, response.text
            assert int(response.headers["x-tec-total"]) == len(response.json()["events"])
            found[(as_, status, words)] = response.headers["x-tec-total"]
    return found


def test_totals_counted_from_the_left_out_events_equal_the_word_tests(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed(api)
    monkeypatch.setattr(search, "COMMON", 2)
    monkeypatch.setattr(search, "PROBE_CAP", 0)  # several words: their intersection
    monkeypatch.setattr(left_out, "RATIO", 0.001)  # always from the left-out events
    counted: list[int] = []
    original = left_out.count

    async def recorded(*args: Any) -> int | None:
        total = await original(*args)
        if total is not None:
            counted.append(total)
        return total

    monkeypatch.setattr(left_out, "count", recorded)
    from_left_out = totals(api)
    if api.database.dialect_name == "sqlite":
        assert len(counted) >= 12, counted  # the common ones (the others count their matches)
    # 6 nights, the trio, locked jazz, 2 yoga occurrences in the window with the series' text,
    # the 6 occurrences of the stretch series.
    assert from_left_out[(None, "", "jazz")] == "16"
    monkeypatch.setattr(search, "MIN_INDEXED_WORD", 1000)  # no word indexed: the tests alone
    counted.clear()
    assert totals(api) == from_left_out
    assert counted == []


def test_many_left_out_events_count_the_matches(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """With more left-out events than matches / ``RATIO`` the matches are counted instead."""
    if api.database.dialect_name != "sqlite":
        pytest.skip("SQLite's search index")
    seed(api)
    monkeypatch.setattr(search, "COMMON", 2)

    async def count(ratio: float) -> int | None:
        monkeypatch.setattr(left_out, "RATIO", ratio)
        query = search.Words(1, False, False)
        active = frozenset(
            {("listed", True), ("status", True), ("start_min", True), ("end_max", True)}
            | {("words", query)}
        )
        values = {
            "status": "publish",
            "start_min": datetime(2026, 11, 21, tzinfo=UTC),
            "end_max": datetime(2028, 11, 22, 23, 59, 59, tzinfo=UTC),
            "word0": "%jazz%",
            "search_match": '"jazz"',
        }
        async with api.database.read() as conn:
            return await left_out.count(conn, LISTING, active, values)

    assert api.run(partial(count, 0.001)) == 16
    assert api.run(partial(count, 8)) is None


def test_nothing_left_out(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every event listed: the total is the index's matches (no correction is counted)."""
    if api.database.dialect_name != "sqlite":
        pytest.skip("SQLite's search index")
    for i in range(6):
        make(api, f"Jazz night {i}", f"2026-12-{i + 10} 20:00:00")
    make(api, "Quiet", "2026-12-01 20:00:00", description="A jazz trio")
    make(api, "Blues", "2026-12-02 20:00:00")
    monkeypatch.setattr(search, "COMMON", 2)
    monkeypatch.setattr(left_out, "RATIO", 0.001)
    monkeypatch.setattr(left_out, "_correction", lambda *a: pytest.fail("counted"))
    counted: list[int | None] = []
    original = left_out.count

    async def recorded(*args: Any) -> int | None:
        counted.append(await original(*args))
        return counted[-1]

    monkeypatch.setattr(left_out, "count", recorded)
    assert api.get(f"{NS}/events", params={"search": "jazz"}).headers["x-tec-total"] == "7"
    assert counted == [7]

"""Recurring events through the API (issue 15): series, occurrences, exceptions, scopes."""

from __future__ import annotations

from typing import Any

from tests.conftest import NS, Api

WEEKLY = ["RRULE:FREQ=WEEKLY;COUNT=10"]
# The recorded "now" is 2026-11-22 04:46 UTC (a Sunday); the first class is on Tuesday.
FIRST = {"start_date": "2026-12-01 10:00:00", "end_date": "2026-12-01 11:30:00"}


def create(api: Api, title: str = "Yoga", **fields: Any) -> dict[str, Any]:
    body = {"title": title, **FIRST, "timezone": "Europe/Berlin", "recurrence": WEEKLY, **fields}
    response = api.post(f"{NS}/events", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def occurrences(api: Api, query: str = "") -> list[dict[str, Any]]:
    response = api.get(f"{NS}/events?per_page=50{query}")
    assert response.status_code == 200, response.text
    events: list[dict[str, Any]] = response.json()["events"]
    return events


def test_a_weekly_series_lists_each_occurrence_as_an_event(api: Api) -> None:
    series = create(api)
    assert series["recurrence"] == ["RRULE:FREQ=WEEKLY;COUNT=10"]
    assert series["recurrence_text"] == "Weekly on Tuesday, 10 times"
    assert series["series_id"] == series["id"]
    listed = occurrences(api)
    assert len(listed) == 10
    assert [e["start_date"][:10] for e in listed[:3]] == ["2026-12-01", "2026-12-08", "2026-12-15"]
    assert {e["series_id"] for e in listed} == {series["id"]}
    assert len({e["id"] for e in listed}) == 10 and series["id"] not in {e["id"] for e in listed}
    assert listed[0]["occurrence_start"] == "2026-12-01 10:00:00"
    assert listed[0]["recurrence_text"] == "Weekly on Tuesday, 10 times"
    assert api.get(f"{NS}/events").headers["X-TEC-Total"] == "10"
    one = api.get(f"{NS}/events/{listed[3]['id']}").json()
    assert (one["start_date"], one["series_id"]) == ("2026-12-22 10:00:00", series["id"])
    assert [e["slug"] for e in listed[:2]] == ["yoga-2026-12-01", "yoga-2026-12-08"]


def test_two_occurrences_on_one_day_are_told_apart_by_their_time(api: Api) -> None:
    create(api, recurrence=["RRULE:FREQ=WEEKLY;COUNT=2", "RDATE:20261201T150000"])
    slugs = [e["slug"] for e in occurrences(api)]
    assert slugs == ["yoga-2026-12-01-1000", "yoga-2026-12-01-1500", "yoga-2026-12-08"]


def test_occurrences_keep_their_wall_clock_time_across_daylight_saving(api: Api) -> None:
    create(api, start_date="2027-03-02 10:00:00", end_date="2027-03-02 11:00:00")
    listed = occurrences(api)
    assert {e["start_date"][11:] for e in listed} == {"10:00:00"}
    march = [e for e in listed if e["start_date"].startswith("2027-03-30")]
    assert march[0]["utc_start_date"] == "2027-03-30 08:00:00"  # CEST
    assert listed[0]["utc_start_date"] == "2027-03-02 09:00:00"  # CET


def test_the_series_reads_as_its_first_upcoming_occurrence(api: Api, clock: Any) -> None:
    from datetime import timedelta

    series = create(api)
    clock.now += timedelta(days=20)  # past the first two classes (1 and 8 December)
    shown = api.get(f"{NS}/events/{series['id']}").json()
    assert (shown["id"], shown["start_date"]) == (series["id"], "2026-12-15 10:00:00")
    assert api.get(f"{NS}/events/by-slug/yoga").json()["id"] == series["id"]


def test_an_edit_of_the_series_reaches_every_occurrence_and_keeps_their_ids(api: Api) -> None:
    series = create(api)
    before = [e["id"] for e in occurrences(api)]
    updated = api.patch(f"{NS}/events/{series['id']}", json={"title": "Yin yoga"})
    assert updated.status_code == 200, updated.text
    after = occurrences(api)
    assert [e["id"] for e in after] == before
    assert {e["title"] for e in after} == {"Yin yoga"}
    longer = api.patch(
        f"{NS}/events/{series['id']}", json={"recurrence": ["RRULE:FREQ=WEEKLY;COUNT=12"]}
    )
    assert longer.status_code == 200, longer.text
    assert [e["id"] for e in occurrences(api)][:10] == before
    assert len(occurrences(api)) == 12


def test_an_occurrence_changed_alone_keeps_its_change_through_series_edits(api: Api) -> None:
    series = create(api)
    third = occurrences(api)[2]
    moved = api.patch(
        f"{NS}/events/{third['id']}",
        json={
            "title": "Yoga outdoors",
            "start_date": "2026-12-16 09:00:00",
            "end_date": "2026-12-16 10:00:00",
        },
    )
    assert moved.status_code == 200, moved.text
    assert moved.json()["occurrence_start"] == "2026-12-15 10:00:00"  # its identity stays
    api.patch(f"{NS}/events/{series['id']}", json={"title": "Evening yoga", "cost": "12"})
    listed = {e["id"]: e for e in occurrences(api)}
    assert listed[third["id"]]["title"] == "Yoga outdoors"
    assert listed[third["id"]]["start_date"] == "2026-12-16 09:00:00"
    assert listed[third["id"]]["cost"] == "$12"  # not overridden: follows the series
    assert {e["title"] for i, e in listed.items() if i != third["id"]} == {"Evening yoga"}


def test_cancelling_one_occurrence_adds_an_exdate(api: Api) -> None:
    series = create(api)
    second = occurrences(api)[1]
    deleted = api.delete(f"{NS}/events/{second['id']}")
    assert deleted.status_code == 200, deleted.text
    assert [e["id"] for e in occurrences(api)].count(second["id"]) == 0
    assert len(occurrences(api)) == 9
    rule = api.get(f"{NS}/events/{series['id']}").json()["recurrence"]
    assert rule == ["RRULE:FREQ=WEEKLY;COUNT=10", "EXDATE;TZID=Europe/Berlin:20261208T100000"]
    assert api.get(f"{NS}/events/{second['id']}").status_code == 404


def test_this_and_following_splits_the_series_and_keeps_ids(api: Api) -> None:
    series = create(api)
    before = occurrences(api)
    sixth = before[5]
    split = api.patch(
        f"{NS}/events/{sixth['id']}?scope=following", json={"title": "Yoga (new teacher)"}
    )
    assert split.status_code == 200, split.text
    new_series = split.json()["series_id"]
    assert new_series not in (series["id"], None)
    after = occurrences(api)
    assert [e["id"] for e in after] == [e["id"] for e in before]
    assert [e["title"] for e in after] == ["Yoga"] * 5 + ["Yoga (new teacher)"] * 5
    assert {e["series_id"] for e in after[5:]} == {new_series}
    old_rule = api.get(f"{NS}/events/{series['id']}").json()["recurrence"]
    assert old_rule == ["RRULE:FREQ=WEEKLY;UNTIL=20270105T085959Z"]
    assert api.get(f"{NS}/events/{new_series}").json()["recurrence"] == [
        "RRULE:FREQ=WEEKLY;COUNT=5"
    ]


def test_an_empty_rule_ends_a_series_into_one_event(api: Api) -> None:
    series = create(api)
    ended = api.patch(f"{NS}/events/{series['id']}", json={"recurrence": []})
    assert ended.status_code == 200, ended.text
    assert ended.json()["recurrence"] == [] and ended.json()["series_id"] is None
    listed = occurrences(api)
    assert [e["id"] for e in listed] == [series["id"]]


def test_collapse_recurring_shows_each_series_once(api: Api) -> None:
    create(api)
    single = api.post(f"{NS}/events", json={"title": "Talk", **FIRST}).json()
    collapsed = api.get(f"{NS}/events?collapse_recurring=true").json()
    assert [e["title"] for e in collapsed["events"]] == ["Yoga", "Talk"]
    assert collapsed["total"] == 2
    assert single["id"] in {e["id"] for e in collapsed["events"]}


def test_a_series_occurrences_are_listed_under_it(api: Api) -> None:
    series = create(api)
    page = api.get(f"{NS}/events/{series['id']}/occurrences?per_page=4&page=2")
    assert page.status_code == 200, page.text
    body = page.json()
    assert [e["start_date"][:10] for e in body["events"]] == [
        "2026-12-29",
        "2027-01-05",
        "2027-01-12",
        "2027-01-19",
    ]
    assert body["total"] == 10
    assert f"/events/{series['id']}/occurrences/?" in body["next_rest_url"]
    single = api.post(f"{NS}/events", json={"title": "Talk", **FIRST}).json()
    assert api.get(f"{NS}/events/{single['id']}/occurrences").status_code == 400


def test_bad_rules_are_refused_naming_recurrence(api: Api) -> None:
    for rule, message in (
        (["RRULE:FREQ=SECONDLY"], "FREQ=SECONDLY"),
        (["RRULE:FREQ=WEEKLY;COUNT=0"], "COUNT"),
        (["RRULE:FREQ=WEEKLY;UNTIL=20260101T000000Z"], "UNTIL"),
        (["RRULE:FREQ=WEEKLY", "EXDATE;TZID=Mars/Base:20261208T100000"], "Mars/Base"),
        (["garbage"], "garbage"),
        ({"not": "lines"}, "RFC 5545"),
    ):
        response = api.post(f"{NS}/events", json={"title": "Bad", **FIRST, "recurrence": rule})
        assert response.status_code == 400, (rule, response.text)
        assert list(response.json()["data"]["params"]) == ["recurrence"], response.text
        assert message in response.json()["data"]["params"]["recurrence"], response.text
    assert api.get(f"{NS}/events").json()["total"] == 0


def test_the_scheduler_extends_series_without_an_end_as_time_passes(api: Api, clock: Any) -> None:
    from datetime import timedelta

    from eventcal.collections import REGISTRY
    from eventcal.resources import scheduling

    series = create(api, recurrence=["RRULE:FREQ=WEEKLY"])
    site = api.client.app.state.runtime.site  # type: ignore[attr-defined]

    def last_start() -> str:
        page = api.get(f"{NS}/events/{series['id']}/occurrences?end_date=2099-01-01&per_page=50")
        total = page.json()["total"]
        last = api.get(
            f"{NS}/events/{series['id']}/occurrences?end_date=2099-01-01&per_page=1&page={total}"
        ).json()["events"][0]
        return str(last["start_date"])

    assert last_start() == "2028-11-21 10:00:00"  # 24 months ahead of 2026-11-22
    api.run(lambda: scheduling.run(api.database, REGISTRY, site, clock.now))
    assert last_start() == "2028-11-21 10:00:00"  # nothing due yet: nothing written
    clock.now += timedelta(days=60)
    api.run(lambda: scheduling.run(api.database, REGISTRY, site, clock.now))
    assert last_start() == "2029-01-16 10:00:00"


def test_occurrences_link_the_series_categories_and_tags_once_each(api: Api) -> None:
    """Categories and tags share one link table: each occurrence gets each term once, every
    term counts each occurrence once (through creation, a shorter rule, a removed term), and
    the term's own read (cached before) shows its count at once."""
    api.user("administrator")
    category = api.post(f"{NS}/categories", json={"name": "Sport"}).json()["id"]
    tag = api.post(f"{NS}/tags", json={"name": "morning"}).json()["id"]

    def counts() -> tuple[int, int]:
        return tuple(
            api.get(f"{NS}/{kind}/{term}").json()["count"]
            for kind, term in (("categories", category), ("tags", tag))
        )

    assert counts() == (0, 0)
    series = create(api, categories=[category], tags=[tag])
    listed = occurrences(api)
    assert len(listed) == 10
    assert all([c["id"] for c in e["categories"]] == [category] for e in listed)
    assert all([t["id"] for t in e["tags"]] == [tag] for e in listed)
    assert counts() == (10, 10)
    assert len(occurrences(api, f"&categories={category}&tags={tag}")) == 10
    shorter = {"recurrence": ["RRULE:FREQ=WEEKLY;COUNT=5"]}
    assert api.patch(f"{NS}/events/{series['id']}", json=shorter).status_code == 200
    assert counts() == (5, 5)
    assert api.patch(f"{NS}/events/{series['id']}", json={"tags": []}).status_code == 200
    assert counts() == (5, 0)
    assert all(e["tags"] == [] and len(e["categories"]) == 1 for e in occurrences(api))
    both = {"categories": [], "tags": [tag]}  # both relations of the one link table at once
    assert api.patch(f"{NS}/events/{series['id']}", json=both).status_code == 200
    assert counts() == (0, 5)

"""An occurrence changed alone (``scope=this``) can do everything a single event can: its own
translations, categories, tags, venue, organizers, password, featured; and keeps them when the
series is edited later, while term counts stay equal to the links."""

from __future__ import annotations

from typing import Any

from tests import factories
from tests.conftest import NS, Api

FIRST = {"start_date": "2026-12-01 10:00:00", "end_date": "2026-12-01 11:30:00"}


def create(api: Api, **fields: Any) -> dict[str, Any]:
    body = {
        "title": "Yoga",
        **FIRST,
        "timezone": "Europe/Berlin",
        "recurrence": ["RRULE:FREQ=WEEKLY;COUNT=4"],
        **fields,
    }
    response = api.post(f"{NS}/events", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def listed(api: Api, query: str = "", as_: str | None = None) -> list[dict[str, Any]]:
    response = api.get(f"{NS}/events?per_page=50{query}", as_=as_)
    assert response.status_code == 200, response.text
    events: list[dict[str, Any]] = response.json()["events"]
    return events


def test_an_occurrence_has_its_own_translation(api: Api) -> None:
    series = create(api)
    german = api.patch(
        f"{NS}/events/{series['id']}?translation_language=de", json={"title": "Joga"}
    )
    assert german.status_code == 200, german.text
    third = listed(api)[2]
    own = api.patch(
        f"{NS}/events/{third['id']}?translation_language=de&scope=this",
        json={"title": "Joga im Park"},
    )
    assert own.status_code == 200, own.text
    assert [e["title"] for e in listed(api, "&translation_language=de")] == [
        "Joga",
        "Joga",
        "Joga im Park",
        "Joga",
    ]
    assert {e["title"] for e in listed(api)} == {"Yoga"}  # English untouched
    # Later German edits of the series leave the occurrence's own German title alone.
    api.patch(f"{NS}/events/{series['id']}?translation_language=de", json={"title": "Abendjoga"})
    assert [e["title"] for e in listed(api, "&translation_language=de")] == [
        "Abendjoga",
        "Abendjoga",
        "Joga im Park",
        "Abendjoga",
    ]
    assert api.get(f"{NS}/events/{third['id']}").json()["translations"] == ["en", "de"]


def test_an_occurrence_takes_every_field_a_single_event_takes(api: Api) -> None:
    yoga = api.run(lambda: factories.make_term(api.database, "Yoga"))
    outdoor = api.run(lambda: factories.make_term(api.database, "Outdoor"))
    hall = api.run(lambda: factories.make_venue(api.database, "Hall"))
    park = api.run(lambda: factories.make_venue(api.database, "Park"))
    jane = api.run(lambda: factories.make_organizer(api.database, "Jane"))
    joe = api.run(lambda: factories.make_organizer(api.database, "Joe"))
    series = create(api, categories=[yoga], tags=["calm"], venue=hall, organizer=[jane])
    second = listed(api)[1]
    changed = api.patch(
        f"{NS}/events/{second['id']}?scope=this",
        json={
            "categories": [outdoor],
            "tags": ["sunny"],
            "venue": park,
            "organizer": [joe],
            "featured": True,
            "password": "secret",
        },
    )
    assert changed.status_code == 200, changed.text
    admin = {e["id"]: e for e in listed(api, as_="administrator")}
    mine = admin[second["id"]]
    assert [c["id"] for c in mine["categories"]] == [outdoor]
    assert [t["name"] for t in mine["tags"]] == ["sunny"]
    assert (mine["venue"]["id"], [o["id"] for o in mine["organizer"]]) == (park, [joe])
    assert mine["featured"] is True
    others = [e for i, e in admin.items() if i != second["id"]]
    assert {e["venue"]["id"] for e in others} == {hall}
    assert {c["id"] for e in others for c in e["categories"]} == {yoga}
    assert [e["id"] for e in listed(api, "&featured=true")] == [second["id"]]
    assert [e["id"] for e in listed(api, f"&venue={park}")] == [second["id"]]
    assert [e["id"] for e in listed(api, f"&categories={outdoor}")] == [second["id"]]
    anonymous = api.get(f"{NS}/events/{second['id']}").json()
    assert anonymous["description"] == "" and anonymous["cost"] == ""  # protected
    unlocked = api.get(f"{NS}/events/{second['id']}?password=secret")
    assert unlocked.status_code == 200, unlocked.text
    counts = {t["id"]: t["count"] for t in api.get(f"{NS}/categories").json()["categories"]}
    assert (counts[yoga], counts[outdoor]) == (3, 1)
    # The series' next edit of the same relations leaves the occurrence's own alone.
    api.patch(f"{NS}/events/{series['id']}", json={"categories": [], "venue": 0, "title": "New"})
    admin = {e["id"]: e for e in listed(api, as_="administrator")}
    assert [c["id"] for c in admin[second["id"]]["categories"]] == [outdoor]
    assert admin[second["id"]]["venue"]["id"] == park
    assert {e["title"] for e in admin.values()} == {"New"}
    assert all(e["categories"] == [] for i, e in admin.items() if i != second["id"])
    counts = {t: api.get(f"{NS}/categories/{t}").json()["count"] for t in (yoga, outdoor)}
    assert (counts[yoga], counts[outdoor]) == (0, 1)

"""``search`` finds the occurrences of a series (they share its row of SQLite's search index,
migration 0015_search) and an occurrence's own text, exactly once each, with the right total,
after edits of the series, of one occurrence, a split and a cancelled occurrence."""

from __future__ import annotations

from typing import Any

from tests.conftest import NS, Api

FIRST = {"start_date": "2026-12-01 10:00:00", "end_date": "2026-12-01 11:30:00"}


def found(api: Api, words: str) -> list[str]:
    """Titles of the events a search lists, in order; the total must count exactly them."""
    response = api.get(f"{NS}/events", params={"search": words, "per_page": 50})
    assert response.status_code == 200, response.text
    events: list[dict[str, Any]] = response.json()["events"]
    assert int(response.headers["x-tec-total"]) == len(events)
    assert len({e["id"] for e in events}) == len(events)
    return [e["title"] for e in events]


def test_search_finds_occurrences_and_their_own_text(api: Api) -> None:
    body = {
        "title": "Sunset Yoga",
        "description": "Bring a mat.",
        **FIRST,
        "timezone": "Europe/Berlin",
        "recurrence": ["RRULE:FREQ=WEEKLY;COUNT=5"],
    }
    series = api.post(f"{NS}/events", json=body).json()
    single = api.post(
        f"{NS}/events",
        json={
            "title": "Yoga retreat",
            "start_date": "2026-12-02 09:00",
            "end_date": "2026-12-02 17:00",
        },
    ).json()
    assert found(api, "sunset") == ["Sunset Yoga"] * 5
    assert found(api, "yoga") == ["Sunset Yoga", "Yoga retreat"] + ["Sunset Yoga"] * 4
    assert found(api, "mat") == ["Sunset Yoga"] * 5

    occurrences = api.get(f"{NS}/events/{series['id']}/occurrences").json()["events"]
    second, third = occurrences[1]["id"], occurrences[2]["id"]
    # One occurrence with its own title: found by it, and by the series' description it keeps.
    moved = api.patch(f"{NS}/events/{second}?scope=this", json={"title": "Sunrise Pilates"})
    assert moved.status_code == 200, moved.text
    assert found(api, "sunset") == ["Sunset Yoga"] * 4
    assert found(api, "pilates") == ["Sunrise Pilates"]
    assert found(api, "mat") == ["Sunset Yoga", "Sunrise Pilates"] + ["Sunset Yoga"] * 3
    # An edit of the series reaches the others; the occurrence keeps its own title.
    api.patch(
        f"{NS}/events/{series['id']}",
        json={"title": "Evening Stretch", "description": "Mats lent."},
    )
    assert found(api, "sunset") == []
    assert found(api, "stretch") == ["Evening Stretch"] * 4
    assert found(api, "pilates") == ["Sunrise Pilates"]
    assert (
        found(api, "mats lent") == ["Evening Stretch", "Sunrise Pilates"] + ["Evening Stretch"] * 3
    )
    # Its own title set back to the series': found once, as the others.
    api.patch(f"{NS}/events/{second}?scope=this", json={"title": "Evening Stretch"})
    assert found(api, "stretch") == ["Evening Stretch"] * 5
    # A cancelled occurrence is gone; a split gives the rest a series of their own.
    api.delete(f"{NS}/events/{third}?scope=this")
    assert found(api, "stretch") == ["Evening Stretch"] * 4
    fourth = occurrences[3]["id"]
    split = api.patch(f"{NS}/events/{fourth}?scope=following", json={"title": "Late Stretch"})
    assert split.status_code == 200, split.text
    assert found(api, "stretch") == ["Evening Stretch"] * 2 + ["Late Stretch"] * 2
    assert found(api, "late stretch") == ["Late Stretch"] * 2
    api.delete(f"{NS}/events/{single['id']}")
    assert found(api, "yoga") == []

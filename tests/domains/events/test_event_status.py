"""Event status and attendance: writable, filterable, translated reason, JSON-LD (issue 17)."""

from __future__ import annotations

from typing import Any

from tests.conftest import NS, Api

WHEN = {"start_date": "2026-12-10 19:00:00", "end_date": "2026-12-10 21:00:00"}


def create(api: Api, title: str, **fields: Any) -> dict[str, Any]:
    response = api.post(f"{NS}/events", json={"title": title, **WHEN, **fields})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def test_events_are_scheduled_and_attended_in_person_unless_told_otherwise(api: Api) -> None:
    body = create(api, "Plain")
    assert (body["event_status"], body["status_reason"]) == ("scheduled", "")
    assert (body["attendance_mode"], body["online_url"]) == ("offline", "")
    ld = api.get(f"{NS}/events/{body['id']}").json()["json_ld"]
    assert ld["eventStatus"] == "https://schema.org/EventScheduled"
    assert ld["eventAttendanceMode"] == "https://schema.org/OfflineEventAttendanceMode"


def test_a_cancelled_event_says_why_in_every_language_and_stays_listed(api: Api) -> None:
    event = create(api, "Gala", event_status="cancelled", status_reason="The singer is ill")
    german = api.post(
        f"{NS}/events/{event['id']}?translation_language=de",
        json={"status_reason": "Die Sängerin ist krank"},
    ).json()
    assert german["status_reason"] == "Die Sängerin ist krank"
    assert api.get(f"{NS}/events/{event['id']}").json()["status_reason"] == "The singer is ill"
    spanish = api.get(f"{NS}/events/{event['id']}?translation_language=es").json()
    assert spanish["status_reason"] == "The singer is ill"
    listed = api.get(f"{NS}/events").json()["events"]
    assert [(e["id"], e["event_status"]) for e in listed] == [(event["id"], "cancelled")]
    ld = api.get(f"{NS}/events/{event['id']}").json()["json_ld"]
    assert ld["eventStatus"] == "https://schema.org/EventCancelled"


def test_status_and_attendance_filter_the_listing_and_its_links_carry_them(api: Api) -> None:
    scheduled = create(api, "On")
    moved = create(api, "Moved", event_status="moved-online", attendance_mode="online")
    postponed = create(api, "Later", event_status="postponed")
    response = api.get(f"{NS}/events?event_status=moved-online,postponed")
    assert [e["id"] for e in response.json()["events"]] == [moved["id"], postponed["id"]]
    assert response.headers["X-TEC-Total"] == "2"
    assert "event_status=moved-online%2Cpostponed" in response.json()["rest_url"]
    online = api.get(f"{NS}/events?attendance_mode=online").json()["events"]
    assert [e["id"] for e in online] == [moved["id"]]
    offline = api.get(f"{NS}/events?attendance_mode=offline").json()["events"]
    assert [e["id"] for e in offline] == [scheduled["id"], postponed["id"]]


def test_unknown_statuses_and_modes_are_refused_naming_the_parameter(api: Api) -> None:
    bad = api.post(f"{NS}/events", json={"title": "X", **WHEN, "event_status": "maybe"})
    assert bad.status_code == 400
    assert bad.json()["data"]["params"] == {
        "event_status": "event_status is not one of scheduled, cancelled, postponed, "
        "rescheduled, moved-online."
    }
    assert api.get(f"{NS}/events?attendance_mode=hybrid").status_code == 400
    assert api.get(f"{NS}/events").json()["total"] == 0  # nothing was written


def test_online_and_mixed_events_name_their_virtual_location(api: Api) -> None:
    venue = api.post(f"{NS}/venues", json={"venue": "Hall", "city": "Berlin"}).json()
    online = create(
        api, "Stream", attendance_mode="online", online_url="https://stream.example.org/a"
    )
    mixed = create(
        api,
        "Both",
        attendance_mode="mixed",
        online_url="https://stream.example.org/b",
        venue=venue["id"],
    )
    ld = api.get(f"{NS}/events/{online['id']}").json()["json_ld"]
    assert ld["eventAttendanceMode"] == "https://schema.org/OnlineEventAttendanceMode"
    assert ld["location"] == {"@type": "VirtualLocation", "url": "https://stream.example.org/a"}
    both = api.get(f"{NS}/events/{mixed['id']}").json()["json_ld"]["location"]
    assert [place["@type"] for place in both] == ["Place", "VirtualLocation"]
    assert (
        api.post(f"{NS}/events", json={**WHEN, "title": "x", "online_url": "ftp://x"}).status_code
        == 400
    )


def test_a_protected_event_keeps_its_reason_and_address_for_callers_with_its_password(
    api: Api,
) -> None:
    event = create(
        api,
        "Members",
        post_password="secret",
        event_status="rescheduled",
        status_reason="New room",
        attendance_mode="mixed",
        online_url="https://stream.example.org/members",
    )
    listed = api.get(f"{NS}/events", as_="subscriber").json()["events"][0]
    assert (listed["event_status"], listed["attendance_mode"]) == ("rescheduled", "mixed")
    assert (listed["status_reason"], listed["online_url"]) == ("", "")
    shown = api.get(f"{NS}/events/{event['id']}?password=secret").json()
    assert shown["online_url"] == "https://stream.example.org/members"
    assert shown["status_reason"] == "New room"

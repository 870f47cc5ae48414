"""Updating and trashing events: ``POST|PUT|PATCH|DELETE /events/{id}`` and by slug
(spec events §5–6; DEVIATIONS #1, #2, #3, #16, #20)."""

from __future__ import annotations

from typing import Any

import pytest

from tests import factories
from tests.conftest import NS, Api
from tests.domains.events.creating_helpers import MINIMAL, create, term_count


def target(api: Api) -> dict[str, Any]:
    """The recordings' "Update Target": every presentation field set, terms, venue, organizer."""
    db = api.database
    concerts = api.run(lambda: factories.make_term(db, "Concerts"))
    jazz = api.run(lambda: factories.make_term(db, "jazz", taxonomy="post_tag"))
    hall = api.run(lambda: factories.make_venue(db, "Main Hall"))
    jane = api.run(lambda: factories.make_organizer(db, "Jane Org"))
    body = create(
        api,
        title="Update Target",
        start_date="2027-02-01 18:00:00",
        end_date="2027-02-01 20:00:00",
        featured=True,
        sticky=True,
        show_map=True,
        show_map_link=True,
        cost="$30",
        categories=[concerts],
        tags=[jazz],
        venue=hall,
        organizer=[jane],
        website="https://example.test/u",
        description="Body",
        excerpt="Short",
    ).json()
    body["_ids"] = {"concerts": concerts, "jazz": jazz, "hall": hall, "jane": jane}
    return dict(body)


def without_volatile(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k not in ("modified", "modified_utc", "_ids")}


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH"])
def test_updates_change_only_the_fields_sent(api: Api, method: str) -> None:
    before = target(api)
    response = api.request(
        method, f"{NS}/events/{before['id']}", json={"title": "Renamed"}, as_="administrator"
    )
    assert response.status_code == 200, response.text
    after = response.json()
    assert after["title"] == "Renamed"
    expected = {**without_volatile(before), "title": "Renamed"}
    assert without_volatile(after) == expected
    assert response.headers["allow"] == "GET, DELETE, POST, PUT, PATCH"


def test_empty_update_changes_nothing(api: Api) -> None:
    before = target(api)
    after = api.patch(f"{NS}/events/{before['id']}", json={}).json()
    assert without_volatile(after) == without_volatile(before)


def test_dates_and_time_zone(api: Api) -> None:
    event_id = target(api)["id"]
    moved = api.patch(
        f"{NS}/events/{event_id}",
        json={
            "start_date": "2027-02-02 18:00:00",
            "end_date": "2027-02-02 21:00:00",
            "timezone": "America/New_York",
        },
    ).json()
    assert (moved["start_date"], moved["utc_start_date"]) == (
        "2027-02-02 18:00:00",
        "2027-02-02 23:00:00",
    )
    assert (moved["timezone"], moved["timezone_abbr"]) == ("America/New_York", "EST")
    zone_only = api.patch(f"{NS}/events/{event_id}", json={"timezone": "Europe/Berlin"}).json()
    assert zone_only["start_date"] == "2027-02-02 18:00:00"
    assert zone_only["utc_start_date"] == "2027-02-02 17:00:00"
    start_only = api.patch(
        f"{NS}/events/{event_id}", json={"start_date": "2027-02-02 19:00:00"}
    ).json()
    assert (start_only["start_date"], start_only["end_date"]) == (
        "2027-02-02 19:00:00",
        "2027-02-02 21:00:00",
    )
    after_end = api.patch(f"{NS}/events/{event_id}", json={"start_date": "2027-02-03 10:00:00"})
    assert after_end.status_code == 400
    assert list(after_end.json()["data"]["params"]) == ["end_date"]
    backwards = api.patch(
        f"{NS}/events/{event_id}",
        json={"start_date": "2027-02-05 12:00:00", "end_date": "2027-02-04 12:00:00"},
    )
    assert backwards.status_code == 400
    assert api.get(f"{NS}/events/{event_id}").json()["start_date"] == "2027-02-02 19:00:00"
    all_day = api.patch(f"{NS}/events/{event_id}", json={"all_day": True}).json()
    assert (all_day["start_date"], all_day["end_date"]) == (
        "2027-02-02 00:00:00",
        "2027-02-02 23:59:59",
    )
    assert all_day["all_day"] is True
    not_all_day = api.patch(f"{NS}/events/{event_id}", json={"all_day": False}).json()
    assert not_all_day["all_day"] is False


def test_terms_replace_and_clear(api: Api) -> None:
    before = target(api)
    ids = before["_ids"]
    festivals = api.run(lambda: factories.make_term(api.database, "Festivals"))
    added = api.patch(
        f"{NS}/events/{before['id']}", json={"categories": [festivals, "concerts"]}
    ).json()
    assert [c["id"] for c in added["categories"]] == [ids["concerts"], festivals]
    assert [t["id"] for t in added["tags"]] == [ids["jazz"]]
    assert term_count(api, festivals) == 1
    cleared = api.patch(f"{NS}/events/{before['id']}", json={"categories": [], "tags": ""}).json()
    assert cleared["categories"] == [] and cleared["tags"] == []
    assert term_count(api, festivals) == 0 and term_count(api, ids["jazz"]) == 0


def test_venue_and_organizers_replace_and_clear(api: Api) -> None:
    before = target(api)
    loft = api.run(lambda: factories.make_venue(api.database, "Loft"))
    joe = api.run(lambda: factories.make_organizer(api.database, "Joe"))
    changed = api.patch(
        f"{NS}/events/{before['id']}",
        json={"venue": loft, "organizer": [joe, before["_ids"]["jane"]]},
    ).json()
    assert changed["venue"]["id"] == loft
    assert [o["id"] for o in changed["organizer"]] == [joe, before["_ids"]["jane"]]
    cleared = api.patch(f"{NS}/events/{before['id']}", json={"venue": [], "organizer": []}).json()
    assert cleared["venue"] == [] and cleared["organizer"] == []
    form = api.patch(
        f"{NS}/events/{before['id']}",
        content=f"venue={loft}&organizer={joe}",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    ).json()
    assert form["venue"]["id"] == loft
    form_cleared = api.patch(
        f"{NS}/events/{before['id']}",
        content="venue=&organizer=",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    ).json()
    assert form_cleared["venue"] == [] and form_cleared["organizer"] == []


def test_clearing_text_fields_cost_website_and_image(api: Api) -> None:
    before = target(api)
    image = api.run(lambda: factories.make_media(api.database, "https://cdn.example.test/x.png"))
    with_image = api.patch(f"{NS}/events/{before['id']}", json={"image": image}).json()
    assert with_image["image"]["id"] == image
    cleared = api.patch(
        f"{NS}/events/{before['id']}",
        json={"description": "", "excerpt": "", "cost": "", "website": "", "image": ""},
    ).json()
    assert (cleared["description"], cleared["excerpt"], cleared["cost"]) == ("", "", "")
    assert cleared["website"] == ""
    assert cleared["image"] is False
    assert cleared["cost_details"]["currency_symbol"] == ""


def test_status_changes_slugs_and_counts(api: Api) -> None:
    before = target(api)
    concerts = before["_ids"]["concerts"]
    assert term_count(api, concerts) == 1
    draft = api.patch(f"{NS}/events/{before['id']}", json={"status": "draft"}).json()
    assert draft["status"] == "draft"
    assert draft["url"] == f"http://127.0.0.1/?post_type=tribe_events&p={before['id']}"
    assert term_count(api, concerts) == 0
    published = api.patch(f"{NS}/events/{before['id']}", json={"status": "publish"}).json()
    assert (published["status"], published["slug"]) == ("publish", "update-target")
    assert term_count(api, concerts) == 1


def test_duplicate_slug_on_update_gets_a_number(api: Api) -> None:
    create(api, title="Minimal Event")
    event_id = target(api)["id"]
    body = api.patch(f"{NS}/events/{event_id}", json={"slug": "minimal-event"}).json()
    assert body["slug"] == "minimal-event-2"
    assert body["url"] == "http://127.0.0.1/event/minimal-event-2/"


def test_update_errors(api: Api) -> None:
    event_id = target(api)["id"]
    venue = api.run(lambda: factories.make_venue(api.database, "V"))
    unknown = api.patch(f"{NS}/events/99999", json={"title": "Ghost"})
    assert unknown.status_code == 404
    assert unknown.json()["message"] == "Event with ID 99999 does not exist."
    wrong_kind = api.patch(f"{NS}/events/{venue}", json={"title": "Not an event"})
    assert wrong_kind.json()["code"] == "rest-invalid-event-id"
    bad = api.patch(f"{NS}/events/{event_id}", json={"timezone": "Invalid/Zone", "title": ""})
    assert bad.status_code == 400
    assert bad.json()["message"] == "Invalid parameter(s): title, timezone"
    assert api.patch(f"{NS}/events/{event_id}", json={"title": "A"}, as_=None).status_code == 401
    assert api.patch(f"{NS}/events/99999", json={"title": "A"}, as_=None).status_code == 401
    assert (
        api.patch(f"{NS}/events/{event_id}", json={"title": "A"}, as_="subscriber").status_code
        == 403
    )
    assert api.get(f"{NS}/events/{event_id}").json()["title"] == "Update Target"


def test_path_id_is_never_overridden_by_the_body(api: Api) -> None:
    first = create(api, title="First").json()
    second = create(api, title="Second").json()
    response = api.patch(
        f"{NS}/events/{first['id']}", json={"id": second["id"], "title": "Changed"}
    )
    assert response.json()["id"] == first["id"]
    assert api.get(f"{NS}/events/{second['id']}").json()["title"] == "Second"


def test_per_item_permissions(api: Api) -> None:
    contributor = api.user("contributor")
    admin_event = target(api)["id"]
    own_draft = api.run(
        lambda: factories.make_event(api.database, "Mine", status="draft", author_id=contributor)
    )
    own_published = api.run(
        lambda: factories.make_event(api.database, "Mine too", author_id=contributor)
    )
    assert (
        api.patch(f"{NS}/events/{admin_event}", json={"title": "x"}, as_="contributor").status_code
        == 403
    )
    assert (
        api.patch(
            f"{NS}/events/{own_published}", json={"title": "x"}, as_="contributor"
        ).status_code
        == 403
    )
    own = api.patch(
        f"{NS}/events/{own_draft}", json={"title": "Edited", "status": "publish"}, as_="contributor"
    )
    assert own.status_code == 200
    assert own.json()["status"] == "pending"
    assert (
        api.patch(f"{NS}/events/{admin_event}", json={"title": "y"}, as_="editor").status_code
        == 200
    )
    assert (
        api.patch(f"{NS}/events/{admin_event}", json={"title": "z"}, as_="author").status_code
        == 403
    )


def test_post_password_can_be_set_and_removed(api: Api) -> None:
    event_id = target(api)["id"]
    api.patch(f"{NS}/events/{event_id}", json={"post_password": "pw"})
    assert api.get(f"{NS}/events/{event_id}").json()["code"] == "event-password-protected"
    assert api.get(f"{NS}/events/{event_id}?password=pw").status_code == 200
    api.patch(f"{NS}/events/{event_id}", json={"post_password": ""})
    assert api.get(f"{NS}/events/{event_id}").status_code == 200


def test_trash_then_trash_again_is_410(api: Api) -> None:
    before = target(api)
    concerts = before["_ids"]["concerts"]
    response = api.delete(f"{NS}/events/{before['id']}")
    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["slug"]) == ("trash", "update-target__trashed")
    assert body["url"] == f"http://127.0.0.1/?post_type=tribe_events&p={before['id']}"
    assert term_count(api, concerts) == 0
    again = api.delete(f"{NS}/events/{before['id']}")
    assert again.status_code == 410
    assert again.json() == {
        "code": "event-is-in-trash",
        "message": "The event is already trashed",
        "data": {"status": 410},
    }
    assert api.get(f"{NS}/events/{before['id']}").json()["code"] == "event-no-longer-available"
    assert create(api, title="Update Target").json()["slug"] == "update-target"


def test_updating_a_trashed_event_keeps_it_in_the_trash_unless_status_is_sent(api: Api) -> None:
    event_id = create(api, title="Delete Me").json()["id"]
    api.delete(f"{NS}/events/{event_id}")
    edited = api.patch(f"{NS}/events/{event_id}", json={"title": "Edited in trash"}).json()
    assert (edited["status"], edited["title"]) == ("trash", "Edited in trash")
    restored = api.patch(f"{NS}/events/{event_id}", json={"status": "publish"}).json()
    assert (restored["status"], restored["slug"]) == ("publish", "delete-me")


def test_delete_errors_and_permissions(api: Api) -> None:
    contributor = api.user("contributor")
    venue = api.run(lambda: factories.make_venue(api.database, "V"))
    admin_event = create(api).json()["id"]
    own_draft = api.run(
        lambda: factories.make_event(api.database, "D", status="draft", author_id=contributor)
    )
    own_published = api.run(lambda: factories.make_event(api.database, "P", author_id=contributor))
    assert api.delete(f"{NS}/events/99999").status_code == 404
    assert api.delete(f"{NS}/events/{venue}").json()["code"] == "rest-invalid-event-id"
    assert api.delete(f"{NS}/events/{admin_event}", as_=None).status_code == 401
    assert api.delete(f"{NS}/events/99999", as_=None).status_code == 401
    assert api.delete(f"{NS}/events/{admin_event}", as_="contributor").status_code == 403
    assert api.delete(f"{NS}/events/{own_published}", as_="contributor").status_code == 403
    assert api.delete(f"{NS}/events/{own_draft}", as_="contributor").status_code == 200


@pytest.mark.parametrize("how", ["header", "query"])
def test_method_override_on_post(api: Api, how: str) -> None:
    event_id = create(api).json()["id"]
    if how == "header":
        response = api.post(f"{NS}/events/{event_id}", headers={"X-HTTP-Method-Override": "DELETE"})
    else:
        response = api.post(f"{NS}/events/{event_id}?_method=DELETE")
    assert response.status_code == 200
    assert response.json()["status"] == "trash"


def test_by_slug_update_renames_and_checks_the_item(api: Api) -> None:
    contributor = api.user("contributor")
    create(api, title="Slug Target", slug="slug-target")
    excerpt = api.post(f"{NS}/events/by-slug/slug-target", json={"excerpt": "By slug"}).json()
    assert excerpt["excerpt"] == "<p>By slug</p>"
    renamed = api.patch(f"{NS}/events/by-slug/slug-target", json={"slug": "slug-target-renamed"})
    assert renamed.status_code == 200
    assert renamed.json()["slug"] == "slug-target-renamed"
    assert api.get(f"{NS}/events/by-slug/slug-target-renamed").status_code == 200
    unknown = api.put(f"{NS}/events/by-slug/no-such-event", json={"title": "Ghost"})
    assert unknown.status_code == 404
    assert unknown.json()["message"] == "Event with ID 0 does not exist."
    assert (
        api.put(f"{NS}/events/by-slug/no-such-event", json={"title": "G"}, as_=None).status_code
        == 401
    )
    assert contributor
    forbidden = api.patch(
        f"{NS}/events/by-slug/slug-target-renamed", json={"title": "x"}, as_="contributor"
    )
    assert forbidden.status_code == 403


def test_by_slug_delete(api: Api) -> None:
    create(api, title="Slug Target", slug="slug-target")
    assert api.delete(f"{NS}/events/by-slug/slug-target", as_=None).status_code == 401
    assert api.delete(f"{NS}/events/by-slug/slug-target", as_="contributor").status_code == 403
    body = api.delete(f"{NS}/events/by-slug/slug-target").json()
    assert (body["status"], body["slug"]) == ("trash", "slug-target__trashed")
    again = api.delete(f"{NS}/events/by-slug/slug-target")
    assert again.status_code == 400
    assert again.json()["data"]["params"] == {"slug": "Invalid parameter."}
    trashed = api.delete(f"{NS}/events/by-slug/slug-target__trashed")
    assert trashed.status_code == 410


def test_failed_write_leaves_nothing_behind(api: Api) -> None:
    """An author may create categories but not tags: the category made while resolving
    ``categories`` must vanish when ``tags`` then fails (one transaction per request)."""
    before = target(api)
    refused = api.patch(
        f"{NS}/events/{before['id']}",
        json={"categories": ["Made Then Undone"], "tags": ["Not Allowed"]},
        as_="administrator",
    )
    assert refused.status_code == 200
    response = api.post(
        f"{NS}/events",
        json={**MINIMAL, "categories": ["Rolled Back"], "tags": ["Author May Not"]},
        as_="author",
    )
    assert response.status_code == 400
    assert list(response.json()["data"]["params"]) == ["tags"]
    assert api.get(f"{NS}/events?categories=rolled-back").status_code == 400
    assert api.get(f"{NS}/events?categories=made-then-undone").status_code == 200
    assert api.get(f"{NS}/events").json()["total"] == 1

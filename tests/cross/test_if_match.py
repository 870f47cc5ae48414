"""Optimistic concurrency (issue 7): every item response carries an ETag naming the item's
revision; a write with If-Match of an older revision is refused with 412 and changes nothing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.conftest import NS, Api


@dataclass(frozen=True)
class Collection:
    plural: str
    name: str
    payload: dict[str, Any]

    def path(self, suffix: str = "") -> str:
        return f"{NS}/{self.plural}{suffix}"


COLLECTIONS = [
    Collection(
        "events",
        "title",
        {"start_date": "2026-12-05 19:00:00", "end_date": "2026-12-05 22:00:00"},
    ),
    Collection("venues", "venue", {}),
    Collection("organizers", "organizer", {}),
    Collection("categories", "name", {}),
    Collection("tags", "name", {}),
]


IDS = [c.plural for c in COLLECTIONS]


def create(api: Api, c: Collection, name: str) -> tuple[int, str]:
    response = api.post(c.path(), json={**c.payload, c.name: name, "status": "publish"})
    assert response.status_code == 201, response.text
    return int(response.json()["id"]), response.headers["etag"]


def test_an_event_keeps_its_revision_when_what_it_shows_changes(api: Api) -> None:
    venue = api.post(f"{NS}/venues", json={"venue": "Hall", "status": "publish"}).json()["id"]
    event = api.post(
        f"{NS}/events",
        json={"title": "Night", "venue": venue, **COLLECTIONS[0].payload, "status": "publish"},
    ).json()["id"]
    before = api.get(f"{NS}/events/{event}").headers["etag"]
    api.post(f"{NS}/venues/{venue}", json={"venue": "Great Hall"})
    after = api.get(f"{NS}/events/{event}")
    assert after.headers["etag"] != before  # another body, so another tag for caches
    assert after.headers["etag"].split("-")[0] == before.split("-")[0]  # same revision
    update = api.patch(
        f"{NS}/events/{event}", json={"featured": True}, headers={"If-Match": before}
    )
    assert update.status_code == 200


def test_a_translation_is_a_new_revision(api: Api) -> None:
    event, tag = create(api, COLLECTIONS[0], "Harbour Night")
    api.post(f"{NS}/events/{event}?translation_language=de", json={"title": "Hafennacht"})
    stale = api.patch(f"{NS}/events/{event}", json={"title": "X"}, headers={"If-Match": tag})
    assert stale.status_code == 412


def test_permissions_come_before_the_precondition(api: Api) -> None:
    event, _ = create(api, COLLECTIONS[0], "Harbour Night")
    response = api.patch(
        f"{NS}/events/{event}", json={"title": "X"}, headers={"If-Match": '"r99-x"'}, as_=None
    )
    assert response.status_code == 401

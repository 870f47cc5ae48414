"""Who may upload, edit and delete; deleting an image in use; media writes in the change log;
images of events, venues and organizers by media id and by URL (both backends)."""

from __future__ import annotations

from typing import Any

import pytest

from eventcal.resources import changes
from tests.conftest import NS, Api
from tests.domains.media.library import MEDIA, image_bytes, path_of, raw_upload, uploaded

NEW_EVENT = {"title": "Gig", "start_date": "2027-01-01 10:00", "end_date": "2027-01-01 11:00"}
ITEMS = {
    "events": NEW_EVENT,
    "venues": {"venue": "Hall"},
    "organizers": {"organizer": "Crew"},
}


@pytest.mark.parametrize(
    ("role", "status"),
    [(None, 401), ("subscriber", 403), ("contributor", 403), ("author", 201), ("editor", 201)],
)
def test_uploading_needs_upload_files(api: Api, role: str | None, status: int) -> None:
    response = raw_upload(api, image_bytes(), as_=role)
    assert response.status_code == status, response.text
    if status != 201:
        assert response.json()["code"] == "rest_cannot_create"
        assert api.get(MEDIA).json()["total"] == 0


def test_authors_change_their_own_items_only(api: Api) -> None:
    mine = uploaded(api, as_="author")["id"]
    theirs = uploaded(api, as_="editor")["id"]
    assert api.patch(f"{MEDIA}/{mine}", json={"title": "Mine"}, as_="author").status_code == 200
    refused = api.patch(f"{MEDIA}/{theirs}", json={"title": "x"}, as_="author")
    assert refused.status_code == 403
    assert refused.json()["code"] == "rest_cannot_edit"
    assert api.get(f"{MEDIA}/{theirs}").json()["title"] == "poster"
    deleting = api.delete(f"{MEDIA}/{theirs}", as_="author")
    assert deleting.status_code == 403
    assert deleting.json()["code"] == "rest_cannot_delete"
    assert api.put(f"{MEDIA}/{theirs}", json={"caption": "ok"}, as_="editor").status_code == 200
    assert api.patch(f"{MEDIA}/{mine}", json={"title": "y"}, as_="contributor").status_code == 403
    assert api.delete(f"{MEDIA}/{mine}", as_="author").status_code == 200


def test_an_item_is_public_once_uploaded(api: Api) -> None:
    item = uploaded(api, as_="author")
    assert api.get(f"{MEDIA}/{item['id']}", as_=None).status_code == 200
    assert api.get(path_of(item["url"]), as_=None).status_code == 200


def _with_image(api: Api, collection: str, image: Any, as_: str = "administrator") -> Any:
    return api.post(f"{NS}/{collection}", json={**ITEMS[collection], "image": image}, as_=as_)


@pytest.mark.parametrize("collection", sorted(ITEMS))
def test_an_item_shows_an_uploaded_image_named_by_id_or_url(api: Api, collection: str) -> None:
    media = uploaded(api, image_bytes(2000, 1000, "JPEG"), content_type="image/jpeg")
    for value in (media["id"], str(media["id"]), media["url"]):
        response = _with_image(api, collection, value)
        assert response.status_code == 201, response.text
        image = response.json()["image"]
        assert image["id"] == media["id"]
        assert image["url"] == media["url"]
        assert (image["width"], image["height"]) == (2000, 1000)
        assert image["extension"] == "jpg"
        assert image["filesize"] == media["media_details"]["filesize"]
        assert image["sizes"] == media["media_details"]["sizes"]
        assert image["sizes"]["medium"]["mime-type"] == "image/jpeg"


@pytest.mark.parametrize("collection", sorted(ITEMS))
def test_a_contributor_may_name_a_media_id_but_not_a_url(api: Api, collection: str) -> None:
    media = uploaded(api)
    by_id = _with_image(api, collection, media["id"], as_="contributor")
    assert by_id.status_code == 201, by_id.text
    assert by_id.json()["image"]["id"] == media["id"]
    for url in (media["url"], "https://example.org/poster.jpg"):
        by_url = _with_image(api, collection, url, as_="contributor")
        assert by_url.status_code == 400
        assert by_url.json()["code"] == "rest_invalid_param"
        assert "image" in by_url.json()["data"]["params"]


def test_an_external_url_stays_and_unknown_ids_are_refused(api: Api) -> None:
    response = _with_image(api, "events", "https://example.org/poster.jpg")
    assert response.json()["image"] == {"url": "https://example.org/poster.jpg", "extension": "jpg"}
    event_id = response.json()["id"]
    for wrong in (event_id, 999_999):
        refused = _with_image(api, "venues", wrong)
        assert refused.status_code == 400
        assert refused.json()["code"] == "rest_invalid_param"


def test_a_delete_is_refused_while_items_show_the_image_unless_forced(api: Api) -> None:
    media = uploaded(api)
    event = _with_image(api, "events", media["id"]).json()["id"]
    venue = _with_image(api, "venues", media["id"]).json()["id"]
    refused = api.delete(f"{MEDIA}/{media['id']}")
    assert refused.status_code == 409
    body = refused.json()
    assert body["code"] == "rest_media_in_use"
    assert body["data"]["used_by"] == {"events": [event], "venues": [venue]}
    assert api.get(path_of(media["url"])).status_code == 200
    forced = api.delete(f"{MEDIA}/{media['id']}", params={"force": "true"})
    assert forced.status_code == 200, forced.text
    assert forced.json()["id"] == media["id"]
    assert api.get(f"{NS}/events/{event}").json()["image"] is False
    assert api.get(f"{NS}/venues/{venue}").json().get("image", False) is False
    assert api.get(f"{MEDIA}/{media['id']}").status_code in (400, 404)
    for size in [media["url"], *(s["url"] for s in media["media_details"]["sizes"].values())]:
        assert api.get(path_of(size)).status_code == 404


def test_no_bytes_are_left_behind_by_a_delete(api: Api) -> None:
    import sqlalchemy as sa

    from eventcal.storage.tables import media_file

    item = uploaded(api, image_bytes(1200, 900))
    other = uploaded(api, image_bytes(1200, 900))  # the same bytes: files of its own

    async def count() -> int:
        async with api.database.read() as conn:
            return int(await conn.scalar(sa.select(sa.func.count()).select_from(media_file)))

    assert api.run(count) == 8
    assert api.delete(f"{MEDIA}/{item['id']}").status_code == 200
    assert api.run(count) == 4
    assert api.get(path_of(other["url"])).status_code == 200


def test_media_writes_are_in_the_change_log(api: Api) -> None:
    async def recorded() -> list[tuple[str, int, str]]:
        async with api.database.read() as conn:
            rows = await changes.since(conn, 0)
        return [(r["kind"], r["item_id"], r["action"]) for r in rows if r["kind"] == "media"]

    item = uploaded(api)["id"]
    api.patch(f"{MEDIA}/{item}", json={"caption": "x"})
    api.post(f"{MEDIA}/{item}", json={"title": "Plakat", "translation_language": "de"})
    api.delete(f"{MEDIA}/{item}")
    assert api.run(recorded) == [
        ("media", item, "create"),
        ("media", item, "update"),
        ("media", item, "translate"),
        ("media", item, "update"),
        ("media", item, "delete"),
    ]

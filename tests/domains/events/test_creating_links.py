"""Creating events that link to images, terms, venues and organizers; term counts
(spec events §4)."""

from __future__ import annotations

from tests import factories
from tests.conftest import Api
from tests.domains.events.creating_helpers import create, event_rows, term_count


def test_images_by_id_or_url(api: Api) -> None:
    db = api.database
    image = api.run(lambda: factories.make_media(db, "https://cdn.example.test/poster.jpg"))
    document = api.run(
        lambda: factories.make_media(
            db, "https://cdn.example.test/file.raw", mime_type="application/octet-stream"
        )
    )
    assert create(api, image=image).json()["image"]["id"] == image
    by_url = create(api, title="U", image="https://cdn.example.test/poster.jpg").json()
    assert by_url["image"]["id"] == image
    external = create(api, title="E", image="https://elsewhere.test/a.webp?x=1").json()
    assert external["image"] == {"url": "https://elsewhere.test/a.webp?x=1", "extension": "webp"}
    assert create(api, title="D", image=document).status_code == 400
    contributor = create(api, as_="contributor", title="C", image="https://elsewhere.test/b.png")
    assert contributor.status_code == 400
    assert create(api, as_="contributor", title="C2", image=image).status_code == 201


def test_terms_by_id_slug_or_name(api: Api) -> None:
    db = api.database
    concerts = api.run(lambda: factories.make_term(db, "Concerts"))
    live = api.run(lambda: factories.make_term(db, "live", taxonomy="post_tag"))
    body = create(api, categories=["concerts"], tags=["LIVE", "Brand New Tag"]).json()
    assert [c["id"] for c in body["categories"]] == [concerts]
    assert [t["name"] for t in body["tags"]] == ["Brand New Tag", "live"]
    assert body["tags"][1]["id"] == live
    csv = create(api, title="CSV", categories=f"{concerts}, Brand New Category").json()
    assert [c["name"] for c in csv["categories"]] == ["Brand New Category", "Concerts"]
    again = create(api, title="Again", categories=["brand-new-category"]).json()
    assert again["categories"][0]["id"] == csv["categories"][0]["id"]
    assert again["categories"][0]["count"] == 2


def test_only_term_managers_create_terms_by_name(api: Api) -> None:
    refused = create(api, as_="contributor", tags=["Newly Made"])
    assert refused.status_code == 400
    assert list(refused.json()["data"]["params"]) == ["tags"]
    assert event_rows(api) == 0
    assert create(api, as_="author", categories=["Author Category"]).status_code == 201
    assert create(api, as_="author", title="T", tags=["Author Tag"]).status_code == 400


def test_term_counts_follow_published_events_only(api: Api) -> None:
    concerts = api.run(lambda: factories.make_term(api.database, "Concerts"))
    create(api, categories=[concerts])
    create(api, title="Draft", status="draft", categories=[concerts])
    assert term_count(api, concerts) == 1


def test_venue_and_organizer_links_by_id(api: Api) -> None:
    db = api.database
    hall = api.run(lambda: factories.make_venue(db, "Hall"))
    loft = api.run(lambda: factories.make_venue(db, "Loft", status="draft"))
    jane = api.run(lambda: factories.make_organizer(db, "Jane"))
    joe = api.run(lambda: factories.make_organizer(db, "Joe"))
    assert create(api, venue=str(hall)).json()["venue"]["id"] == hall
    assert create(api, title="B", venue={"id": loft}).json()["venue"]["status"] == "draft"
    assert create(api, title="C", venue=[hall]).json()["venue"]["id"] == hall
    two = create(api, title="D", venue=[hall, loft])
    assert two.status_code == 400
    assert two.json()["data"]["params"] == {"venue": "An event can have only one venue."}
    ordered = create(api, title="E", organizer=[joe, {"id": jane}, joe]).json()
    assert [o["id"] for o in ordered["organizer"]] == [joe, jane]
    csv = create(api, title="F", organizer=f"{jane},{joe}").json()
    assert [o["id"] for o in csv["organizer"]] == [jane, joe]
    single = create(api, title="G", organizer=str(joe)).json()
    assert [o["id"] for o in single["organizer"]] == [joe]
    assert create(api, title="H", venue=0, organizer=[]).json()["venue"] == []

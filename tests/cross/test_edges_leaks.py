"""Relation filters, linked ids and duplicate checks reveal nothing the caller may not read
(issue 14): an item that is a draft, private, trashed or password-protected to the caller is
answered exactly as an id that names nothing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from tests import factories
from tests.conftest import NS, Api
from tests.http.helpers import NEW_EVENT

UNKNOWN = 99_999


@dataclass(frozen=True)
class Seeded:
    venue: int
    organizer: int
    term: int
    hidden: dict[str, int]
    """Events the anonymous caller and a contributor may not look into, by kind."""
    open_event: int


def seed(api: Api) -> Seeded:
    db = api.database
    editor = api.user("editor")
    venue = api.run(lambda: factories.make_venue(db, "Hall"))
    organizer = api.run(lambda: factories.make_organizer(db, "Org"))
    term = api.run(lambda: factories.make_term(db, "Jazz"))
    links: dict[str, Any] = {"venue_id": venue, "organizer_ids": (organizer,), "term_ids": (term,)}
    hidden = {
        "draft": api.run(
            lambda: factories.make_event(db, "D", status="draft", author_id=editor, **links)
        ),
        "private": api.run(
            lambda: factories.make_event(db, "P", status="private", author_id=editor, **links)
        ),
        "trash": api.run(
            lambda: factories.make_event(db, "T", status="trash", author_id=editor, **links)
        ),
        "protected": api.run(
            lambda: factories.make_event(db, "S", post_password="pw", author_id=editor, **links)
        ),
    }
    open_event = api.run(lambda: factories.make_event(db, "O", **links))
    return Seeded(venue, organizer, term, hidden, open_event)


RELATION_FILTERS = (
    ("categories", "post"),
    ("categories", "event"),
    ("tags", "post"),
    ("tags", "event"),
    ("venues", "event"),
    ("organizers", "event"),
)


@pytest.mark.parametrize(("collection", "param"), RELATION_FILTERS)
@pytest.mark.parametrize("role", [None, "subscriber", "contributor"])
def test_relation_filters_answer_an_unreadable_event_as_an_unknown_id(
    api: Api, collection: str, param: str, role: str | None
) -> None:
    s = seed(api)
    unknown = api.get(f"{NS}/{collection}", params={param: UNKNOWN}, as_=role)
    assert unknown.status_code == 400
    for kind, event_id in s.hidden.items():
        response = api.get(f"{NS}/{collection}", params={param: event_id}, as_=role)
        assert response.status_code == 400, (kind, response.text)
        expected = unknown.text.replace(str(UNKNOWN), str(event_id))
        assert response.text == expected, kind
    assert api.get(f"{NS}/{collection}", params={param: s.open_event}, as_=role).status_code == 200


@pytest.mark.parametrize(("collection", "param"), RELATION_FILTERS)
def test_editors_filter_by_every_event_they_may_read(api: Api, collection: str, param: str) -> None:
    s = seed(api)
    for kind in ("draft", "private", "protected"):
        response = api.get(f"{NS}/{collection}", params={param: s.hidden[kind]}, as_="editor")
        assert response.status_code == 200, (kind, response.text)
        if collection != "tags":  # the seeded events have a category, a venue, an organizer
            assert len(response.json()[collection]) == 1, (kind, response.text)


@pytest.mark.parametrize(
    ("collection", "field"), [("venues", "venue"), ("organizers", "organizer")]
)
def test_another_authors_draft_is_unknown_to_event_writes_and_filters(
    api: Api, collection: str, field: str
) -> None:
    editor = api.user("editor")
    maker = factories.make_venue if collection == "venues" else factories.make_organizer
    draft = api.run(lambda: maker(api.database, "Secret", status="draft", author_id=editor))
    contributor = api.user("contributor")
    mine = api.run(lambda: maker(api.database, "Mine", status="draft", author_id=contributor))
    for value in (draft, UNKNOWN):
        write = api.post(f"{NS}/events", json={**NEW_EVENT, field: value}, as_="contributor")
        assert write.status_code == 400 and field in write.json()["data"]["params"], write.text
        listing = api.get(f"{NS}/events", params={field: value})
        assert listing.status_code == 400 and field in listing.json()["data"]["params"]
    assert api.get(f"{NS}/events", params={field: draft}, as_="editor").status_code == 200
    own = api.post(f"{NS}/events", json={**NEW_EVENT, field: mine}, as_="contributor")
    assert own.status_code == 201, own.text


@pytest.mark.parametrize(
    ("collection", "field"), [("venues", "venue"), ("organizers", "organizer")]
)
def test_the_duplicate_check_does_not_reveal_a_protected_item(
    api: Api, collection: str, field: str
) -> None:
    maker = factories.make_venue if collection == "venues" else factories.make_organizer
    protected = api.run(
        lambda: maker(api.database, "Locked", post_password="pw", description="Inside")
    )
    for role in ("contributor", "author"):
        created = api.post(f"{NS}/{collection}", json={field: "Locked"}, as_=role)
        assert created.status_code == 201
        assert created.json()["id"] != protected, role
        guessed = api.post(
            f"{NS}/{collection}", json={field: "Locked", "description": "Inside"}, as_=role
        )
        assert guessed.json()["id"] != protected, role
    editor = api.post(f"{NS}/{collection}", json={field: "Locked"}, as_="editor")
    assert editor.json()["id"] == protected


@pytest.mark.parametrize("role", [None, "contributor"])
def test_filtered_listings_blank_a_protected_event_as_the_unfiltered_one(
    api: Api, role: str | None
) -> None:
    db = api.database
    venue = api.run(lambda: factories.make_venue(db, "Hall"))
    organizer = api.run(lambda: factories.make_organizer(db, "Org"))
    term = api.run(lambda: factories.make_term(db, "Jazz"))
    secret = api.run(
        lambda: factories.make_event(
            db,
            "Closed",
            post_password="pw",
            description="zanzibarquux",
            venue_id=venue,
            organizer_ids=(organizer,),
            term_ids=(term,),
            featured=True,
        )
    )
    for query in (
        "",
        f"venue={venue}",
        f"organizer={organizer}",
        f"categories={term}",
        "featured=1",
    ):
        response = api.get(f"{NS}/events?{query}", as_=role)
        assert response.status_code == 200, (query, response.text)
        (entry,) = response.json()["events"]
        assert entry["id"] == secret
        assert "zanzibarquux" not in response.text, query
        assert (entry["description"], entry["venue"], entry["organizer"]) == ("", [], []), query
        assert (entry["categories"], entry["featured"]) == ([], None), query

"""Reading venues and organizers: by id and slug, unpublished and protected items,
their routes in the index and ``/doc`` (spec venues.md, organizers.md)."""

from __future__ import annotations

import pytest

from tests import factories
from tests.conftest import NS, Api
from tests.domains.places.helpers import BOTH, VENUES, Collection, create, make


@pytest.mark.parametrize("c", BOTH)
def test_read_by_id_and_slug(api: Api, c: Collection) -> None:
    created = create(api, c).json()
    by_id = api.get(c.path(f"/{created['id']}"))
    assert by_id.status_code == 200
    body = by_id.json()
    assert body["json_ld"]["@type"] == ("Place" if c is VENUES else "Person")
    assert list(body)[-3:] == ["global_id", "global_id_lineage", "translations"]
    assert api.get(c.path(f"/by-slug/{created['slug']}")).json() == body
    event_id = api.run(lambda: factories.make_event(api.database, "Event"))
    for path in (c.path("/99999"), c.path(f"/{event_id}")):
        wrong = api.get(path)
        assert wrong.status_code == 400
        assert wrong.json()["data"]["params"] == {"id": "Invalid parameter."}
    unknown_slug = api.get(c.path("/by-slug/event"))
    assert unknown_slug.json()["data"]["params"] == {"slug": "Invalid parameter."}
    assert api.get(c.path("/abc")).json()["code"] == "rest_no_route"


@pytest.mark.parametrize("c", BOTH)
def test_unpublished_items_are_not_accessible_to_others(api: Api, c: Collection) -> None:
    contributor = api.user("contributor")
    draft = make(api, c, "Draft Place", status="draft")
    own = make(api, c, "Own Draft", status="draft", author_id=contributor)
    denied = api.get(c.path(f"/{draft}"))
    assert denied.status_code == 403
    assert denied.json() == {
        "code": f"{c.name}-not-accessible",
        "message": f"The requested {c.name} is not accessible",
        "data": {"status": 403},
    }
    assert api.get(c.path(f"/{draft}"), as_="editor").status_code == 200
    assert api.get(c.path(f"/{draft}"), as_="contributor").status_code == 403
    assert api.get(c.path(f"/{own}"), as_="contributor").status_code == 200


@pytest.mark.parametrize("c", BOTH)
def test_password_protected_items_keep_their_name(api: Api, c: Collection) -> None:
    created = create(api, c, **{**c.full, "post_password": "pw"}).json()
    assert created["description"] == c.full["description"]
    public = api.get(c.path(f"/{created['id']}")).json()
    assert public[c.name] == c.full[c.name]
    assert "description" not in public and "json_ld" not in public and "pw" not in str(public)
    assert (
        api.get(c.path(f"/{created['id']}?password=pw")).json()["description"]
        == c.full["description"]
    )
    listed = api.get(c.path()).json()[c.plural][0]
    assert "description" not in listed


def test_index_and_doc_list_the_new_routes(api: Api) -> None:
    routes = api.get(NS).json()["routes"]
    expected = [
        "/cal/events/v1/venues",
        "/cal/events/v1/venues/(?P<id>\\d+)",
        "/cal/events/v1/venues/by-slug/(?P<slug>[^/]+)",
        "/cal/events/v1/organizers",
        "/cal/events/v1/organizers/(?P<id>\\d+)",
        "/cal/events/v1/organizers/by-slug/(?P<slug>[^/]+)",
    ]
    assert list(routes)[5:11] == expected
    create_args = routes["/cal/events/v1/venues"]["endpoints"][1]["args"]
    assert create_args["venue"]["required"] is True
    assert {"latitude", "longitude", "post_password"} <= set(create_args)
    doc = api.get(f"{NS}/doc").json()
    assert {"/venues", "/venues/{id}", "/organizers/by-slug/{slug}"} <= set(doc["paths"])

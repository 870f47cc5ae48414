"""Updating and trashing venues and organizers (spec venues.md, organizers.md;
DEVIATIONS #1, #2)."""

from __future__ import annotations

import pytest

from tests import factories
from tests.conftest import NS, Api
from tests.domains.places.helpers import BOTH, VENUES, Collection, create, make


@pytest.mark.parametrize("c", BOTH)
@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH"])
def test_update_changes_only_the_fields_sent(api: Api, c: Collection, method: str) -> None:
    created = create(api, c).json()
    response = api.request(
        method, c.path(f"/{created['id']}"), json={"phone": "555-0301"}, as_="administrator"
    )
    assert response.status_code == 200
    body = response.json()
    assert body["phone"] == "555-0301"
    unchanged = {k: v for k, v in created.items() if k not in ("phone", "modified", "modified_utc")}
    assert {k: v for k, v in body.items() if k in unchanged} == unchanged
    cleared = api.patch(
        c.path(f"/{created['id']}"), json={"phone": "", "website": "", "description": ""}
    )
    for field in ("phone", "website", "description"):
        assert field not in cleared.json()
    renamed = api.patch(c.path(f"/by-slug/{created['slug']}"), json={c.name: "Renamed"}).json()
    assert (renamed[c.name], renamed["slug"]) == ("Renamed", created["slug"])


@pytest.mark.parametrize("c", BOTH)
def test_update_errors_and_per_item_permissions(api: Api, c: Collection) -> None:
    contributor = api.user("contributor")
    admin_item = create(api, c).json()
    own = make(api, c, "Own", status="draft", author_id=contributor)
    unknown = api.patch(c.path("/99999"), json={c.name: "Ghost"})
    assert unknown.status_code == 400
    assert unknown.json()["data"]["params"] == {"id": "Invalid parameter."}
    assert (
        api.patch(c.path(f"/{admin_item['id']}"), json={c.name: "x"}, as_=None).status_code == 401
    )
    for path in (c.path(f"/{admin_item['id']}"), c.path(f"/by-slug/{admin_item['slug']}")):
        assert api.patch(path, json={c.name: "x"}, as_="contributor").status_code == 403
        assert api.delete(path, as_="contributor").status_code == 403
    assert api.patch(c.path(f"/{own}"), json={c.name: "Mine"}, as_="contributor").status_code == 200
    assert api.patch(c.path(f"/{admin_item['id']}"), json={c.name: ""}).status_code == 400


@pytest.mark.parametrize("c", BOTH)
def test_trash_unlinks_only_that_item_from_every_event(api: Api, c: Collection) -> None:
    keep = make(api, c, "Keep")
    gone = make(api, c, "Gone")
    if c is VENUES:
        first = api.run(lambda: factories.make_event(api.database, "A", venue_id=gone))
        second = api.run(lambda: factories.make_event(api.database, "B", venue_id=keep))
    else:
        first = api.run(lambda: factories.make_event(api.database, "A", organizer_ids=(gone, keep)))
        second = api.run(lambda: factories.make_event(api.database, "B", organizer_ids=(gone,)))
    response = api.delete(c.path(f"/{gone}"))
    assert response.status_code == 200
    assert (response.json()["status"], response.json()["slug"]) == ("trash", "gone__trashed")
    a = api.get(f"{NS}/events/{first}").json()
    b = api.get(f"{NS}/events/{second}").json()
    if c is VENUES:
        assert a["venue"] == [] and b["venue"]["id"] == keep
    else:
        assert [o["id"] for o in a["organizer"]] == [keep] and b["organizer"] == []
    again = api.delete(c.path(f"/{gone}"))
    assert again.status_code == 410
    assert again.json()["code"] == f"{c.name}-is-in-trash"
    assert api.get(c.path(f"/{gone}")).status_code == 403
    admin_view = api.get(c.path(f"/{gone}"), as_="administrator")
    assert admin_view.status_code == 200 and admin_view.json()["status"] == "trash"
    assert api.delete(c.path("/99999"), as_=None).status_code == 400
    assert api.delete(c.path(f"/{keep}"), as_=None).status_code == 401
    by_slug = api.delete(c.path("/by-slug/keep"))
    assert by_slug.json()["status"] == "trash"
    assert api.delete(c.path("/by-slug/keep")).status_code == 400

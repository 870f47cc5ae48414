"""By slug: posts are read, updated and deleted by slug (If-Match included); terms have no
by-slug routes."""

from __future__ import annotations

from tests.contract.helpers import Case


def test_by_slug(case: Case) -> None:
    if case.by_slug:
        _posts_by_slug(case)
    else:
        _no_by_slug_routes(case)


def _posts_by_slug(case: Case) -> None:
    created = case.create()
    item_id, slug = created["id"], created["slug"]
    read = case.api.get(case.path(f"/by-slug/{slug}"))
    assert read.status_code == 200 and read.json()["id"] == item_id
    tag = read.headers["ETag"]
    updated = case.api.patch(
        case.path(f"/by-slug/{slug}"), json=case.declared.update, headers={"If-Match": tag}
    )
    assert updated.status_code == 200, updated.text
    stored = case.stored(item_id)
    assert stored is not None and stored["revision"] == 2
    for column, value in case.column_values(case.declared.update).items():
        assert stored[column] == value, column
    stale = case.api.patch(
        case.path(f"/by-slug/{slug}"), json=case.declared.create, headers={"If-Match": tag}
    )
    assert stale.status_code == 412 and stale.json()["code"] == "rest_precondition_failed"
    stale_delete = case.api.delete(case.path(f"/by-slug/{slug}"), headers={"If-Match": tag})
    assert stale_delete.status_code == 412
    assert case.stored(item_id) == stored
    deleted = case.api.delete(case.path(f"/by-slug/{slug}"))
    assert deleted.status_code == 200 and deleted.json()["status"] == "trash"
    assert case.log(item_id)[-1] == (case.resource.name, item_id, "trash", 3)


def _no_by_slug_routes(case: Case) -> None:
    created = case.create()
    for method in ("GET", "POST", "PUT", "PATCH", "DELETE"):
        response = case.api.request(
            method, case.path(f"/by-slug/{created.get('slug', 'any')}"), as_="administrator"
        )
        assert response.status_code == 404, method
        assert response.json()["code"] == "rest_no_route"
    assert case.stored(created["id"]) is not None

"""Reading one item: its body, its ETag naming its revision, conditional reads, unknown ids."""

from __future__ import annotations

from tests.contract.helpers import Case, assert_shows


def test_a_read_shows_what_was_created_tagged_with_its_revision(case: Case) -> None:
    created = case.create()
    read = case.api.get(case.path(created["id"]))
    assert read.status_code == 200
    body = read.json()
    assert body["id"] == created["id"]
    assert_shows(case, body, case.declared.create)
    assert read.headers["ETag"].startswith('"r1-')
    again = case.api.get(case.path(created["id"]), headers={"If-None-Match": read.headers["ETag"]})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["ETag"] == read.headers["ETag"]
    other = case.api.get(case.path(created["id"]), headers={"If-None-Match": '"r9-x"'})
    assert other.status_code == 200 and other.json() == body


def test_an_unknown_id(case: Case) -> None:
    response = case.api.get(case.path(987654))
    body = response.json()
    not_found = case.resource.messages.not_found
    if not_found is not None:
        assert response.status_code == 404
        assert body["code"] == f"rest-{case.resource.name}-not-found"
        assert body["message"] == not_found.format(id=987654)
    else:
        assert response.status_code == 400
        assert body["code"] == "rest_invalid_param"
        assert list(body["data"]["params"]) == ["id"]
    assert body["data"]["status"] == response.status_code

"""Creating, updating (POST, PUT, PATCH) and deleting, checked in the body, the headers, the
stored row and the change log."""

from __future__ import annotations

import pytest

from tests.conftest import NS
from tests.contract.helpers import Case, assert_shows, changed_columns


def test_create(case: Case) -> None:
    response = case.send_create(case.declared.create)
    assert response.status_code == 201, response.text
    body = response.json()
    item_id = body["id"]
    assert_shows(case, body, case.declared.create)
    assert response.headers["ETag"].startswith('"r1-')
    if case.resource.behaviour.location_on_create:
        assert (
            response.headers["Location"]
            == f"http://127.0.0.1{NS}/{case.resource.collection}/{item_id}"
        )
    else:
        assert "Location" not in response.headers
    stored = case.stored(item_id)
    assert stored is not None and stored["revision"] == 1
    for column, value in case.column_values(case.declared.create).items():
        assert stored[column] == value, column
    assert case.log(item_id) == [(case.resource.name, item_id, "create", 1)]


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH"])
def test_update_changes_only_what_is_sent(case: Case, method: str) -> None:
    item_id = case.item_id()
    before = case.stored(item_id)
    assert before is not None
    log = case.log()
    response = case.api.request(
        method, case.path(item_id), json=case.declared.update, as_="administrator"
    )
    assert response.status_code == 200, response.text
    assert_shows(case, response.json(), case.declared.update)
    assert response.headers["ETag"].startswith('"r2-')
    after = case.stored(item_id)
    assert after is not None and after["revision"] == 2
    sent = case.column_values(case.declared.update)
    for column, value in sent.items():
        assert after[column] == value, column
    assert changed_columns(before, after) <= set(sent) | {"revision", "modified_at"}
    assert case.log()[len(log) :] == [(case.resource.name, item_id, "update", 2)]
    read = case.api.get(case.path(item_id)).json()
    assert_shows(case, read, {**case.declared.create, **case.declared.update})


def test_delete(case: Case) -> None:
    created = case.create()
    item_id = created["id"]
    response = case.api.delete(case.path(item_id))
    assert response.status_code == 200, response.text
    again = case.api.delete(case.path(item_id))
    if case.trashes:
        assert response.json()["status"] == "trash"
        stored = case.stored(item_id)
        assert stored is not None and stored["status"] == "trash" and stored["revision"] == 2
        assert case.log(item_id)[-1] == (case.resource.name, item_id, "trash", 2)
        assert again.status_code == 410
        assert again.json()["code"] == f"{case.resource.name}-is-in-trash"
        assert again.json()["message"] == case.resource.messages.already_trashed
        assert case.stored(item_id) == stored
    else:
        assert response.json() == created  # the item as it was
        assert case.stored(item_id) is None
        assert case.log(item_id)[-1] == (case.resource.name, item_id, "delete", None)
        assert again.status_code == 400
        assert list(again.json()["data"]["params"]) == ["id"]

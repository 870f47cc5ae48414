"""Who may write: anonymous callers get 401, roles that may not write 403, and a refused write
changes nothing; the weakest role that may write creates, updates and deletes its own item;
``Allow`` lists what the caller's role may do."""

from __future__ import annotations

from typing import Any

from tests.conftest import NS
from tests.contract.helpers import Case


def _snapshot(case: Case) -> tuple[list[dict[str, Any]], int]:
    return case.rows(), len(case.log())


def _refused(case: Case, item_id: int, as_: str | None, status: int) -> None:
    before = _snapshot(case)
    writes = [
        ("POST", case.path(), case.declared.create),
        ("POST", case.path(item_id), case.declared.update),
        ("PUT", case.path(item_id), case.declared.update),
        ("PATCH", case.path(item_id), case.declared.update),
        ("DELETE", case.path(item_id), None),
    ]
    for method, path, payload in writes:
        response = case.api.request(method, path, json=payload, as_=as_)
        assert response.status_code == status, (method, path, response.text)
        assert response.json()["data"]["status"] == status
    assert _snapshot(case) == before


def test_anonymous_writes_are_401_and_change_nothing(case: Case) -> None:
    _refused(case, case.item_id(), None, 401)


def test_roles_that_may_not_write_get_403_and_change_nothing(case: Case) -> None:
    item_id = case.item_id()
    assert case.non_writers
    for role in case.non_writers:
        _refused(case, item_id, role, 403)


def test_the_weakest_writer_creates_updates_and_deletes_its_own_item(case: Case) -> None:
    role = case.weakest_writer
    created = case.send_create(case.declared.create, as_=role)
    assert created.status_code == 201, created.text
    item_id = created.json()["id"]
    stored = case.stored(item_id)
    assert stored is not None
    if "author_id" in stored:
        assert stored["author_id"] == case.api.users[role]
    updated = case.api.patch(case.path(item_id), json=case.declared.update, as_=role)
    assert updated.status_code == 200, updated.text
    deleted = case.api.delete(case.path(item_id), as_=role)
    assert deleted.status_code == 200, deleted.text
    actions = [action for _, _, action, _ in case.log(item_id)]
    assert actions == ["create", "update", "trash" if case.trashes else "delete"]


def _allow(case: Case, role: str | None, route: str) -> str:
    if role is None:
        return "GET"
    methods = ["GET"]
    if route == "collection":
        return "GET, POST" if case.may_create(role) else "GET"
    for endpoint in case.resource.behaviour.item_methods:
        if endpoint == "DELETE" and case.may_delete(role):
            methods.append("DELETE")
        elif endpoint == "UPDATE" and case.may_update(role):
            methods += ["POST", "PUT", "PATCH"]
    return ", ".join(methods)


def test_allow_lists_what_each_role_may_do(case: Case) -> None:
    item_id = case.item_id()
    for role in (None, "subscriber", "contributor", "author", "editor", "administrator"):
        listed = case.api.get(case.path(), as_=role, params=case.declared.list_query)
        assert listed.headers["Allow"] == _allow(case, role, "collection"), role
        read = case.api.get(case.path(item_id), as_=role)
        assert read.headers["Allow"] == _allow(case, role, "item"), role
    assert case.api.get(f"{NS}/{case.resource.collection}", as_=None).status_code == 200

"""Bad input: each invalid value is a 400 naming its parameter, on create and on update, and
changes nothing; a create without its required fields names them in declaration order."""

from __future__ import annotations

import pytest

from tests.contract.helpers import Case


def _assert_names(response: object, param: str) -> None:
    assert response.status_code == 400, (param, response.text)  # type: ignore[attr-defined]
    body = response.json()  # type: ignore[attr-defined]
    assert body["code"] == "rest_invalid_param", param
    assert body["data"]["status"] == 400
    assert list(body["data"]["params"]) == [param]
    assert param in body["message"]


def test_each_invalid_value_names_its_parameter_and_changes_nothing(case: Case) -> None:
    item_id = case.item_id()
    before = case.rows(), case.log()
    for param, value in case.declared.invalid:
        _assert_names(
            case.api.post(case.path(), json={**case.declared.create, param: value}), param
        )
        for method in ("POST", "PUT", "PATCH"):
            response = case.api.request(
                method, case.path(item_id), json={param: value}, as_="administrator"
            )
            _assert_names(response, param)
    assert (case.rows(), case.log()) == before


def test_missing_required_fields_are_named_in_declaration_order(case: Case) -> None:
    required = [f.name for f in case.resource.fields if f.required]
    if not required:
        pytest.skip(f"{case.resource.collection} requires no field (an upload: its file)")
    response = case.api.post(case.path(), json={})
    assert response.status_code == 400
    assert response.json() == {
        "code": "rest_missing_callback_param",
        "message": f"Missing parameter(s): {', '.join(required)}",
        "data": {"status": 400, "params": required},
    }
    assert case.rows() == []

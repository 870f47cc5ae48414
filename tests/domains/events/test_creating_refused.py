"""Creates that are refused: missing and invalid fields, bodies, permissions,
credentials (spec events §4, DEVIATIONS)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import NS, Api
from tests.domains.events.creating_helpers import MINIMAL, create, event_rows


def test_missing_required_parameters(api: Api) -> None:
    no_title = api.post(f"{NS}/events", json={"start_date": "2027-04-01", "end_date": "2027-04-01"})
    assert no_title.status_code == 400
    assert no_title.json() == {
        "code": "rest_missing_callback_param",
        "message": "Missing parameter(s): title",
        "data": {"status": 400, "params": ["title"]},
    }
    no_dates = api.post(f"{NS}/events", json={"title": "No dates"})
    assert no_dates.json()["message"] == "Missing parameter(s): start_date, end_date"
    null_title = api.post(f"{NS}/events", json={**MINIMAL, "title": None})
    assert null_title.json()["data"]["params"] == ["title"]
    plain = api.post(
        f"{NS}/events", content='{"title": "x"}', headers={"Content-Type": "text/plain"}
    )
    # JSON labelled as text is named for what it is (issue 14), not "missing parameters"
    assert plain.json()["code"] == "rest_invalid_content_type"
    anonymous_missing = api.post(f"{NS}/events", json={"title": "x"}, as_=None)
    assert anonymous_missing.status_code == 400


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("title", ""),
        ("title", 12),
        ("start_date", "notadate"),
        ("end_date", ""),
        ("timezone", "Mars/Olympus"),
        ("status", "bogus"),
        ("status", "inherit"),
        ("author", 99999),
        ("author", ""),
        ("date", "foo"),
        ("date_utc", "foo"),
        ("website", "not a url"),
        ("website", "javascript:alert(1)"),
        ("website", "example.com"),
        ("featured", "yes"),
        ("all_day", ""),
        ("sticky", 2),
        ("venue", 99999),
        ("venue", {"city": "Nowhere"}),
        ("venue", "4,210"),
        ("organizer", [99999]),
        ("organizer", "abc"),
        ("image", "foo bar"),
        ("image", 99999),
        ("image", "ftp://example.test/a.png"),
        ("cost", {"a": 1}),
        ("categories", {"a": 1}),
        ("slug", ""),
        ("description", ["x"]),
        ("title", "x" * 1001),
        ("translation_language", "fr"),
    ],
)
def test_invalid_fields_are_400_and_create_nothing(api: Api, field: str, value: Any) -> None:
    response = create(api, **{field: value})
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["code"] == "rest_invalid_param"
    assert list(body["data"]["params"]) == [field]
    assert event_rows(api) == 0


def test_invalid_json_body(api: Api) -> None:
    response = api.post(
        f"{NS}/events",
        content='{"title": "Broken", "start_date": ',
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == 400
    assert response.json() == {
        "code": "rest_invalid_json",
        "message": "Invalid JSON body passed.",
        "data": {"status": 400, "json_error_code": 4, "json_error_message": "Syntax error"},
    }


def test_permissions_on_create(api: Api) -> None:
    anonymous = create(api, as_=None)
    assert anonymous.status_code == 401
    assert anonymous.json() == {
        "code": "rest_forbidden",
        "message": "Sorry, you are not allowed to do that.",
        "data": {"status": 401},
    }
    assert anonymous.headers["allow"] == "GET"
    subscriber = create(api, as_="subscriber")
    assert subscriber.status_code == 403
    assert subscriber.json()["data"]["status"] == 403
    assert event_rows(api) == 0
    contributor = create(api, as_="contributor", status="publish").json()
    assert contributor["status"] == "pending"
    assert create(api, as_="contributor", title="Plain").json()["status"] == "draft"
    assert create(api, as_="author", title="By author").json()["status"] == "publish"


def test_setting_another_author_needs_edit_others(api: Api) -> None:
    editor = api.user("editor")
    forbidden = create(api, as_="author", author=editor)
    assert forbidden.status_code == 403
    assert forbidden.json()["code"] == "rest_cannot_edit_others"
    assert create(api, as_="administrator", author=editor).json()["author"] == str(editor)


def test_wrong_credentials_are_401_before_anything_else(api: Api) -> None:
    api.user("administrator", "admin")
    wrong = api.post(
        f"{NS}/events", json=MINIMAL, headers={"Authorization": "Basic YWRtaW46d3Jvbmc="}, as_=None
    )
    assert wrong.status_code == 401
    assert wrong.json()["code"] == "incorrect_password"
    assert "allow" not in wrong.headers

"""Generic REST behaviour of the namespace (spec README §1, §2.1, §6.1, §9)."""

from __future__ import annotations

import base64

import pytest

from tests import factories
from tests.conftest import NS, Api

NO_ROUTE = {
    "code": "rest_no_route",
    "message": "No route was found matching the URL and request method.",
    "data": {"status": 404},
}


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/nope"),
        ("GET", "/events/abc"),
        ("GET", "/events/by-slug/"),
        ("GET", "/venuesx"),
        ("DELETE", "/events"),
        ("PUT", "/events"),
        ("PATCH", "/events"),
        ("POST", ""),
        ("PUT", ""),
        ("DELETE", "/doc"),
        ("POST", "/doc"),
        ("GET", "/../events"),
    ],
)
def test_unknown_routes_and_methods_are_rest_no_route(api: Api, method: str, path: str) -> None:
    response = api.request(method, f"{NS}{path}", as_="administrator")
    assert response.status_code == 404
    assert response.json() == NO_ROUTE
    assert "allow" not in response.headers


def test_paths_outside_the_namespace_are_rest_no_route(api: Api) -> None:
    for path in ("/", "/wp-json", "/cal/events/v2/events", "/cal/events/v1x"):
        response = api.get(path)
        assert response.status_code == 404, path
        assert response.json() == NO_ROUTE


def test_trailing_slash_and_case_insensitive_paths(api: Api) -> None:
    event_id = api.run(lambda: factories.make_event(api.database, "Case"))
    for path in (f"{NS}/events/{event_id}/", f"/CAL/Events/V1/EVENTS/{event_id}", f"{NS}/events/"):
        assert api.get(path).status_code == 200, path


def test_head_returns_the_get_headers_without_a_body(api: Api) -> None:
    api.run(lambda: factories.make_event(api.database, "Head"))
    response = api.request("HEAD", f"{NS}/events")
    assert response.status_code == 200
    assert response.content == b""
    assert response.headers["x-tec-total"] == "1"
    assert response.headers["allow"] == "GET"
    assert response.headers["content-type"] == "application/json; charset=UTF-8"


def test_options_describes_the_route_and_allow_depends_on_the_caller(api: Api) -> None:
    anonymous = api.request("OPTIONS", f"{NS}/events")
    assert anonymous.status_code == 200
    assert anonymous.headers["allow"] == "GET"
    body = anonymous.json()
    assert body["namespace"] == "cal/events/v1"
    assert body["methods"] == ["GET", "POST"]
    assert [e["methods"] for e in body["endpoints"]] == [["GET"], ["POST"]]
    assert body["endpoints"][1]["args"]["title"] == {
        "description": "The event title",
        "type": "string",
        "required": True,
    }
    assert body["_links"] == {"self": [{"href": f"http://127.0.0.1{NS}/events"}]}
    admin = api.request("OPTIONS", f"{NS}/events", as_="administrator")
    assert admin.headers["allow"] == "GET, POST"
    assert admin.json() == body
    single = api.request("OPTIONS", f"{NS}/events/12", as_="contributor")
    assert single.headers["allow"] == "GET, DELETE, POST, PUT, PATCH"
    assert "_links" not in single.json()
    assert api.request("OPTIONS", f"{NS}/events/12", as_="subscriber").headers["allow"] == "GET"
    assert api.request("OPTIONS", f"{NS}/nothing").status_code == 404


def test_wrong_credentials_are_401_even_on_public_routes(api: Api) -> None:
    api.user("administrator", "admin")
    wrong = api.get(f"{NS}/events", headers={"Authorization": "Basic YWRtaW46d3Jvbmc="})
    assert wrong.status_code == 401
    assert wrong.json() == {
        "code": "incorrect_password",
        "message": "The provided password is an invalid application password.",
        "data": {"status": 401},
    }
    unknown = api.get(f"{NS}/events", headers={"Authorization": "Basic bm9ib2R5Ong="})
    assert unknown.status_code == 401
    assert unknown.json()["code"] == "invalid_username"
    assert (
        api.get(f"{NS}/nope", headers={"Authorization": "Basic YWRtaW46d3Jvbmc="}).status_code
        == 401
    )


@pytest.mark.parametrize(
    "header",
    [
        "Bearer abc.def",
        "Basic !!!notbase64",
        "Basic " + base64.b64encode(b"no-colon").decode(),
        "Digest x",
    ],
)
def test_other_or_malformed_authorization_is_anonymous(api: Api, header: str) -> None:
    response = api.get(f"{NS}/events", headers={"Authorization": header})
    assert response.status_code == 200
    assert response.headers["allow"] == "GET"
    assert response.headers["cache-control"] == "public, no-cache"


def test_application_passwords_work_with_the_spaces_they_are_shown_with(api: Api) -> None:
    api.user("administrator", "admin")
    token = base64.b64encode(b"admin:passwo rd12 34").decode()
    assert api.get(f"{NS}/events", headers={"Authorization": f"Basic {token}"}).status_code == 200


def test_authenticated_responses_are_never_cached(api: Api) -> None:
    response = api.get(f"{NS}/events", as_="subscriber")
    assert (
        response.headers["cache-control"]
        == "no-cache, must-revalidate, max-age=0, no-store, private"
    )
    assert response.headers["expires"] == "Wed, 11 Jan 1984 05:00:00 GMT"


def test_common_headers(api: Api) -> None:
    response = api.get(f"{NS}/events")
    assert response.headers["x-content-type-options"] == "nosniff"
    assert "X-TEC-Total" in response.headers["access-control-expose-headers"]


def test_json_null_counts_as_absent_and_undeclared_parameters_are_ignored(api: Api) -> None:
    response = api.post(
        f"{NS}/events",
        json={
            "title": "Nulls",
            "start_date": "2027-01-01 10:00",
            "end_date": "2027-01-01 11:00",
            "website": None,
            "venue": None,
            "rest_url": "http://evil.test/",
            "utc_start_date": "1999-01-01 00:00:00",
        },
        params={"title": "From query"},
    )
    assert response.status_code == 201
    body = response.json()
    assert body["title"] == "Nulls"
    assert body["utc_start_date"] == "2027-01-01 10:00:00"
    assert body["rest_url"].startswith("http://127.0.0.1/")


def test_query_parameters_fill_in_for_a_body(api: Api) -> None:
    response = api.post(
        f"{NS}/events?title=Q&start_date=2027-01-01&end_date=2027-01-01",
        json={"start_date": "2027-01-02", "end_date": "2027-01-02"},
    )
    assert response.status_code == 201
    assert (response.json()["title"], response.json()["start_date"]) == ("Q", "2027-01-02 00:00:00")


def test_oversized_bodies_are_refused(api: Api) -> None:
    response = api.post(
        f"{NS}/events", content=b"x" * (1_048_577), headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 413
    assert response.json()["code"] == "rest_request_too_large"


@pytest.mark.parametrize(
    "body",
    [b"[1, 2, 3]", b'"a string"', b"null", b"42", b'{"title": {"nested": [1, {"deep": null}]}}'],
)
def test_json_bodies_that_are_not_parameter_objects(api: Api, body: bytes) -> None:
    response = api.post(f"{NS}/events", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert response.json()["code"] in ("rest_missing_callback_param", "rest_invalid_param")


def test_deeply_nested_json_is_a_clean_400(api: Api) -> None:
    deep = b"[" * 5000 + b"]" * 5000
    response = api.post(f"{NS}/events", content=deep, headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert response.json()["code"] == "rest_invalid_json"


def test_envelope_wraps_success_and_keeps_headers(api: Api) -> None:
    api.run(lambda: factories.make_event(api.database, "Env"))
    response = api.get(f"{NS}/events?_envelope&_fields=total")
    assert response.status_code == 200
    assert response.json() == {
        "body": {"total": 1},
        "status": 200,
        "headers": {"Allow": "GET", "X-TEC-Total": "1", "X-TEC-TotalPages": "1"},
    }

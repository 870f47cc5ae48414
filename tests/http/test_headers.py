"""Request headers and reserved parameters (issue 14, item 3): malformed values are ignored or
a 400 in the error shape, never a 500, and the Host header never makes answers balloon."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from tests import factories
from tests.conftest import NS, Api
from tests.http.helpers import NEW_EVENT, assert_error

HUGE_NUMBER = "9" * 5000

HOSTILE: list[tuple[str, bytes]] = [
    ("authorization", "Basic é€".encode()),
    ("authorization", b"Basic \xff\xfe\x00"),
    ("authorization", b"Basic " + base64.b64encode(b"admin\x00:x")),
    ("authorization", b"Basic " + base64.b64encode(b"\xff\xfe:x")),
    ("authorization", b"Basic " + base64.b64encode(b"a" * 50_000 + b":" + b"b" * 50_000)),
    ("authorization", b"Bearer " + b"x" * 10_000),
    ("if-match", f'"r{HUGE_NUMBER}-abc"'.encode()),
    ("if-match", b'"r' + b",".join([b'"r1-a"'] * 3000) + b'"'),
    ("if-none-match", f'"r{HUGE_NUMBER}"'.encode()),
    ("if-none-match", b"W/" * 5000),
    ("accept-language", b"de;q=" + HUGE_NUMBER.encode()),
    ("accept-language", "ü-ÄÖ,*;q=x".encode()),
    ("x-http-method-override", b"\xff" * 100),
    ("x-request-id", b"\xff" * 1000),
    ("origin", b"http://" + b"a" * 20_000),
    ("content-type", b"multipart/form-data; boundary=" + b"b" * 200),
    ("content-type", b'multipart/form-data; boundary="'),
    ("content-type", "application/json; charset=ü".encode()),
    ("content-length", b"-5"),
    ("x-forwarded-for", b"\xff, 1.2.3.4, [::1, 999.1.1.1"),
]


@pytest.mark.parametrize(
    ("name", "value"), HOSTILE, ids=[f"{n}-{i}" for i, (n, _) in enumerate(HOSTILE)]
)
@pytest.mark.parametrize("method", ["GET", "POST", "PUT"])
def test_malformed_headers_never_answer_500(api: Api, name: str, value: bytes, method: str) -> None:
    event = api.run(lambda: factories.make_event(api.database, "Existing"))
    path = f"{NS}/events" if method != "PUT" else f"{NS}/events/{event}"
    headers: dict[str, Any] = {**api.auth("administrator"), name: value}
    if name == "content-length":
        response = api.client.request(method, path, headers=headers)
    else:
        response = api.client.request(method, path, headers=headers, json=NEW_EVENT)
    assert response.status_code < 500, response.text[:300]
    if response.status_code >= 400:
        body = response.json()
        assert body["data"]["status"] == response.status_code
        assert body["message"]


def test_credentials_with_a_nul_are_anonymous(api: Api) -> None:
    api.user("administrator")
    token = base64.b64encode(b"administrator\x00:pass word 1234").decode()
    response = api.client.post(
        f"{NS}/events", json=NEW_EVENT, headers={"Authorization": f"Basic {token}"}
    )
    assert_error(response, 401, "rest_forbidden")


def test_an_if_match_with_thousands_of_digits_matches_nothing(api: Api) -> None:
    event = api.run(lambda: factories.make_event(api.database, "Existing"))
    response = api.put(
        f"{NS}/events/{event}", json={"title": "B"}, headers={"If-Match": f'"r{HUGE_NUMBER}-x"'}
    )
    assert response.status_code == 412, response.text


@pytest.mark.parametrize(
    "query",
    [
        "_fields[0][0]=id",
        "_fields[a]=id",
        "_fields[]=events&_fields[][x]=title",
        "_envelope[x]=1&_fields[0][]=id",
        "_method[]=DELETE",
    ],
)
def test_unexpected_shapes_of_reserved_parameters_are_ignored(api: Api, query: str) -> None:
    api.run(lambda: factories.make_event(api.database, "Existing"))
    response = api.get(f"{NS}/events?{query}")
    assert response.status_code == 200, response.text[:300]
    events = response.json()
    events = events["body"] if "_envelope" in query else events
    assert "id" in events["events"][0]
    if query.startswith("_fields[]=events"):
        assert set(events) == {"events"}


def test_fields_as_a_list_of_names_still_filter(api: Api) -> None:
    api.run(lambda: factories.make_event(api.database, "Existing"))
    response = api.get(f"{NS}/events?_fields[]=events&_fields[]=total")
    assert set(response.json()) == {"events", "total"}


@pytest.mark.parametrize(
    "host",
    [
        "h" * 60_000,
        "example.org/../evil",
        "example.org:99999999",
        "exa mple.org",
        "example.org:80:80",
        "[::1",
        "<script>",
        "user@example.org",
        "",
    ],
)
def test_an_invalid_host_is_400_when_urls_come_from_the_request(settings: Any, host: str) -> None:
    from starlette.testclient import TestClient

    from eventcal.app import create_app

    app = create_app(settings.with_overrides(public_url=None))
    with TestClient(app) as client:
        response = client.get(f"{NS}/events", headers={"Host": host})
    if host == "":
        assert response.status_code == 200  # no host: the server's address is used
        return
    assert_error(response, 400, "rest_invalid_host")
    assert len(response.content) < 1000


@pytest.mark.parametrize(
    "host", ["example.org", "example.org:8080", "127.0.0.1:80", "[::1]:8000", "my_app"]
)
def test_a_valid_host_makes_the_links(settings: Any, host: str) -> None:
    from starlette.testclient import TestClient

    from eventcal.app import create_app

    app = create_app(settings.with_overrides(public_url=None))
    with TestClient(app) as client:
        response = client.get(f"{NS}/", headers={"Host": host})
    assert response.status_code == 200
    assert self_link(response) == f"http://{host}/{NS[1:]}"


def test_the_public_url_ignores_the_host_header(api: Api) -> None:
    response = api.get(f"{NS}/", headers={"Host": "h" * 60_000})
    assert response.status_code == 200
    assert self_link(response) == f"http://127.0.0.1{NS}"


def self_link(index: Any) -> str:
    return str(index.json()["routes"][NS]["_links"]["self"][0]["href"])

"""CORS and security headers on every response (issue 6)."""

from __future__ import annotations

from functools import partial

import pytest

from tests import factories
from tests.conftest import NS, Api
from tests.cross.hostile_helpers import (
    NEW_EVENT,
    ORIGIN,
    assert_cors,
    assert_security_headers,
    header_list,
)


@pytest.mark.parametrize(
    ("path", "method"),
    [
        ("/events", "POST"),
        ("/events/{event}", "PATCH"),
        ("/events/{event}", "DELETE"),
        ("/events/by-slug/preflight", "PUT"),
        ("/venues", "POST"),
        ("/organizers/{event}", "DELETE"),
        ("/categories", "POST"),
        ("/tags/1", "PATCH"),
        ("", "GET"),
    ],
)
def test_browser_preflight_is_answered_with_cors_headers(api: Api, path: str, method: str) -> None:
    event_id = api.run(lambda: factories.make_event(api.database, "Preflight"))
    requested = "authorization, content-type, if-match, x-http-method-override"
    response = api.request(
        "OPTIONS",
        NS + path.format(event=event_id),
        headers={
            "Origin": ORIGIN,
            "Access-Control-Request-Method": method,
            "Access-Control-Request-Headers": requested,
        },
    )
    assert response.status_code == 200
    assert_cors(response)
    allowed = set(header_list(response, "access-control-allow-headers"))
    assert {h.strip() for h in requested.split(",")} <= allowed
    assert_security_headers(response)
    assert response.json()["namespace"] == "cal/events/v1"


def test_actual_responses_to_other_origins_expose_the_totals(api: Api) -> None:
    for title in ("One", "Two", "Three"):
        api.run(partial(factories.make_event, api.database, title))
    for path in ("/events?per_page=2", "/venues", "/categories?hide_empty=0", "/tags"):
        response = api.get(NS + path, headers={"Origin": ORIGIN})
        assert response.status_code == 200
        assert_cors(response)
        assert "x-tec-total" in response.headers
    listing = api.get(f"{NS}/events?per_page=2", headers={"Origin": ORIGIN})
    assert (listing.headers["x-tec-total"], listing.headers["x-tec-totalpages"]) == ("3", "2")
    written = api.post(
        f"{NS}/events",
        json={"title": "Cross", "start_date": "2027-01-01", "end_date": "2027-01-01"},
        headers={"Origin": "http://localhost:3000"},
    )
    assert written.status_code == 201
    assert_cors(written, "http://localhost:3000")
    # Without an Origin there is nothing to allow, but caches still keep the two apart.
    plain = api.get(f"{NS}/events")
    assert "access-control-allow-origin" not in plain.headers
    assert "origin" in header_list(plain, "vary")
    assert "accept-language" in header_list(plain, "vary")


@pytest.mark.parametrize(
    "origin",
    [
        "javascript:alert(1)",
        "https://a.example.org, https://b.example.org",
        "https://a.example.org/path",
        "https://a.example.org\tx",
        "*",
        "",
    ],
)
def test_malformed_origins_are_not_echoed(api: Api, origin: str) -> None:
    response = api.get(f"{NS}/events", headers={"Origin": origin})
    assert response.status_code == 200
    assert "access-control-allow-origin" not in response.headers
    assert "access-control-allow-credentials" not in response.headers


def test_security_and_cors_headers_are_on_every_response(api: Api) -> None:
    event_id = api.run(lambda: factories.make_event(api.database, "Headers"))
    origin = {"Origin": ORIGIN}
    responses = {
        "200": api.get(f"{NS}/events/{event_id}", headers=origin),
        "HEAD": api.request("HEAD", f"{NS}/events", headers=origin),
        "404 route": api.get(f"{NS}/nothing-here", headers=origin),
        "404 outside": api.get("/wp-json/wp/v2/posts", headers=origin),
        "404 method": api.request("DELETE", f"{NS}/events", headers=origin),
        "404 event": api.get(f"{NS}/events/99999", headers=origin),
        "400": api.get(f"{NS}/events?per_page=abc", headers=origin),
        "401": api.post(f"{NS}/events", as_=None, json=NEW_EVENT, headers=origin),
        "403": api.post(f"{NS}/events", as_="subscriber", json=NEW_EVENT, headers=origin),
        "413": api.post(
            f"{NS}/events",
            content=b"x" * 1_048_577,
            headers={**origin, "Content-Type": "application/json"},
        ),
        "envelope": api.get(f"{NS}/events/99999?_envelope", headers=origin),
    }
    etag = responses["200"].headers["etag"]
    responses["304"] = api.get(f"{NS}/events/{event_id}", headers={**origin, "If-None-Match": etag})
    expected_status = {"HEAD": 200, "envelope": 200, "404 route": 404, "404 outside": 404}
    for label, response in responses.items():
        status = expected_status.get(label) or int(label.split()[0])
        assert response.status_code == status, (label, response.text)
        assert_security_headers(response)
        assert_cors(response)
        if status >= 400:
            body = response.json()
            assert set(body) >= {"code", "message", "data"}, label
            assert body["data"]["status"] == status, label
    assert responses["304"].content == b""
    for path in ("/healthz", "/readyz"):
        assert api.get(path).headers["x-content-type-options"] == "nosniff"

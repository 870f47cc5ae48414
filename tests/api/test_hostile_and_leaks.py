"""Hostile callers and leaks (issue 6): password-protected content never shows through any
route or parameter (spec README §6.4), CORS and security headers on every response, and limits
that answer a clear 4xx in the error shape and change nothing (DEVIATIONS #19: no client input
produces a 500).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

import pytest

from tests import factories
from tests.conftest import NS, Api

# --- 1. password-protected content ---------------------------------------------------------

EVENT_SECRET = "zanzibarquux"
EXCERPT_SECRET = "quetzalplover"
GERMAN_SECRET = "geheimnisfluss"
SPANISH_SECRET = "secretoparamo"
VENUE_SECRET = "vortexmarmot"
ORGANIZER_SECRET = "orchidwombat"
SECRETS = (
    EVENT_SECRET,
    EXCERPT_SECRET,
    GERMAN_SECRET,
    SPANISH_SECRET,
    VENUE_SECRET,
    ORGANIZER_SECRET,
)
LANGUAGE_QUERIES = (
    "",
    "translation_language=en",
    "translation_language=de",
    "translation_language=es",
)


@dataclass(frozen=True)
class Protected:
    event: int
    """A protected event linked to the protected venue and organizer."""
    open_event: int
    """An unprotected event linked to the same protected venue and organizer."""
    venue: int
    organizer: int


def seed_protected(api: Api) -> Protected:
    db = api.database
    venue = api.run(
        lambda: factories.make_venue(
            db,
            "Locked Hall",
            post_password="vpw",
            description=f"The hall of the {VENUE_SECRET}.",
            excerpt=f"Short {VENUE_SECRET}",
            city="Springfield",
        )
    )
    organizer = api.run(
        lambda: factories.make_organizer(
            db,
            "Locked Org",
            post_password="opw",
            description=f"Run by the {ORGANIZER_SECRET}.",
            excerpt=f"Short {ORGANIZER_SECRET}",
        )
    )
    event = api.run(
        lambda: factories.make_event(
            db,
            "Closed Rehearsal",
            post_password="epw",
            description=f"Bring the {EVENT_SECRET} along.",
            excerpt=f"The {EXCERPT_SECRET} excerpt.",
            venue_id=venue,
            organizer_ids=(organizer,),
        )
    )
    open_event = api.run(
        lambda: factories.make_event(
            db,
            "Open Concert",
            start="2026-12-16 19:00:00",
            description="Everyone welcome.",
            venue_id=venue,
            organizer_ids=(organizer,),
        )
    )
    translations = [
        (f"events/{event}", "de", {"description": f"Das {GERMAN_SECRET}.", "excerpt": "Kurz"}),
        (f"events/{event}", "es", {"description": f"El {SPANISH_SECRET}."}),
        (f"venues/{venue}", "de", {"description": f"Halle {GERMAN_SECRET}"}),
        (f"organizers/{organizer}", "de", {"description": f"Veranstalter {GERMAN_SECRET}"}),
    ]
    for path, language, fields in translations:
        response = api.patch(f"{NS}/{path}?translation_language={language}", json=fields)
        assert response.status_code == 200, response.text
    return Protected(event, open_event, venue, organizer)


def assert_no_secret(response: Any, where: str) -> None:
    text = response.text.lower()
    for secret in SECRETS:
        assert secret not in text, f"{secret} leaked through {where}: {response.text[:500]}"


def with_query(path: str, *parts: str) -> str:
    query = "&".join(p for p in parts if p)
    return f"{path}?{query}" if query else path


@pytest.mark.parametrize("role", [None, "subscriber"])
def test_protected_event_single_reads_are_refused_in_every_variant(
    api: Api, role: str | None
) -> None:
    p = seed_protected(api)
    slug = api.get(f"{NS}/events/{p.event}?password=epw").json()["slug"]
    for base in (
        f"{NS}/events/{p.event}",
        f"{NS}/events/by-slug/{slug}",
        f"/de{NS}/events/{p.event}",
    ):
        for extra in (
            "",
            "password=wrong",
            "password=EPW",
            "password=vpw",
            "context=edit",
            "_fields=description,excerpt",
            "_fields=json_ld",
        ):
            for language in LANGUAGE_QUERIES:
                path = with_query(base, extra, language)
                response = api.get(path, as_=role)
                assert response.status_code == 403, path
                assert response.json()["code"] == "event-password-protected", path
                assert_no_secret(response, path)
        envelope = api.get(with_query(base, "_envelope", "translation_language=de"), as_=role)
        assert envelope.status_code == 200
        assert envelope.json()["status"] == 403
        assert_no_secret(envelope, f"{base}?_envelope")


@pytest.mark.parametrize("role", [None, "subscriber"])
def test_protected_content_is_blanked_in_every_listing_and_embedding(
    api: Api, role: str | None
) -> None:
    p = seed_protected(api)
    paths = [
        f"{NS}/events",
        f"{NS}/events?include={p.event}",
        f"{NS}/events?password=epw",
        f"{NS}/events?context=edit",
        f"{NS}/events?_fields=description,excerpt",
        f"{NS}/events?_fields=events.description",
        f"{NS}/events?_envelope",
        f"{NS}/events/{p.open_event}",
        f"{NS}/events/{p.open_event}?password=epw",
        f"{NS}/events/{p.open_event}?_fields=venue,organizer",
        f"{NS}/venues",
        f"{NS}/venues?event={p.open_event}",
        f"{NS}/venues/{p.venue}",
        f"{NS}/venues/{p.venue}?password=wrong",
        f"{NS}/venues/{p.venue}?password=epw",
        f"{NS}/venues/by-slug/locked-hall",
        f"{NS}/venues/{p.venue}?_fields=description,excerpt,json_ld",
        f"{NS}/organizers",
        f"{NS}/organizers/{p.organizer}",
        f"{NS}/organizers/{p.organizer}?password=vpw",
        f"{NS}/organizers/by-slug/locked-org",
        f"{NS}/organizers?event={p.open_event}&_envelope",
    ]
    for path in paths:
        for language in LANGUAGE_QUERIES:
            full = path + ("&" if "?" in path else "?") + language if language else path
            response = api.get(full, as_=role)
            assert response.status_code == 200, (full, response.text)
            assert_no_secret(response, full)
    for prefix in ("/de", "/es"):
        for path in (f"{NS}/events", f"{NS}/events/{p.open_event}", f"{NS}/venues/{p.venue}"):
            response = api.get(prefix + path, as_=role, headers={"Accept-Language": "de"})
            assert response.status_code == 200
            assert_no_secret(response, prefix + path)
    listed = api.get(f"{NS}/events?include={p.event}", as_=role).json()["events"][0]
    assert (listed["title"], listed["description"], listed["excerpt"]) == (
        "Closed Rehearsal",
        "",
        "",
    )
    embedded = api.get(f"{NS}/events/{p.open_event}", as_=role).json()
    assert embedded["venue"]["venue"] == "Locked Hall"
    assert "description" not in embedded["venue"] and "json_ld" not in embedded["venue"]
    assert embedded["organizer"][0]["organizer"] == "Locked Org"
    assert "description" not in embedded["organizer"][0]


@pytest.mark.parametrize("role", [None, "subscriber"])
def test_search_does_not_look_into_protected_content(api: Api, role: str | None) -> None:
    p = seed_protected(api)

    def event_ids(query: str) -> list[int]:
        response = api.get(f"{NS}/events?{query}", as_=role)
        assert response.status_code in (200, 404), response.text
        return [e["id"] for e in response.json().get("events", [])]

    for secret in (EVENT_SECRET, EXCERPT_SECRET, GERMAN_SECRET, SPANISH_SECRET):
        for language in LANGUAGE_QUERIES:
            assert event_ids(f"search={secret}&{language}") == [], (secret, language)
        # An excluded word is no oracle either: the protected event stays listed.
        assert p.event in event_ids(f"search=-{secret}&translation_language=de")
    assert event_ids("search=Rehearsal") == [p.event]  # the title is public
    for plural, secret in (("venues", VENUE_SECRET), ("organizers", ORGANIZER_SECRET)):
        for query in (f"search={secret}", f"search={GERMAN_SECRET}&translation_language=de"):
            response = api.get(f"{NS}/{plural}?{query}", as_=role)
            assert response.status_code == 200
            assert response.json()["total"] == 0, (plural, query)
        assert api.get(f"{NS}/{plural}?search=Locked", as_=role).json()["total"] == 1


def test_the_right_password_and_an_editor_do_see_protected_content(api: Api) -> None:
    p = seed_protected(api)
    right = api.get(f"{NS}/events/{p.event}?password=epw")
    assert right.status_code == 200
    assert EVENT_SECRET in right.json()["description"]
    assert EXCERPT_SECRET in right.json()["excerpt"]
    german = api.get(f"{NS}/events/{p.event}?password=epw&translation_language=de")
    assert GERMAN_SECRET in german.json()["description"]
    for role in ("editor", "administrator"):
        edit = api.get(f"{NS}/events/{p.event}?context=edit", as_=role)
        assert edit.status_code == 200
        assert EVENT_SECRET in edit.json()["description"]
        assert VENUE_SECRET in edit.json()["venue"]["description"]
        assert ORGANIZER_SECRET in edit.json()["organizer"][0]["description"]
        listed = api.get(f"{NS}/events?context=edit&include={p.event}", as_=role)
        assert EVENT_SECRET in listed.json()["events"][0]["description"]
        embedded = api.get(f"{NS}/events/{p.open_event}?context=edit", as_=role).json()
        assert VENUE_SECRET in embedded["venue"]["description"]
        found = api.get(f"{NS}/events?search={EVENT_SECRET}", as_=role).json()
        assert [e["id"] for e in found["events"]] == [p.event]
        assert api.get(f"{NS}/venues?search={VENUE_SECRET}", as_=role).json()["total"] == 1
    venue = api.get(f"{NS}/venues/{p.venue}?password=vpw")
    assert VENUE_SECRET in venue.json()["description"]
    organizer = api.get(f"{NS}/organizers/{p.organizer}?password=opw&translation_language=de")
    assert GERMAN_SECRET in organizer.json()["description"]


# --- 2. CORS and security headers ----------------------------------------------------------

ORIGIN = "https://app.example.org"
NEW_EVENT = {"title": "New", "start_date": "2027-01-01 10:00", "end_date": "2027-01-01 11:00"}
SECURITY = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
    "referrer-policy": "no-referrer",
}
EXPOSED = ("X-WP-Total", "X-WP-TotalPages", "X-TEC-Total", "X-TEC-TotalPages", "Link", "ETag")


def header_list(response: Any, name: str) -> list[str]:
    return [part.strip().lower() for part in response.headers.get(name, "").split(",")]


def assert_cors(response: Any, origin: str = ORIGIN) -> None:
    assert response.headers["access-control-allow-origin"] == origin
    assert response.headers["access-control-allow-credentials"] == "true"
    assert set(header_list(response, "access-control-allow-methods")) == {
        "options",
        "get",
        "post",
        "put",
        "patch",
        "delete",
    }
    assert "origin" in header_list(response, "vary")
    assert {h.lower() for h in EXPOSED} <= set(
        header_list(response, "access-control-expose-headers")
    )


def assert_security_headers(response: Any) -> None:
    for name, value in SECURITY.items():
        assert response.headers.get(name) == value, (name, response.status_code)


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


# --- 3. limits: a clear 4xx in the error shape, and nothing changed -------------------------


def data_version(api: Api) -> int:
    from eventcal.storage.db import data_version as version

    async def read() -> int:
        async with api.database.read() as conn:
            return await version(conn)

    return api.run(read)


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text[:300]
    body: dict[str, Any] = response.json()
    assert body["code"] == code, body
    assert isinstance(body["message"], str) and body["message"]
    assert body["data"]["status"] == status
    return body


def assert_invalid(response: Any, param: str, message_part: str = "") -> None:
    body = assert_error(response, 400, "rest_invalid_param")
    assert param in body["data"]["params"], body
    assert message_part in body["data"]["params"][param], body


def nothing_changes(api: Api) -> Any:
    """Take the data version (every committed write); the returned check asserts it is the
    same. Call it after seeding and before the refused writes."""
    for role in ("administrator", "editor"):  # users made and logged in (last use) before
        assert api.get(f"{NS}/events", as_=role).status_code == 200
    before = data_version(api)

    def check() -> None:
        assert data_version(api) == before

    return check


def event_body(**fields: Any) -> dict[str, Any]:
    return {**NEW_EVENT, **fields}


def test_bodies_over_the_limit_are_413_in_the_error_shape(api: Api) -> None:
    unchanged = nothing_changes(api)
    oversized = b'{"title": "' + b"x" * 1_048_576 + b'"}'
    declared = api.post(
        f"{NS}/events", content=oversized, headers={"Content-Type": "application/json"}
    )
    body = assert_error(declared, 413, "rest_request_too_large")
    assert "1048576" in body["message"]

    def chunks() -> Any:  # no Content-Length: the limit is enforced while reading
        for _ in range(20):
            yield b"x" * 65_536

    streamed = api.post(
        f"{NS}/venues",
        content=chunks(),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert_error(streamed, 413, "rest_request_too_large")
    unchanged()


def test_per_page_above_the_cap_is_capped_without_an_error(api: Api) -> None:
    for path in ("/events", "/venues", "/organizers", "/categories", "/tags"):
        response = api.get(f"{NS}{path}?per_page=1000")
        assert response.status_code == 200, path
        if path in ("/events", "/venues", "/organizers"):
            assert "per_page=50" in response.json()["rest_url"], path
    for value in ("1e400", "1e3", str(2**70), "-1", "0", "NaN", "ten"):
        assert_invalid(api.get(f"{NS}/events?per_page={value}"), "per_page")
    assert_invalid(api.get(f"{NS}/events?page={2**70}"), "page")


@pytest.mark.parametrize(
    ("path", "body", "param", "message"),
    [
        ("/events", event_body(title="x" * 1_000_000), "title", "longer than 1000"),
        ("/events", event_body(description="d" * 900_000), "description", "longer than 65535"),
        ("/events", event_body(excerpt="e" * 70_000), "excerpt", "longer than"),
        ("/events", event_body(slug="s" * 10_000), "slug", "longer than"),
        ("/venues", {"venue": "v" * 100_000}, "venue", "longer than"),
        ("/organizers", {"organizer": "o" * 100_000}, "organizer", "longer than"),
        ("/categories", {"name": "c" * 100_000}, "name", "longer than"),
        ("/tags", {"name": "t" * 100_000, "description": "short"}, "name", "longer than"),
    ],
)
def test_very_long_strings_are_refused_by_name(
    api: Api, path: str, body: dict[str, Any], param: str, message: str
) -> None:
    unchanged = nothing_changes(api)
    assert_invalid(api.post(NS + path, json=body), param, message)
    unchanged()


@pytest.mark.parametrize(
    ("body", "param", "limit"),
    [
        (event_body(categories=list(range(1, 10_001))), "categories", 100),
        (event_body(tags=[f"tag{i}" for i in range(10_000)]), "tags", 100),
        (event_body(tags=",".join(f"t{i}" for i in range(10_000))), "tags", 100),
        (event_body(organizer=list(range(1, 10_001))), "organizer", 100),
        (event_body(organizer=[{"organizer": f"O{i}"} for i in range(10_000)]), "organizer", 100),
    ],
)
def test_huge_arrays_in_writes_name_the_limit(
    api: Api, body: dict[str, Any], param: str, limit: int
) -> None:
    unchanged = nothing_changes(api)
    response = api.post(f"{NS}/events", json=body)
    assert_invalid(response, param, f"has more than {limit} items")
    german = api.post(f"{NS}/events?translation_language=de", json=body)
    assert_invalid(german, param, f"hat mehr als {limit} Einträge")
    unchanged()


@pytest.mark.parametrize(
    ("path", "param", "limit"),
    [
        ("/events?include={ids}", "include", 500),
        ("/events?venue={ids}", "venue", 500),
        ("/events?categories={ids}", "categories", 100),
        ("/events?tags={names}", "tags", 100),
        ("/venues?event={ids}", "event", None),
        ("/categories?include={ids}", "include", 500),
        ("/tags?exclude={ids}", "exclude", 500),
    ],
)
def test_huge_lists_in_queries_name_the_limit(
    api: Api, path: str, param: str, limit: int | None
) -> None:
    ids = ",".join(str(i) for i in range(1, 10_001))
    names = ",".join(f"t{i}" for i in range(1, 5_001))
    response = api.get(NS + path.format(ids=ids, names=names))
    assert_invalid(response, param, f"has more than {limit} items" if limit else "")


def test_deeply_nested_json_is_a_clean_400(api: Api) -> None:
    unchanged = nothing_changes(api)
    deep = b"[" * 1000 + b"]" * 1000
    for field in (b"title", b"categories", b"venue", b"organizer", b"cost", b"image"):
        content = (
            b'{"title": "T", "start_date": "2027-01-01", "end_date": "2027-01-01", "'
            + field
            + b'": '
            + deep
            + b"}"
        )
        response = api.post(
            f"{NS}/events", content=content, headers={"Content-Type": "application/json"}
        )
        assert_invalid(response, field.decode())
    objects = b'{"a":' * 1000 + b"1" + b"}" * 1000
    response = api.post(
        f"{NS}/venues", content=objects, headers={"Content-Type": "application/json"}
    )
    assert_error(response, 400, "rest_missing_callback_param")
    too_deep = b'{"title":' + b"[" * 2000 + b"]" * 2000 + b"}"
    response = api.post(
        f"{NS}/events", content=too_deep, headers={"Content-Type": "application/json"}
    )
    assert_error(response, 400, "rest_invalid_json")
    query = api.get(f"{NS}/events?search" + "[a]" * 1000 + "=x")
    assert query.status_code == 200  # too-deep bracket keys are dropped, as PHP does
    unchanged()


def test_nul_bytes_are_refused_in_bodies_queries_and_paths(api: Api) -> None:
    event_id = api.run(lambda: factories.make_event(api.database, "Nul", slug="nul"))
    unchanged = nothing_changes(api)
    assert_invalid(api.post(f"{NS}/events", json=event_body(title="a\x00b")), "title", "NUL")
    assert_invalid(api.post(f"{NS}/venues", json={"venue": "V\x00"}), "venue", "NUL")
    assert_invalid(api.post(f"{NS}/tags", json={"name": "\x00"}), "name", "NUL")
    form = api.post(
        f"{NS}/events",
        content=b"title=a%00b&start_date=2027-01-01&end_date=2027-01-01",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert_invalid(form, "title", "NUL")
    assert_invalid(
        api.patch(f"{NS}/events/{event_id}", json={"description": "x\x00"}), "description"
    )
    assert_invalid(api.get(f"{NS}/events?search=a%00b"), "search", "NUL")
    assert_invalid(api.get(f"{NS}/events?start_date=2027-01-01%00"), "start_date")
    # Slugs are normalised (spec README §8: characters outside a-z 0-9 _ - are dropped).
    assert api.get(f"{NS}/events/by-slug/nul%00").json()["id"] == event_id
    assert_invalid(api.get(f"{NS}/events/by-slug/%00"), "slug")
    assert_error(api.get(f"{NS}/events/{event_id}%00"), 404, "rest_no_route")
    assert_error(api.get(f"{NS}%00/events"), 404, "rest_no_route")
    unchanged()
    assert api.get(f"{NS}/events/{event_id}").json()["description"] == ""


def test_invalid_utf8_is_refused_in_queries_and_bodies(api: Api) -> None:
    event_id = api.run(lambda: factories.make_event(api.database, "Bytes"))
    unchanged = nothing_changes(api)
    assert_invalid(api.get(f"{NS}/events?search=%ff%fe"), "search", "not valid UTF-8")
    assert_invalid(api.get(f"{NS}/events?search=ok&utm%ff=1"), "utm\ufffd", "UTF-8")
    assert_invalid(api.get(f"{NS}/venues?search=%c3"), "search", "UTF-8")
    german = api.get(f"{NS}/events?search=%ff&translation_language=de")
    assert german.json()["data"]["params"]["search"] == "search ist kein gültiges UTF-8."
    assert api.get(f"{NS}/events?search=%C3%BCber").status_code == 200  # valid UTF-8 is fine
    form = api.post(
        f"{NS}/events",
        content=b"title=%ff&start_date=2027-01-01&end_date=2027-01-01",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert_invalid(form, "title", "UTF-8")
    raw_form = api.patch(
        f"{NS}/events/{event_id}",
        content=b"description=\xc3\x28",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert_invalid(raw_form, "description", "UTF-8")
    json_body = api.post(
        f"{NS}/events",
        content=b'{"title": "\xff\xfe", "start_date": "2027-01-01", "end_date": "2027-01-01"}',
        headers={"Content-Type": "application/json"},
    )
    assert_error(json_body, 400, "rest_invalid_json")
    path = api.get(f"{NS}/events/by-slug/%ff%fe")
    assert_invalid(path, "slug")
    unchanged()
    assert api.get(f"{NS}/events/{event_id}").json()["title"] == "Bytes"


def test_huge_numbers_are_refused_or_not_found(api: Api) -> None:
    event_id = api.run(lambda: factories.make_event(api.database, "Numbers"))
    unchanged = nothing_changes(api)
    huge = 2**70
    assert_error(api.get(f"{NS}/events/{huge}"), 404, "rest-event-not-found")
    assert_error(api.patch(f"{NS}/events/{huge}", json={"title": "x"}), 404, "rest-event-not-found")
    assert_error(api.delete(f"{NS}/events/{huge}"), 404, "rest-event-not-found")
    assert_invalid(api.get(f"{NS}/venues/{huge}"), "id")
    assert_invalid(api.delete(f"{NS}/organizers/{huge}"), "id")
    assert_invalid(api.get(f"{NS}/categories/{huge}"), "id")
    assert_invalid(api.get(f"{NS}/events?include={huge}"), "include")
    assert_invalid(api.get(f"{NS}/events?venue={huge}"), "venue")
    assert_invalid(api.get(f"{NS}/events?start_date={huge}"), "start_date")
    assert_invalid(api.get(f"{NS}/events?geoloc_lat=1e400&geoloc_lng=1"), "geoloc_lat")
    for field, value in (
        ("venue", huge),
        ("organizer", [huge]),
        ("categories", [huge]),
        ("image", huge),
    ):
        response = api.patch(f"{NS}/events/{event_id}", json={field: value})
        assert_invalid(response, field)
    infinite = api.post(
        f"{NS}/events",
        content=b'{"title": "T", "start_date": "2027-01-01", "end_date": "2027-01-01", '
        b'"venue": 1e400}',
        headers={"Content-Type": "application/json"},
    )
    assert_error(infinite, 400, "rest_invalid_json")
    timestamp = api.post(f"{NS}/events", json=event_body(start_date=str(huge), end_date=str(huge)))
    assert_invalid(timestamp, "start_date")
    unchanged()


def test_sql_metacharacters_are_plain_text(api: Api) -> None:
    first = api.run(lambda: factories.make_event(api.database, "Plain One"))
    api.run(lambda: factories.make_event(api.database, "Plain Two", start="2026-12-17 10:00:00"))
    percent = api.run(
        lambda: factories.make_event(api.database, "100% fun", start="2026-12-18 10:00:00")
    )

    def ids(query: str) -> list[int]:
        response = api.get(f"{NS}/events?{query}")
        assert response.status_code == 200, response.text
        return [e["id"] for e in response.json()["events"]]

    assert len(ids("")) == 3
    for injection in ("' OR 1=1 --", '" OR ""="', "1; DROP TABLE event", "') OR ('a'='a", "\\"):
        assert ids(f"search={injection}") == [], injection
    assert ids("search=%25") == [percent]  # % is a character, not a wildcard
    assert ids("search=_") == []
    assert_invalid(api.get(f"{NS}/events/by-slug/x' OR '1'='1"), "slug")
    assert_invalid(api.get(f"{NS}/events?include=1) OR (1=1"), "include")
    assert_invalid(api.get(f"{NS}/events?status=publish') OR ('1'='1", as_="editor"), "status")
    assert api.get(f"{NS}/categories?orderby=name;DROP TABLE term").status_code in (200, 400)
    title = "Robert'); DROP TABLE event;--"
    unchanged = nothing_changes(api)
    created = api.post(f"{NS}/events", json=event_body(title=title, description="%_\\'\""))
    assert created.status_code == 201
    with pytest.raises(AssertionError):  # the check does see a committed write
        unchanged()
    again = api.get(f"{NS}/events/{created.json()['id']}").json()
    assert (again["title"], again["description"]) == (title, "<p>%_\\'\"</p>")
    assert len(ids("")) == 4  # the new one, and the others intact
    assert api.get(f"{NS}/events/{first}").status_code == 200

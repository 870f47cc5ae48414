"""What ``test_password_protection.py``, ``test_cors_and_security_headers.py``,
``test_hostile_input.py`` share. They were one module:

Hostile callers and leaks (issue 6): password-protected content never shows through any
route or parameter (spec README §6.4), CORS and security headers on every response, and limits
that answer a clear 4xx in the error shape and change nothing (DEVIATIONS #19: no client input
produces a 500).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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

"""Who manages categories and tags, and what ``Allow`` lists per role (issue 6;
spec terms.md, README §9)."""

from __future__ import annotations

from typing import Any

import pytest

from eventcal.storage.tables import TAG_TAXONOMY
from tests import factories
from tests.conftest import NS, Api
from tests.cross.permission_helpers import (
    POST_LIKE_ALLOW,
    ROLES,
    TAXONOMIES,
    TERM_ALLOW,
    WRITERS,
    Taxonomy,
    caller,
    error,
    refused,
    term_names,
)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("taxonomy", TAXONOMIES)
def test_terms(api: Api, taxonomy: Taxonomy, role: str) -> None:
    db, base, who, tv = api.database, f"{NS}/{taxonomy.plural}", caller(role), taxonomy.value
    keep = api.run(lambda: factories.make_term(db, "Keep", taxonomy=taxonomy.value))
    doomed = api.run(lambda: factories.make_term(db, "Doomed", taxonomy=taxonomy.value))

    def outcome(response: Any) -> tuple[int, str | None, set[str]]:
        return response.status_code, error(response), term_names(api, tv)

    listing = api.get(f"{base}?hide_empty=0", as_=who)
    actual: dict[str, Any] = {
        "list": (listing.status_code, sorted(t["id"] for t in listing.json()[taxonomy.plural])),
        "read": api.get(f"{base}/{keep}", as_=who).status_code,
        "create": outcome(api.post(base, json={"name": "Fresh"}, as_=who)),
        "update": outcome(api.patch(f"{base}/{keep}", json={"name": "Renamed"}, as_=who)),
        "delete": outcome(api.delete(f"{base}/{doomed}", as_=who)),
        "delete again": outcome(api.delete(f"{base}/{doomed}", as_=who)),
        "update unknown": outcome(api.patch(f"{base}/987654", json={"name": "x"}, as_=who)),
        "delete unknown": outcome(api.delete(f"{base}/987654", as_=who)),
    }
    untouched = {"Keep", "Doomed"}
    invalid = (400, "rest_invalid_param")
    if role in taxonomy.managers:
        expected: dict[str, Any] = {
            "create": (201, None, {"Keep", "Doomed", "Fresh"}),
            "update": (200, None, {"Renamed", "Doomed", "Fresh"}),
            # Terms are deleted for good: no trash, and a second delete finds nothing (400).
            "delete": (200, None, {"Renamed", "Fresh"}),
            "delete again": (*invalid, {"Renamed", "Fresh"}),
            "update unknown": (*invalid, {"Renamed", "Fresh"}),
            "delete unknown": (*invalid, {"Renamed", "Fresh"}),
        }
    else:
        expected = {
            "create": (*refused(role), untouched),
            "update": (*refused(role), untouched),
            "delete": (*refused(role), untouched),
            "delete again": (*refused(role), untouched),
            # An unknown id is a parameter error, found before permissions (terms.md §5/§6).
            "update unknown": (*invalid, untouched),
            "delete unknown": (*invalid, untouched),
        }
    expected = {"list": (200, sorted([keep, doomed])), "read": 200, **expected}
    assert actual == expected


@pytest.mark.parametrize("role", ROLES)
def test_allow_header_lists_what_the_role_may_do(api: Api, role: str) -> None:
    db = api.database
    items = {
        "events": api.run(lambda: factories.make_event(db, "E", slug="e")),
        "venues": api.run(lambda: factories.make_venue(db, "V")),
        "organizers": api.run(lambda: factories.make_organizer(db, "O")),
        "categories": api.run(lambda: factories.make_term(db, "C")),
        "tags": api.run(lambda: factories.make_term(db, "T", taxonomy=TAG_TAXONOMY)),
    }
    writers = {
        "events": WRITERS,
        "venues": WRITERS,
        "organizers": WRITERS,
        "categories": ("author", "editor", "administrator"),
        "tags": ("editor", "administrator"),
    }
    actual: dict[str, Any] = {}
    expected: dict[str, Any] = {}
    for plural, item_id in items.items():
        read_only, collection, single = (
            TERM_ALLOW if plural in ("categories", "tags") else POST_LIKE_ALLOW
        )
        allowed = role in writers[plural]
        for suffix, full in (("", collection), (f"/{item_id}", single)):
            response = api.get(f"{NS}/{plural}{suffix}", as_=caller(role))
            actual[f"{plural}{suffix}"] = (response.status_code, response.headers["Allow"])
            expected[f"{plural}{suffix}"] = (200, full if allowed else read_only)
    assert actual == expected

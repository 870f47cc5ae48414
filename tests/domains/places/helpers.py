"""What ``test_reading.py``, ``test_updating.py``, ``test_listing.py``, ``test_creating.py``
share. They were one module:

Venues and organizers (spec venues.md, organizers.md; DEVIATIONS #1, #2, #10, #12–15, #18).

Both collections run on the same generic routes; each test runs for both, from a small
declaration per collection (STYLE habit 12).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from tests import factories
from tests.conftest import NS, Api


@dataclass(frozen=True)
class Collection:
    name: str
    plural: str
    full: dict[str, Any]
    text_fields: tuple[str, ...]
    search_hit: tuple[str, str]
    """(field, value) that search must find by a fragment of it."""

    def path(self, suffix: str = "") -> str:
        return f"{NS}/{self.plural}{suffix}"


VENUES = Collection(
    "venue",
    "venues",
    {
        "venue": "Philharmonie Berlin",
        "description": "<p>Concert hall in Tiergarten.</p>",
        "address": "Herbert-von-Karajan-Str. 1",
        "city": "Berlin",
        "country": "Germany",
        "province": "Berlin",
        "zip": "10785",
        "phone": "+49 30 254880",
        "website": "https://example.test/philharmonie",
        "show_map": "true",
        "show_map_link": "false",
    },
    ("address", "city", "country", "province", "state", "zip", "phone", "website"),
    ("zip", "223345"),
)


ORGANIZERS = Collection(
    "organizer",
    "organizers",
    {
        "organizer": "Berlin Events GmbH",
        "description": "<p>Promoter.</p>",
        "phone": "+49 30 1234567",
        "website": "https://example.test/berlin-events",
        "email": "info@example.test",
    },
    ("phone", "website", "email"),
    ("email", "three@three.com"),
)


BOTH = [pytest.param(VENUES, id="venues"), pytest.param(ORGANIZERS, id="organizers")]


def create(api: Api, c: Collection, as_: str | None = "administrator", **fields: Any) -> Any:
    return api.post(c.path(), json=fields or dict(c.full), as_=as_)


def make(api: Api, c: Collection, name: str, **fields: Any) -> int:
    maker = factories.make_venue if c is VENUES else factories.make_organizer
    return api.run(lambda: maker(api.database, name, **fields))

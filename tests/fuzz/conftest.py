"""Shared by the fuzz tests: a reproducible Hypothesis profile and a database with some data."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, settings

from tests import factories
from tests.conftest import NS, Api

# Reproducible in CI: a fixed seed per test, no example database written next to the sources.
settings.register_profile(
    "eventcal",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=False,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("eventcal")


@dataclass(frozen=True, slots=True)
class Seeded:
    """Ids and slugs of the rows :func:`seeded` creates."""

    event_ids: tuple[int, ...]
    venue_ids: tuple[int, ...]
    organizer_ids: tuple[int, ...]
    term_ids: tuple[int, ...]
    slugs: tuple[str, ...]

    @property
    def ids(self) -> tuple[int, ...]:
        return self.event_ids + self.venue_ids + self.organizer_ids + self.term_ids


@pytest.fixture
def seeded(api: Api) -> Seeded:
    """A few events of every kind with a venue, organizers, categories and tags, a German
    translation, and an administrator (``api.auth("administrator")``)."""
    db = api.database
    api.user("administrator")

    async def seed() -> Seeded:
        hall = await factories.make_venue(
            db, "Main Hall", city="Berlin", country="Germany", latitude=52.5, longitude=13.4
        )
        cellar = await factories.make_venue(db, "Cellar 100%_off", status="draft")
        jane = await factories.make_organizer(db, "Jane Org", email="jane@example.org")
        hidden = await factories.make_organizer(db, "Hidden Org", post_password="secret")
        concerts = await factories.make_term(db, "Concerts")
        jazz = await factories.make_term(db, "Jazz", parent_id=concerts)
        gala = await factories.make_term(db, "gala", taxonomy="post_tag")
        quote = await factories.make_term(db, "it's 50%", taxonomy="post_tag")
        events = (
            await factories.make_event(
                db,
                "Jazz night",
                venue_id=hall,
                organizer_ids=(jane, hidden),
                term_ids=(concerts, jazz, gala),
                cost=["15", "25"],
                featured=True,
            ),
            await factories.make_event(
                db, "Gala '; DROP TABLE event; --", start="2026-12-31 20:00:00", term_ids=(quote,)
            ),
            await factories.make_event(db, "Draft", status="draft", venue_id=cellar),
            await factories.make_event(db, "Binned", status="trash", start="2026-11-01 10:00:00"),
            await factories.make_event(db, "Secret", post_password="pw", timezone="Europe/Berlin"),
            await factories.make_event(
                db, "All day", all_day=True, start="2027-01-10 00:00:00", end="2027-01-10 23:59:59"
            ),
        )
        return Seeded(
            event_ids=events,
            venue_ids=(hall, cellar),
            organizer_ids=(jane, hidden),
            term_ids=(concerts, jazz, gala, quote),
            slugs=("jazz-night", "main-hall", "jane-org", "gala", "concerts", "no-such-slug"),
        )

    data = api.run(seed)
    translated = api.post(
        f"{NS}/events/{data.event_ids[0]}?translation_language=de",
        json={"title": "Jazznacht", "description": "Live-Jazz"},
    )
    assert translated.status_code == 200, translated.text
    return data

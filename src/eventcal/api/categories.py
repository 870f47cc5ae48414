"""Routes of the event categories collection (spec terms.md)."""

from __future__ import annotations

from eventcal.api import terms
from eventcal.http.router import Route
from eventcal.services.taxonomies import CATEGORIES


def routes() -> list[Route]:
    return terms.routes(CATEGORIES, "event category")

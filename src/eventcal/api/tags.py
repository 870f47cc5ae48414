"""Routes of the event tags collection (spec terms.md); tags have no parent."""

from __future__ import annotations

from eventcal.api import terms
from eventcal.http.router import Route
from eventcal.services.taxonomies import TAGS


def routes() -> list[Route]:
    return terms.routes(TAGS, "event tag")

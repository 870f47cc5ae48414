"""Everything HTTP: the ``cal/events/v1`` route table, in the original's registration order."""

from __future__ import annotations

from dataclasses import replace

from eventcal.api import categories, events, index, organizers, tags, venues
from eventcal.api.common import TRANSLATION_LANGUAGE
from eventcal.api.routing import Route, Router, Services


def _with_language(route: Route) -> Route:
    """Every endpoint takes ``translation_language`` (the seed)."""
    endpoints = tuple(replace(e, args=(*e.args, TRANSLATION_LANGUAGE)) for e in route.endpoints)
    return Route(route.pattern, endpoints, route.doc_path)


def build_routes() -> list[Route]:
    final: list[Route] = []
    table = [
        *index.routes(lambda: final),
        *events.routes(),
        *venues.routes(),
        *organizers.routes(),
        *categories.routes(),
        *tags.routes(),
    ]
    final.extend(_with_language(r) for r in table)
    return final


def build_router(services: Services) -> Router:
    return Router(build_routes(), services)


__all__ = ["Router", "Services", "build_router", "build_routes"]

"""Everything HTTP: the ``cal/events/v1`` route table, in the original's registration order."""

from __future__ import annotations

from dataclasses import replace

from eventcal.api import categories, events, index, organizers, tags, venues
from eventcal.api.common import TRANSLATION_LANGUAGE
from eventcal.http.router import Route, Router, Runtime


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


def build_router(runtime: Runtime) -> Router:
    return Router(build_routes(), runtime)


__all__ = ["build_router", "build_routes"]

"""The namespace index (``GET {ns}``), the documentation route (``GET {ns}/doc``), and the
route table of every collection."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from eventcal.context import NAMESPACE
from eventcal.errors import NotFound
from eventcal.http.args import Arg, Params
from eventcal.http.request import RequestState
from eventcal.http.responses import Reply
from eventcal.http.router import Endpoint, Route
from eventcal.resources.components import SHARED, ref
from eventcal.resources.formats import format_routes
from eventcal.resources.openapi import document
from eventcal.resources.parsers import TRANSLATION_LANGUAGE
from eventcal.resources.registry import Registry
from eventcal.resources.routes import routes as resource_routes


def _any_string(value: Any, state: RequestState) -> Any:
    return value


def routes(all_routes: Callable[[], Sequence[Route]], components: Mapping[str, Any]) -> list[Route]:
    """Index and doc routes; ``all_routes`` gives the complete table when a request comes,
    ``components`` the OpenAPI schemas of every collection."""

    async def index(state: RequestState, params: Params) -> Reply:
        """Describe every route of the namespace with its methods and parameters."""
        namespace = params.get("namespace")
        if namespace != NAMESPACE:
            raise NotFound("rest_invalid_namespace", "The specified namespace could not be found.")
        body = {
            "namespace": NAMESPACE,
            "routes": {
                f"/{NAMESPACE}{route.pattern}": route.describe(state) for route in all_routes()
            },
            "_links": {"up": [{"href": f"{state.urls.home}/"}]},
        }
        return Reply(body)

    async def doc(state: RequestState, params: Params) -> Reply:
        """The OpenAPI 3 document of this API, generated from the route tables."""
        return Reply(document(all_routes(), state, components))

    return [
        Route(
            "",
            (
                Endpoint(
                    ("GET",),
                    index,
                    (
                        Arg("namespace", "", _any_string, default=NAMESPACE),
                        Arg("context", "", _any_string, default="view"),
                    ),
                    summary=index.__doc__ or "",
                    responses={404: "Unknown namespace"},
                    response_schema=ref("Index"),
                ),
            ),
            "/",
        ),
        Route(
            "/doc",
            (
                Endpoint(
                    ("GET",),
                    doc,
                    (),
                    summary=doc.__doc__ or "",
                    response_schema=ref("OpenApiDocument"),
                ),
            ),
            "/doc",
        ),
    ]


def route_table(registry: Registry) -> list[Route]:
    """Every route of the namespace in the original's registration order: the index and the
    document, then each collection's; every endpoint takes ``translation_language``."""
    final: list[Route] = []
    components = {**SHARED, **{k: v for r in registry for k, v in r.components.items()}}
    # The original's routes in its order, then the routes it does not have.
    more = [rt for r in registry if r.more_routes is not None for rt in r.more_routes(r)]
    table = [
        *routes(lambda: final, components),
        *(rt for r in registry for rt in resource_routes(r)),
        *more,
        *(rt for r in registry for rt in format_routes(r)),
    ]
    final.extend(
        Route(
            route.pattern,
            tuple(replace(e, args=(*e.args, TRANSLATION_LANGUAGE)) for e in route.endpoints),
            route.doc_path,
        )
        for route in table
    )
    return final

"""The namespace index (``GET {ns}``) and the documentation route (``GET {ns}/doc``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from eventcal.api.openapi import document
from eventcal.context import NAMESPACE
from eventcal.errors import NotFound
from eventcal.http.args import Arg, Params
from eventcal.http.request import RequestState
from eventcal.http.responses import Reply
from eventcal.http.router import Endpoint, Route
from eventcal.schemas.openapi import ref


def _any_string(value: Any, state: RequestState) -> Any:
    return value


def routes(all_routes: Callable[[], Sequence[Route]]) -> list[Route]:
    """Index and doc routes; ``all_routes`` gives the complete table when a request comes."""

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
        return Reply(document(all_routes(), state))

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

"""``GET /events/{id}/occurrences``: a recurring event's occurrences in a window, paged."""

from __future__ import annotations

from eventcal.domains.events.listing import ARGS
from eventcal.errors import ApiError
from eventcal.http.args import Params
from eventcal.http.request import RequestState
from eventcal.http.responses import Reply, only_encoded
from eventcal.http.router import Endpoint, Route
from eventcal.i18n import N_
from eventcal.resources import service
from eventcal.resources.components import ref
from eventcal.resources.listing import ListQuery
from eventcal.resources.parsers import path_arg, path_id
from eventcal.resources.spec import Resource

OCCURRENCE_ARGS = tuple(
    a for a in ARGS if a.name in ("page", "per_page", "start_date", "end_date", "status")
)


async def list_occurrences(state: RequestState, params: Params) -> Reply:
    """The occurrences of a recurring event (by its series' id or one occurrence's id) in a
    window, paged, in start order."""
    resource = state.call.registry["events"]
    row = await service.find(state, resource, path_id(state))
    series_id = row["id"] if row["recurrence"] else row["series_id"]
    if series_id is None:
        raise ApiError(
            "rest-event-not-recurring", N_("Event {id} does not repeat."), 400, id=row["id"]
        )
    master = row if row["recurrence"] else await service.find(state, resource, int(series_id))
    resource.behaviour.check_read(resource, state.actor, master, None, state.context_edit)

    def narrow(query: ListQuery) -> None:
        query.on("series", series_id=int(series_id))

    path = f"events/{series_id}/occurrences"
    spliced = only_encoded(state.query)
    return await service.list_page(
        state, resource, params, narrow=narrow, path=path, spliced=spliced
    )


def occurrence_routes(resource: Resource) -> list[Route]:
    return [
        Route(
            r"/events/(?P<id>\d+)/occurrences",
            (
                Endpoint(
                    ("GET",),
                    list_occurrences,
                    (path_arg("id", "the event post ID", "integer"), *OCCURRENCE_ARGS),
                    summary="The occurrences of a recurring event (by its series' id or one "
                    "occurrence's id) in a window (start_date, end_date), paged, in start order; "
                    "status filters them as in the events listing.",
                    responses={400: "Not a recurring event", 404: "No such event"},
                    response_schema=ref("EventArchive"),
                    tag=resource.collection,
                ),
            ),
            "/events/{id}/occurrences",
        )
    ]

"""Other representations of a collection (iCalendar feeds): the same listing and the same read
as the JSON routes, rendered by the collection's :class:`~eventcal.resources.spec.Format`.

A feed runs the listing's ``prepare``/``count``/``rows`` and the pipeline's read rules, then
``present_shown``: the renderer sees exactly what the caller may see in JSON (protected content
blanked, unpublished items left out), plus the row for facts the JSON does not carry. Rendering
is CPU work, done in a worker thread so the event loop keeps serving.
"""

from __future__ import annotations

from collections.abc import Sequence

import anyio.to_thread

from eventcal.errors import ApiError
from eventcal.http.args import Params
from eventcal.http.request import RequestState
from eventcal.http.responses import Reply
from eventcal.http.router import Endpoint, Route
from eventcal.resources import service
from eventcal.resources.listing import ListQuery
from eventcal.resources.parsers import password_arg, path_arg, path_id
from eventcal.resources.present import present_shown
from eventcal.resources.spec import Format, Resource, Shown
from eventcal.storage.db import Row

PAGING = frozenset({"page", "per_page"})
BODY_SCHEMA = {"type": "string"}


async def _rendered(
    state: RequestState,
    resource: Resource,
    found: Format,
    shown: Sequence[Shown],
    query: ListQuery | None,
    *,
    password: str | None = None,
) -> Reply:
    call = state.call
    gathered = None
    if found.gather is not None:
        gathered = await found.gather(call, resource, shown, query, password)
    body = await anyio.to_thread.run_sync(found.render, call, resource, shown, gathered)
    return Reply(body, media_type=found.media_type)


async def render_list(
    state: RequestState, resource: Resource, found: Format, params: Params
) -> Reply:
    """Every item of the listing (no pages), up to the format's limit: beyond it a 400 that
    says how many matched and which setting limits them."""
    call = state.call
    listing = resource.listing
    limit = found.max_items(call.site)
    paged = Params({**params.values, "page": 1, "per_page": limit}, params.sent)
    query = await listing.prepare(state, paged, resource)
    total = query.total = await listing.count(call.conn, query)
    if total > limit:
        raise ApiError(
            "rest_feed_too_large",
            found.too_many,
            400,
            data={"total": total, "limit": limit},
            total=total,
            limit=limit,
            setting=found.setting,
        )
    rows: list[Row] = await listing.rows(call.conn, query) if total else []
    if query.include_order:
        position = {item_id: i for i, item_id in enumerate(query.include_order)}
        rows = sorted(rows, key=lambda r: position.get(int(r["id"]), 0))
    shown = await present_shown(call, resource, rows, context_edit=query.context_edit)
    reply = await _rendered(state, resource, found, shown, query)
    reply.cacheable = query.cacheable
    return reply


async def render_item(
    state: RequestState, resource: Resource, found: Format, row: Row, params: Params
) -> Reply:
    """One item, after the same checks as its JSON read (drafts, trash, passwords)."""
    call = state.call
    password = params.get("password")
    resource.behaviour.check_read(resource, call.actor, row, password, state.context_edit)
    shown = await present_shown(
        call, resource, [row], password=password, context_edit=state.context_edit
    )
    reply = await _rendered(state, resource, found, shown, None, password=password)
    reply.revision = int(row["revision"])
    return reply


def format_routes(resource: Resource) -> list[Route]:
    """``/{collection}.{ext}`` and ``/{collection}/{id}.{ext}`` for each format."""
    found_routes: list[Route] = []
    plural = resource.collection
    list_args = tuple(a for a in resource.listing.args if a.name not in PAGING)
    item_key = path_arg("id", resource.id_description, "integer")
    protects = resource.behaviour.protects
    item_args = (item_key, password_arg(resource.label)) if protects else (item_key,)
    for found in resource.formats:
        ext = found.extension
        summary = found.summary or f"The {plural} as {ext}"

        async def list_feed(state: RequestState, params: Params, found: Format = found) -> Reply:
            return await render_list(state, resource, found, params)

        async def item_feed(state: RequestState, params: Params, found: Format = found) -> Reply:
            row = await service.find(state, resource, path_id(state))
            return await render_item(state, resource, found, row, params)

        found_routes += [
            Route(
                rf"/{plural}\.{ext}",
                (
                    Endpoint(
                        ("GET",),
                        list_feed,
                        list_args,
                        summary=f"{summary}: every item the listing's filters match.",
                        responses={400: "Bad parameters, or too many items"},
                        response_schema=BODY_SCHEMA,
                        media_type=found.media_type,
                        tag=plural,
                    ),
                ),
                f"/{plural}.{ext}",
            ),
            Route(
                rf"/{plural}/(?P<id>\d+)\.{ext}",
                (
                    Endpoint(
                        ("GET",),
                        item_feed,
                        item_args,
                        summary=f"{summary}: one {resource.label}.",
                        responses={
                            400: "Bad parameters",
                            403: "Not accessible",
                            404: "No such item",
                        },
                        response_schema=BODY_SCHEMA,
                        media_type=found.media_type,
                        tag=plural,
                    ),
                ),
                f"/{plural}/{{id}}.{ext}",
            ),
        ]
    return found_routes

"""Generic routes for post-like collections whose items events link to (venues, organizers):
archive, create, read/update/delete by id and by slug. Each collection module states only its
fields; the behaviour lives here once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventcal.api import common
from eventcal.api.pagination import archive_reply
from eventcal.errors import invalid
from eventcal.http.args import Arg, Params, positive_int, truthy
from eventcal.http.request import RequestState
from eventcal.http.responses import Reply
from eventcal.http.router import Endpoint, Route
from eventcal.permissions import Actor, Cap
from eventcal.schemas.openapi import ref
from eventcal.services import linked_posts, posts
from eventcal.services.linked_posts import LinkedKind, LinkedListQuery
from eventcal.storage.db import Row


def can_write(actor: Actor) -> bool:
    return actor.can(Cap.EDIT_POSTS)


def can_delete(actor: Actor) -> bool:
    return actor.can(Cap.DELETE_POSTS)


def _any(value: Any, state: RequestState) -> Any:
    return value


def archive_args(label: str, plural: str) -> tuple[Arg, ...]:
    return (
        Arg("page", "The archive page to return", positive_int, type="integer", default=1),
        Arg(
            "per_page",
            f"The number of {plural} to return on each page",
            common.per_page,
            type="integer",
            default=lambda state: state.site.posts_per_page,
        ),
        Arg(
            "search",
            f"{plural.capitalize()} should contain the specified string in the title, "
            "description or custom fields",
            common.search,
            type="string",
        ),
        Arg(
            "event",
            f"{plural.capitalize()} should be related to this event",
            common.existing_event,
            type="integer",
        ),
        Arg("has_events", f"{plural.capitalize()} should have events associated to them", _any),
        Arg(
            "only_with_upcoming",
            f"{plural.capitalize()} should have upcoming events associated to them",
            _any,
            default=False,
        ),
        Arg("status", f"The {label} post status", common.status_list, format="string"),
    )


def _id(state: RequestState) -> int:
    return common.path_id(state)


async def _by_id(state: RequestState, kind: LinkedKind) -> Row:
    """The item of the path id; anything else is a parameter error (validated before
    permissions, as the original). Writes lock its row until they end."""
    lock = state.method not in ("GET", "HEAD")
    row = await linked_posts.find(state.conn, kind, _id(state), lock=lock)
    if row is None:
        raise invalid("id")
    return row


async def _by_slug(state: RequestState, kind: LinkedKind) -> Row:
    item_id = await posts.id_by_slug(
        state.conn, kind.post, state.path_params["slug"], state.call.translating
    )
    lock = state.method not in ("GET", "HEAD")
    row = None if item_id is None else await linked_posts.find(state.conn, kind, item_id, lock=lock)
    if row is None:
        raise invalid("slug")
    return row


def _require(actor: Actor, allowed: bool) -> None:
    if not allowed:
        raise posts.forbidden(actor)


def fields_sent(params: Params, names: Sequence[str]) -> dict[str, Any]:
    return {name: params[name] for name in names if name in params}


def routes(
    kind: LinkedKind,
    *,
    create_args: tuple[Arg, ...],
    update_args: tuple[Arg, ...],
    schema: str,
) -> list[Route]:
    """The six routes of a linked-post collection, in the original's registration order."""
    label, plural = kind.name, kind.collection
    field_names = [a.name for a in create_args]
    item_ref = ref(schema)

    async def list_items(state: RequestState, params: Params) -> Reply:
        has_events = params.get("has_events") if "has_events" in params else None
        query = LinkedListQuery(
            page=params["page"],
            per_page=params["per_page"],
            search=params.get("search"),
            event_id=params.get("event"),
            has_events=None if has_events is None else truthy(has_events),
            only_with_upcoming=truthy(params.get("only_with_upcoming", False)),
            statuses=params.get("status"),
            context_edit=state.context_edit,
        )
        page = await linked_posts.list_items(state.call, kind, query)
        reply = archive_reply(page, plural, state)
        # "Upcoming" moves with the clock, not only with the data.
        reply.cacheable = not query.only_with_upcoming
        return reply

    async def create_item(state: RequestState, params: Params) -> Reply:
        _require(state.actor, can_write(state.actor))
        fields = fields_sent(params, field_names)
        body = await linked_posts.create_and_present(state.call, kind, fields)
        reply = await written(state, body)
        reply.status = 201
        return reply

    async def written(state: RequestState, body: dict[str, Any]) -> Reply:
        """The reply to a write of one item: its body, tagged with its new revision."""
        item_id = int(body["id"])
        return Reply(body, revision=await posts.revision(state.conn, kind.post, item_id))

    async def read(state: RequestState, params: Params, row: Row) -> Reply:
        body = await linked_posts.read(
            state.call,
            kind,
            row,
            password=params.get("password"),
            context_edit=state.context_edit,
        )
        return Reply(body, revision=int(row["revision"]))

    async def update(state: RequestState, params: Params, row: Row) -> Reply:
        _require(state.actor, posts.may_edit(state.actor, row))
        common.require_unchanged(state, row)
        fields = fields_sent(params, field_names)
        return await written(state, await linked_posts.update(state.call, kind, row, fields))

    async def delete(state: RequestState, params: Params, row: Row) -> Reply:
        _require(state.actor, posts.may_delete(state.actor, row))
        common.require_unchanged(state, row)
        return await written(state, await linked_posts.trash(state.call, kind, row))

    async def get_by_id(state: RequestState, params: Params) -> Reply:
        return await read(state, params, await _by_id(state, kind))

    async def update_by_id(state: RequestState, params: Params) -> Reply:
        return await update(state, params, await _by_id(state, kind))

    async def delete_by_id(state: RequestState, params: Params) -> Reply:
        return await delete(state, params, await _by_id(state, kind))

    async def get_by_slug(state: RequestState, params: Params) -> Reply:
        return await read(state, params, await _by_slug(state, kind))

    async def update_by_slug(state: RequestState, params: Params) -> Reply:
        return await update(state, params, await _by_slug(state, kind))

    async def delete_by_slug(state: RequestState, params: Params) -> Reply:
        return await delete(state, params, await _by_slug(state, kind))

    list_items.__doc__ = f"List {plural}, newest first."
    create_item.__doc__ = f"Create a {label}, or return the identical one that exists."
    get_by_id.__doc__ = f"Read one {label}."
    update_by_id.__doc__ = f"Update a {label}: only the fields sent change."
    delete_by_id.__doc__ = f"Move a {label} to the trash and unlink it from its events."
    get_by_slug.__doc__ = f"Read one {label} by slug."
    update_by_slug.__doc__ = f"Update a {label} found by slug."
    delete_by_slug.__doc__ = f"Trash a {label} found by slug."

    id_arg = common.path_arg("id", f"the {label} post ID", "integer")
    slug_arg = common.path_arg("slug", f"the {label} post name", "string")
    password = common.PASSWORD_ARG
    read_errors = {400: f"No such {label}", 403: "Not accessible"}
    write_errors = {400: "Bad parameters", 401: "Not authenticated", 403: "Not allowed"}
    delete_errors = {**write_errors, 410: "Already in the trash"}

    def single(pattern: str, doc_path: str, key: Arg, handlers: tuple[Any, Any, Any]) -> Route:
        get, delete_handler, update_handler = handlers
        return Route(
            pattern,
            (
                Endpoint(
                    ("GET",),
                    get,
                    (key, password),
                    summary=get.__doc__,
                    responses=read_errors,
                    response_schema=item_ref,
                ),
                Endpoint(
                    ("DELETE",),
                    delete_handler,
                    (key,),
                    allowed=can_delete,
                    summary=delete_handler.__doc__,
                    responses=delete_errors,
                    response_schema=item_ref,
                    writes=True,
                ),
                Endpoint(
                    ("POST", "PUT", "PATCH"),
                    update_handler,
                    (key, *update_args),
                    allowed=can_write,
                    summary=update_handler.__doc__,
                    responses=write_errors,
                    response_schema=item_ref,
                    writes=True,
                ),
            ),
            doc_path,
        )

    return [
        Route(
            f"/{plural}",
            (
                Endpoint(
                    ("GET",),
                    list_items,
                    archive_args(label, plural),
                    summary=list_items.__doc__ or "",
                    responses={400: "Bad parameters", 404: "Page past the end"},
                    response_schema=ref(f"{schema}Archive"),
                ),
                Endpoint(
                    ("POST",),
                    create_item,
                    create_args,
                    allowed=can_write,
                    summary=create_item.__doc__ or "",
                    responses=write_errors,
                    response_schema=item_ref,
                    success_status=201,
                    writes=True,
                ),
            ),
            f"/{plural}",
        ),
        single(
            rf"/{plural}/(?P<id>\d+)",
            f"/{plural}/{{id}}",
            id_arg,
            (get_by_id, delete_by_id, update_by_id),
        ),
        single(
            rf"/{plural}/by-slug/(?P<slug>[^/]+)",
            f"/{plural}/by-slug/{{slug}}",
            slug_arg,
            (get_by_slug, delete_by_slug, update_by_slug),
        ),
    ]

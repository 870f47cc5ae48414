"""The routes of any declared collection, in the original's registration order:
``/{collection}`` (list, create), ``/{collection}/{id}`` and, for posts,
``/{collection}/by-slug/{slug}`` (read, update, delete). Handlers only find the item and call
the pipeline (:mod:`eventcal.resources.service`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from eventcal.http.args import Arg, Params, boolean
from eventcal.http.request import RequestState
from eventcal.http.responses import Reply, only_encoded
from eventcal.http.router import Endpoint, Handler, Route
from eventcal.resources import service
from eventcal.resources.components import ref
from eventcal.resources.parsers import password_arg, path_arg, path_id
from eventcal.resources.spec import Resource
from eventcal.storage.db import Row

Finder = Callable[[RequestState, Resource, str], Awaitable[Row]]
UPDATE_METHODS = ("POST", "PUT", "PATCH")


def _deleted(item: dict[str, Any]) -> dict[str, Any]:
    """A ``DELETE``'s answer: the trashed item, or (``force``) what was deleted for good."""
    gone = {
        "type": "object",
        "properties": {"deleted": {"type": "boolean"}, "previous": item},
        "required": ["deleted", "previous"],
    }
    return {"oneOf": [item, gone]}


FORCE = Arg(
    "force",
    "Whether to bypass the trash and delete the item for good",
    boolean("force"),
    type="boolean",
    default=False,
)


@dataclass(frozen=True, slots=True)
class Summaries:
    """One line per operation: the OpenAPI summary (the collection may word its own)."""

    list: str
    create: str
    read: str
    update: str
    delete: str
    read_by_slug: str
    update_by_slug: str
    delete_by_slug: str


def summaries(resource: Resource) -> Summaries:
    label, plural = resource.label, resource.plural
    article = "an" if label[0] in "aeiou" else "a"
    deleting = (
        f"Move {article} {label} to the trash."
        if resource.behaviour.trashes
        else f"Delete {article} {label} for good."
    )
    defaults = Summaries(
        list=resource.behaviour.list_summary.format(plural=plural),
        create=f"Create {article} {label}"
        + (", or return the identical one that exists." if resource.twin else "."),
        read=f"Read one {label}.",
        update=f"Update {article} {label}: only the fields sent change.",
        delete=deleting,
        read_by_slug=f"Read one {label} by slug.",
        update_by_slug=f"Update {article} {label} found by slug.",
        delete_by_slug=f"Trash {article} {label} found by slug.",
    )
    return replace(defaults, **resource.summaries)


def _by_id(state: RequestState, resource: Resource, write: str) -> Awaitable[Row]:
    return service.find(state, resource, path_id(state), write=write)


def _by_slug(state: RequestState, resource: Resource, write: str) -> Awaitable[Row]:
    return service.find_by_slug(state, resource, state.path_params["slug"], write=write)


def _handlers(resource: Resource, find: Finder) -> tuple[Handler, Handler, Handler]:
    async def read(state: RequestState, params: Params) -> Reply:
        spliced = only_encoded(state.query)
        if find is _by_id:  # the item cache may have it: no need to read its row
            kept = service.read_kept(state, resource, path_id(state), params, spliced=spliced)
            if kept is not None:
                return kept
        row = await find(state, resource, "")
        return await service.read(state, resource, row, params, spliced=spliced)

    async def update(state: RequestState, params: Params) -> Reply:
        row = await find(state, resource, service.UPDATE)
        return await service.update(state, resource, row, params)

    async def delete(state: RequestState, params: Params) -> Reply:
        row = await find(state, resource, service.DELETE)
        return await service.delete(state, resource, row, params)

    return read, update, delete


def _item_route(
    resource: Resource,
    *,
    pattern: str,
    doc_path: str,
    key: Arg,
    find: Finder,
    docs: tuple[str, str, str],
) -> Route:
    """The read, update and delete endpoints of one item, in the family's order."""
    behaviour = resource.behaviour
    read, update, delete = _handlers(resource, find)
    update_args = resource.update_args()
    by_id = key.name == "id"
    # A path parameter shares its name with a body field (``slug``) only by slug: the field
    # describes it then.
    keys = (key,) if key.name not in {a.name for a in update_args} else ()
    password = password_arg(resource.label)
    protected = (password,) if by_id and behaviour.password_on_writes else ()
    read_args = (key, password) if behaviour.protects else (key,)
    label = resource.label
    errors = {400: "Bad parameters", 401: "Not authenticated", 403: "Not allowed"}
    if resource.messages.not_found is not None:
        errors[404] = f"No such {label}"
        read_errors = {400: "Bad parameters", 404: f"No such {label}"}
    else:
        read_errors = {400: f"No such {label}"}
    if behaviour.protects:
        read_errors[403] = "Not accessible"
    deletes_errors = {**errors, 410: "Already in the trash"} if behaviour.trashes else errors
    deletes_errors = {**deletes_errors, **resource.errors.get("delete", {})}
    item = ref(resource.schema)
    endpoints = {
        "GET": Endpoint(
            ("GET",),
            read,
            read_args,
            summary=docs[0],
            responses=read_errors,
            response_schema=ref(resource.read_schema or resource.schema),
            tag=resource.collection,
            reports_reads=True,
        ),
        "DELETE": Endpoint(
            ("DELETE",),
            delete,
            (key, *protected, *resource.item_args, *((FORCE,) if resource.force_delete else ())),
            allowed=lambda actor: behaviour.may_delete_any(resource, actor),
            summary=docs[2],
            responses=deletes_errors,
            response_schema=_deleted(item) if resource.force_delete else item,
            writes=True,
            tag=resource.collection,
        ),
        "UPDATE": Endpoint(
            UPDATE_METHODS,
            update,
            (*keys, *protected, *update_args, *resource.item_args),
            allowed=lambda actor: behaviour.may_update_any(resource, actor),
            summary=docs[1],
            responses=errors,
            response_schema=item,
            writes=True,
            tag=resource.collection,
        ),
    }
    return Route(pattern, tuple(endpoints[m] for m in behaviour.item_methods), doc_path)


def routes(resource: Resource) -> list[Route]:
    """Every route of a collection."""
    behaviour = resource.behaviour
    plural = resource.collection
    docs = summaries(resource)

    async def list_items(state: RequestState, params: Params) -> Reply:
        return await service.list_page(state, resource, params, spliced=only_encoded(state.query))

    async def create(state: RequestState, params: Params) -> Reply:
        return await service.create(state, resource, params)

    write_errors = {400: "Bad parameters", 401: "Not authenticated", 403: "Not allowed"}
    list_errors = {} if behaviour.empty_pages else {400: "Bad parameters", 404: "Page past the end"}
    found = [
        Route(
            f"/{plural}",
            (
                Endpoint(
                    ("GET",),
                    list_items,
                    resource.listing.args,
                    summary=docs.list,
                    responses=list_errors,
                    response_schema=ref(resource.archive_schema),
                    tag=plural,
                    reports_reads=True,
                ),
                Endpoint(
                    ("POST",),
                    create,
                    resource.create_args(),
                    allowed=lambda actor: behaviour.may_create(resource, actor),
                    summary=docs.create,
                    responses={**write_errors, **resource.errors.get("create", {})},
                    response_schema=ref(resource.schema),
                    success_status=201,
                    writes=True,
                    tag=plural,
                    accepts_files=resource.accepts_files,
                    prepare=resource.prepare_create,
                ),
            ),
            f"/{plural}",
        ),
        _item_route(
            resource,
            pattern=rf"/{plural}/(?P<id>\d+)",
            doc_path=f"/{plural}/{{id}}",
            key=path_arg("id", resource.id_description, "integer"),
            find=_by_id,
            docs=(docs.read, docs.update, docs.delete),
        ),
    ]
    if behaviour.by_slug:
        found.append(
            _item_route(
                resource,
                pattern=rf"/{plural}/by-slug/(?P<slug>[^/]+)",
                doc_path=f"/{plural}/by-slug/{{slug}}",
                key=path_arg("slug", f"the {resource.label} post name", "string"),
                find=_by_slug,
                docs=(docs.read_by_slug, docs.update_by_slug, docs.delete_by_slug),
            )
        )
    return found

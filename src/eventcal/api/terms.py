"""Generic routes for the term collections (categories, tags): one implementation, declared
twice (spec terms.md)."""

from __future__ import annotations

from typing import Any

from eventcal.api import common
from eventcal.api.pagination import link_params
from eventcal.errors import ApiError, invalid
from eventcal.http.args import (
    MAX_LIST_ITEMS,
    Arg,
    Invalid,
    Params,
    as_int,
    boolean,
    check_count,
    csv_items,
    non_empty_string,
    positive_int,
)
from eventcal.http.request import RequestState
from eventcal.http.responses import Reply
from eventcal.http.router import Endpoint, Route
from eventcal.schemas.openapi import ref
from eventcal.services import taxonomies
from eventcal.services.pagination import Page
from eventcal.services.taxonomies import Taxonomy, TermListQuery
from eventcal.storage.db import Row


def id_list(taxonomy: Taxonomy) -> Any:
    """``include``/``exclude``: ids (each an existing term of this collection), as one value, a
    list or CSV. Non-numeric items pass but match nothing, as in the original."""

    async def parse(value: Any, state: RequestState) -> list[int]:
        items = csv_items(value)
        if not items:
            raise Invalid()
        check_count(items, MAX_LIST_ITEMS)
        ids = []
        for item in items:
            number = as_int(item)
            if number is None:
                if isinstance(item, str):
                    continue
                raise Invalid()
            if number <= 0:
                raise Invalid()
            ids.append(number)
        if ids and not await taxonomies.existing_ids(state.conn, taxonomy, ids):
            raise Invalid()
        return ids

    return parse


def parent(taxonomy: Taxonomy) -> Any:
    """An existing category, or ``0`` for the top level (DEVIATIONS #21)."""

    async def parse(value: Any, state: RequestState) -> int:
        number = as_int(value)
        if number is None or number < 0:
            raise Invalid()
        if number and await taxonomies.find(state.conn, taxonomy, number) is None:
            raise Invalid()
        return number

    return parse


_order = non_empty_string("order", max_length=20)
_orderby = non_empty_string("orderby", max_length=40)
_slug = non_empty_string("slug", max_length=200)
_name = non_empty_string("name", max_length=200)


def archive_args(taxonomy: Taxonomy, label: str) -> tuple[Arg, ...]:
    args = [
        Arg("page", "The archive page to return", positive_int, type="integer", default=1),
        Arg(
            "per_page",
            f"The number of {label}s to return on each page",
            common.per_page,
            type="integer",
            default=lambda state: state.site.posts_per_page,
        ),
        Arg("search", "Limit results to those matching a string", common.search, type="string"),
        Arg(
            "exclude",
            "Ensure result set exclude specific IDs",
            id_list(taxonomy),
            items={"type": "integer"},
        ),
        Arg(
            "include",
            "Limit result set to specific IDs",
            id_list(taxonomy),
            items={"type": "integer"},
        ),
        Arg("order", "Order sort attribute ascending or descending", _order, type="string"),
        Arg("orderby", "Sort collection by term attribute", _orderby, type="string"),
        Arg(
            "hide_empty",
            "Whether to hide terms not assigned to any posts",
            boolean("hide_empty"),
            type="boolean",
            default="1",
        ),
    ]
    if taxonomy.hierarchical:
        args.append(
            Arg(
                "parent",
                "Limit result set to terms assigned to a specific parent (0: top level)",
                parent(taxonomy),
                type="integer",
            )
        )
    args += [
        Arg(
            "post",
            "Limit result set to terms assigned to a specific post",
            common.existing_event,
            type="integer",
        ),
        Arg(
            "event",
            "Limit result set to terms assigned to a specific event "
            '(an alias of the "post" parameter)',
            common.existing_event,
            type="integer",
        ),
        Arg("slug", "Limit result set to terms with a specific slug", _slug, type="string"),
    ]
    return tuple(args)


def write_args(taxonomy: Taxonomy, label: str, *, create: bool) -> tuple[Arg, ...]:
    loc = "body"
    args = [
        Arg(
            "name",
            f"The {label} name",
            common.translatable(
                lambda value, state: str(_name(value, state)).strip() or _empty_name(),
                create=create,
            ),
            type="string",
            required=create,
            location=loc,
        ),
        Arg(
            "description",
            f"The {label} description (an empty string clears it)",
            common.text("description"),
            type="string",
            location=loc,
        ),
        Arg(
            "slug",
            f"The {label} slug",
            common.translatable(_slug, create=create),
            type="string",
            location=loc,
        ),
    ]
    if taxonomy.hierarchical:
        args.append(
            Arg(
                "parent",
                f"The {label} parent ID (0: top level)",
                parent(taxonomy),
                type="integer",
                location=loc,
            )
        )
    return tuple(args)


def _empty_name() -> str:
    raise Invalid()


def routes(taxonomy: Taxonomy, label: str) -> list[Route]:
    """The two routes of a term collection, in the original's order."""
    plural = taxonomy.collection
    archive = archive_args(taxonomy, label)
    create_args = write_args(taxonomy, label, create=True)
    update_args = write_args(taxonomy, label, create=False)
    field_names = [a.name for a in create_args]

    def allowed(actor: Any) -> bool:
        return taxonomy.may_manage(actor)

    def require(state: RequestState) -> None:
        if not taxonomy.may_manage(state.actor):
            raise common.forbidden(state.actor)
        if not taxonomy.hierarchical and state.query.get("parent") is not None:
            raise ApiError(
                "rest_taxonomy_not_hierarchical",
                "Cannot set parent term, taxonomy is not hierarchical.",
                400,
            )

    async def term_row(state: RequestState) -> Row:
        lock = state.method not in ("GET", "HEAD")
        row = await taxonomies.find(state.conn, taxonomy, common.path_id(state), lock=lock)
        if row is None:
            raise invalid("id")
        return row

    async def list_terms(state: RequestState, params: Params) -> Reply:
        event_id = params.get("event") if "event" in params else params.get("post")
        orderby = str(params.get("orderby") or "name").lower()
        include = params.get("include") if "include" in params else None
        link = [(a.name, _link_value(params[a.name])) for a in archive if a.name in params]
        query = TermListQuery(
            page=params["page"],
            per_page=params["per_page"],
            search=params.get("search"),
            exclude=params.get("exclude") if "exclude" in params else None,
            include=include,
            include_order=orderby == "include",
            order_desc=str(params.get("order") or "").lower() == "desc",
            orderby=orderby if orderby in taxonomies.ORDERINGS else "name",
            hide_empty=bool(params["hide_empty"]) if "hide_empty" in params else True,
            parent=params.get("parent") if "parent" in params else None,
            event_id=event_id,
            slug=params.get("slug"),
            link_params=link,
        )
        page = await taxonomies.list_terms(state.call, taxonomy, query)
        return term_archive_reply(page, plural, state)

    async def create(state: RequestState, params: Params) -> Reply:
        require(state)
        fields = {name: params[name] for name in field_names if name in params}
        body, term_id = await taxonomies.create(state.call, taxonomy, fields)
        location = {"Location": f"{state.urls.rest}/{plural}/{term_id}"}
        return Reply(body, 201, location, revision=1)

    async def read(state: RequestState, params: Params) -> Reply:
        row = await term_row(state)
        body = await taxonomies.present(state.call, taxonomy, row)
        return Reply(body, revision=int(row["revision"]))

    async def update(state: RequestState, params: Params) -> Reply:
        row = await term_row(state)
        require(state)
        common.require_unchanged(state, row)
        fields = {name: params[name] for name in field_names if name in params}
        body = await taxonomies.update(state.call, taxonomy, row, fields)
        updated = await term_row(state)
        return Reply(body, revision=int(updated["revision"]))

    async def delete(state: RequestState, params: Params) -> Reply:
        row = await term_row(state)
        require(state)
        common.require_unchanged(state, row)
        return Reply(await taxonomies.delete(state.call, taxonomy, row))

    list_terms.__doc__ = f"List {label}s, by name unless ordered otherwise."
    create.__doc__ = f"Create a {label}."
    read.__doc__ = f"Read one {label}."
    update.__doc__ = f"Update a {label}: only the fields sent change."
    delete.__doc__ = f"Delete a {label} for good."

    id_arg = common.path_arg("id", f"the {label} term ID", "integer")
    item = ref("Term" if taxonomy.hierarchical else "Tag")
    write_errors = {400: "Bad parameters", 401: "Not authenticated", 403: "Not allowed"}
    return [
        Route(
            f"/{plural}",
            (
                Endpoint(
                    ("GET",),
                    list_terms,
                    archive,
                    summary=list_terms.__doc__,
                    response_schema=ref(f"{'Term' if taxonomy.hierarchical else 'Tag'}Archive"),
                ),
                Endpoint(
                    ("POST",),
                    create,
                    create_args,
                    allowed=allowed,
                    summary=create.__doc__,
                    responses=write_errors,
                    response_schema=item,
                    success_status=201,
                    writes=True,
                ),
            ),
            f"/{plural}",
        ),
        Route(
            rf"/{plural}/(?P<id>\d+)",
            (
                Endpoint(
                    ("GET",),
                    read,
                    (id_arg,),
                    summary=read.__doc__,
                    responses={400: f"No such {label}"},
                    response_schema=item,
                ),
                Endpoint(
                    ("POST", "PUT", "PATCH"),
                    update,
                    (id_arg, *update_args),
                    allowed=allowed,
                    summary=update.__doc__,
                    responses=write_errors,
                    response_schema=item,
                    writes=True,
                ),
                Endpoint(
                    ("DELETE",),
                    delete,
                    (id_arg,),
                    allowed=allowed,
                    summary=delete.__doc__,
                    responses=write_errors,
                    response_schema=item,
                    writes=True,
                ),
            ),
            f"/{plural}/{{id}}",
        ),
    ]


def _link_value(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return str(value)


def term_archive_reply(page: Page, key: str, state: RequestState) -> Reply:
    """The term archive body: its own key order; a page past the end is an empty 200."""
    from urllib.parse import urlencode

    base_url = f"{state.urls.rest}/{key}/"

    def url(params: list[tuple[str, str]]) -> str:
        return f"{base_url}?{urlencode(params)}" if params else base_url

    params = link_params(page, state)
    without_page = [(k, v) for k, v in params if k != "page"]
    body: dict[str, Any] = {
        "rest_url": url(params),
        "total": page.total,
        "total_pages": page.total_pages,
        key: page.items,
    }
    if page.page < page.total_pages:
        body["next_rest_url"] = url([*without_page, ("page", str(page.page + 1))])
    if page.page > 1:
        previous = without_page if page.page == 2 else [*without_page, ("page", str(page.page - 1))]
        body["previous_rest_url"] = url(previous)
    headers = {"X-TEC-Total": str(page.total), "X-TEC-TotalPages": str(page.total_pages)}
    return Reply(body, 200, headers)

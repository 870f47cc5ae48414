"""The generic pipeline: list, read, create, update and delete for any declared collection.

Every step asks the declaration (fields, relations, listing, messages) or the collection's
family behaviour (:class:`~eventcal.resources.posts.Posts`, the terms' behaviour); no step asks
which collection it serves. Permissions are decided here, for reads and writes alike; writes
record their changes in the change log (:mod:`eventcal.resources.changes`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import orjson

from eventcal.errors import ApiError, NotFound, invalid
from eventcal.http.args import Params
from eventcal.http.conditional import matches_revision
from eventcal.http.request import RequestState
from eventcal.http.responses import Reply
from eventcal.resources import changes, relations, translations
from eventcal.resources import listing as listing_totals
from eventcal.resources.archive import format_links
from eventcal.resources.listing import ListQuery
from eventcal.resources.pagination import Page
from eventcal.resources.posts.rules import forbidden
from eventcal.resources.present import kept_single, present_rows, present_tagged
from eventcal.resources.spec import Resource
from eventcal.storage.db import Row

if TYPE_CHECKING:
    from eventcal.context import Call

UPDATE = "update"
DELETE = "delete"


# --- finding the item of a request ---------------------------------------------------------


async def find(state: RequestState, resource: Resource, item_id: int, *, write: str = "") -> Row:
    """The item, locked until the transaction ends for writes (``write`` names the write).

    A collection that answers unknown ids with its own 404 (events) checks the caller's
    type-level permission first on writes; the others report the id as an invalid parameter
    before any permission check, as the original does."""
    call = state.call
    row: Row | None = await resource.behaviour.find(call, resource, item_id, lock=bool(write))
    if row is not None:
        return row
    messages = resource.messages
    if messages.not_found is None:
        raise invalid("id")
    if write and not _allowed(resource, call, write):
        raise forbidden(call.actor)
    if messages.other_kind is not None and await resource.behaviour.is_other_kind(call, item_id):
        raise ApiError(f"rest-invalid-{resource.name}-id", messages.other_kind, 400)
    raise NotFound(f"rest-{resource.name}-not-found", messages.not_found, id=item_id)


async def find_by_slug(
    state: RequestState, resource: Resource, slug: str, *, write: str = ""
) -> Row:
    """The item with this slug (in the request's language first). An update by an unknown slug
    of a collection with its own 404 answers it with id 0 (the original's answer)."""
    call = state.call
    behaviour = resource.behaviour
    if call.reads is not None:  # any item's slug or translation may take this slug
        call.reads.listed((resource.name,))
    item_id = await behaviour.id_by_slug(call, resource, slug)
    if item_id is not None:
        return await find(state, resource, item_id, write=write)
    if write == UPDATE and resource.messages.not_found is not None:
        if not _allowed(resource, call, write):
            raise forbidden(call.actor)
        raise NotFound(f"rest-{resource.name}-not-found", resource.messages.not_found, id=0)
    raise invalid("slug")


def _allowed(resource: Resource, call: Call, write: str) -> bool:
    behaviour = resource.behaviour
    if write == DELETE:
        return bool(behaviour.may_delete_any(resource, call.actor))
    return bool(behaviour.may_update_any(resource, call.actor))


def require_unchanged(state: RequestState, row: Row) -> None:
    """``If-Match``: a write applies only to the revision the client read; otherwise 412 and
    nothing changes. Checked after the permission checks, before anything is written."""
    header = state.if_match
    if header is not None and not matches_revision(header, int(row["revision"])):
        raise ApiError(
            "rest_precondition_failed",
            "The item has changed since it was read: read it again and reapply the change.",
            412,
            data={"revision": int(row["revision"])},
        )


# --- reading ---------------------------------------------------------------------------------


async def list_page(
    state: RequestState,
    resource: Resource,
    params: Params,
    *,
    narrow: Callable[[ListQuery], None] | None = None,
    path: str | None = None,
    spliced: bool = False,
) -> Reply:
    """One page of the collection's listing, with exact totals (DEVIATIONS #10); ``narrow``
    turns on more conditions, for a listing of its own at ``path`` (a series' occurrences).
    ``spliced``: items may be JSON fragments (:func:`present_rows`), for a body only encoded."""
    call = state.call
    listing = resource.listing
    query = await listing.prepare(state, params, resource)
    if narrow is not None:
        narrow(query)
    listing_totals.note_listed(call, resource, query)
    total = await listing_totals.count(call, resource, query)
    page = Page([], total, query.page, query.per_page, query.link)
    if query.offset < total:
        rows = await listing.rows(call.conn, query)
        if query.include_order:
            position = {item_id: i for i, item_id in enumerate(query.include_order)}
            rows = sorted(rows, key=lambda r: position.get(int(r["id"]), 0))
        page.items = await present_rows(
            call, resource, rows, context_edit=query.context_edit, spliced=spliced
        )
    if not page.items and page.page > 1 and not resource.behaviour.empty_pages:
        raise NotFound(f"{resource.name}-archive-page-not-found", resource.messages.no_archive_page)
    reply: Reply = resource.behaviour.archive(page, resource.collection, state, path)
    if path is None and isinstance(reply.body, dict):
        reply.body.update(format_links(resource, state))
    reply.cacheable = query.cacheable
    return reply


async def read(
    state: RequestState, resource: Resource, row: Row, params: Params, *, spliced: bool = False
) -> Reply:
    """A single read: the collection's read rules, then the item with its JSON-LD (as a JSON
    fragment when it comes from the item cache and ``spliced``: see :func:`present_rows`)."""
    call = state.call
    password = params.get("password")
    resource.behaviour.check_read(resource, call.actor, row, password, state.context_edit)
    shown, digests = await present_tagged(
        call,
        resource,
        [row],
        single=True,
        password=password,
        context_edit=state.context_edit,
        spliced=spliced,
    )
    return Reply(shown[0], revision=int(row["revision"]), digest=digests[0])


def read_kept(
    state: RequestState, resource: Resource, item_id: int, params: Params, *, spliced: bool = False
) -> Reply | None:
    """A single read by id from the item cache, without reading the item's row (None: not
    kept for this caller, read it with :func:`find` and :func:`read`). Only reads the item
    cache may answer (anonymous, no password, no ``context=edit``) are asked, and only items
    a read like this one built since their last change are kept (``present.kept_single``)."""
    found = kept_single(
        state.call,
        resource,
        item_id,
        password=params.get("password"),
        context_edit=state.context_edit,
    )
    if found is None:
        return None
    body, revision, digest = found
    shown = orjson.Fragment(body) if spliced else orjson.loads(body)
    return Reply(shown, revision=revision, digest=digest if spliced else None)


# --- writing ---------------------------------------------------------------------------------


def sent_fields(resource: Resource, params: Params) -> dict[str, Any]:
    """The fields the client sent (defaults are not values that were sent)."""
    return {f.name: params[f.name] for f in resource.fields if f.name in params}


def column_values(resource: Resource, sent: Mapping[str, Any]) -> dict[str, Any]:
    """Column values of the fields sent that have columns."""
    values: dict[str, Any] = {}
    for field in resource.fields:
        if field.name in sent:
            values.update(field.values(sent[field.name]))
    return values


async def insert_item(call: Call, resource: Resource, sent: Mapping[str, Any]) -> tuple[int, bool]:
    """Create an item from the fields sent (or find the identical twin the collection returns
    instead); returns its id and whether it is new. Relations are resolved first, so inline
    items and new terms exist before the item that links to them."""
    item_id, new, _ = await _insert(call, resource, sent)
    return item_id, new


async def _insert(
    call: Call, resource: Resource, sent: Mapping[str, Any]
) -> tuple[int, bool, Row | None]:
    """:func:`insert_item`, and the item's row as it is now when the write knows it (None:
    the reply reads it)."""
    if resource.twin is not None:
        twin = await resource.twin(call, resource, sent)
        if twin is not None:
            return int(twin["id"]), False, None
    values = column_values(resource, sent)
    if resource.derive is not None:
        values.update(await resource.derive(call, dict(sent), None))
    link_columns, links = await relations.resolve(call, resource, sent)
    values.update(link_columns)
    behaviour = resource.behaviour
    row: Row = await behaviour.insert(call, resource, values, sent)
    item_id = int(row["id"])
    await relations.set_links(
        call,
        resource,
        item_id,
        links,
        was_counted=False,
        is_counted=resource.counted(row),
        new=True,
    )
    if call.translating:
        texts = await _texts(call, resource, sent, None)
        texts.pop("slug", None)  # the default slug comes from the same text
        await translations.store(call.conn, resource.name, item_id, call.translating, texts)
    return item_id, True, await _after_write(call, resource, None, row, sent)


async def _after_write(
    call: Call, resource: Resource, before: Row | None, after: Row, sent: Mapping[str, Any]
) -> Row | None:
    """The collection's hooks after a write of ``after``; the row as it is now, or None when
    it may have changed since (a hook or a count of its own table wrote to it)."""
    if resource.hooks is not None and await resource.hooks.after_write(
        call, resource, before, after, sent
    ):
        return None
    return None if relations.counts_own_table(call.registry, resource) else after


async def create(state: RequestState, resource: Resource, params: Params) -> Reply:
    """``POST /{collection}``: 201 with the new item (or its identical twin)."""
    call = state.call
    resource.behaviour.authorize(state, resource, None, "create")
    item_id, _, row = await _insert(call, resource, sent_fields(resource, params))
    return await _written(call, resource, item_id, row, status=201, state=state)


async def update(state: RequestState, resource: Resource, row: Row, params: Params) -> Reply:
    """Update the fields sent (DEVIATIONS #1); in another language than the default, the text
    fields sent set that language's text."""
    call = state.call
    row = await _target(state, resource, row, params, UPDATE)
    updated = await apply(call, resource, row, sent_fields(resource, params))
    return await _written(call, resource, int(row["id"]), updated)


async def apply(call: Call, resource: Resource, row: Row, sent: Mapping[str, Any]) -> Row | None:
    """Write an update of ``row`` (after its permission checks); the row as it is now, or
    None when it may have changed after the update (see :func:`_after_write`)."""
    behaviour = resource.behaviour
    item_id = int(row["id"])
    shared = await _translate(call, resource, row, sent) if call.translating else sent
    values = column_values(resource, shared)
    if resource.derive is not None:
        values.update(await resource.derive(call, dict(shared), row))
    link_columns, links = await relations.resolve(call, resource, shared)
    values.update(link_columns)
    updated: Row = await behaviour.update(call, resource, row, values, shared)
    if links:
        changes.widen(call.conn, resource.name, item_id)
    await relations.set_links(
        call,
        resource,
        item_id,
        links,
        was_counted=resource.counted(row),
        is_counted=resource.counted(updated),
    )
    unlisted = behaviour.became_unlisted(row, updated)
    if unlisted:
        await relations.unlink_incoming(call, resource, item_id)
    now = await _after_write(call, resource, row, updated, sent)
    return None if unlisted else now  # an item of its own collection may have linked to it


async def _target(
    state: RequestState, resource: Resource, row: Row, params: Params, write: str
) -> Row:
    """The row a write applies to. Permission and ``If-Match`` are checked on the item the URL
    names, before anything is written; the collection's hooks may then pick another row (a
    recurring series' ``scope``), whose permission is checked too."""
    resource.behaviour.authorize(state, resource, row, write)
    require_unchanged(state, row)
    if resource.hooks is None:
        return row
    target = await resource.hooks.target(state, resource, row, params)
    if target is not row:
        resource.behaviour.authorize(state, resource, target, write)
    return target


async def delete(state: RequestState, resource: Resource, row: Row, params: Params) -> Reply:
    """``DELETE``: the collection's delete (posts go to the trash; terms are deleted for
    good and answer with the term as it was)."""
    call = state.call
    behaviour = resource.behaviour
    row = await _target(state, resource, row, params, DELETE)
    if resource.hooks is not None:
        answered = await resource.hooks.delete(state, resource, row, params)
        if answered is not None:
            return answered
    force = resource.force_delete and bool(params.get("force"))
    trash = None if force else behaviour.trash_values(resource, row)
    if trash is not None:
        updated = await apply(call, resource, row, trash)
        return await _written(call, resource, int(row["id"]), updated)
    shown = await present_rows(call, resource, [row], context_edit=True)
    await behaviour.delete(call, resource, row)
    changes.record(call.conn, resource.name, int(row["id"]), "delete")
    return Reply({"deleted": True, "previous": shown[0]} if force else shown[0])


async def _written(
    call: Call,
    resource: Resource,
    item_id: int,
    row: Row | None,
    *,
    status: int = 200,
    state: RequestState | None = None,
) -> Reply:
    """The reply to a write of one item: the item as its writer sees it (``row`` when the
    write knows it as it is now; otherwise read), tagged with its new revision."""
    if row is None:
        row = await resource.behaviour.find(call, resource, item_id, lock=False)
        assert row is not None
    shown = await present_rows(call, resource, [row], context_edit=True)
    headers = {}
    if status == 201 and resource.behaviour.location_on_create:
        headers["Location"] = f"{call.urls.rest}/{resource.collection}/{item_id}"
    return Reply(shown[0], status, headers, revision=int(row["revision"]))


async def _texts(
    call: Call, resource: Resource, sent: Mapping[str, Any], row: Row | None
) -> dict[str, Any]:
    """The translated columns among the fields sent, normalised and derived as the default
    text is (a venue's German ``state`` gives its German ``stateprovince``)."""
    translated = {name: value for name, value in sent.items() if name in resource.translated}
    texts = column_values(resource, translated)
    if translated and resource.derive is not None:
        derived = await resource.derive(call, dict(sent), row)
        texts.update({k: v for k, v in derived.items() if k in resource.translated_columns})
    return texts


async def _translate(
    call: Call, resource: Resource, row: Row, sent: Mapping[str, Any]
) -> dict[str, Any]:
    """Store the translated fields of an update in the call's language; returns the fields
    left to apply to the item itself."""
    language = call.translating
    assert language is not None
    texts = await _texts(call, resource, sent, row)
    shared = {k: v for k, v in sent.items() if k not in resource.translated}
    if not texts:
        return shared
    if "slug" in resource.translated_columns:
        slug = texts.pop("slug", None)
        behaviour = resource.behaviour

        async def taken(candidate: str) -> bool:
            return bool(await behaviour.slug_taken(call, resource, candidate, int(row["id"])))

        try:
            await translations.translate_item(
                call.conn,
                resource.name,
                row,
                language,
                texts,
                name_field=resource.name_field,
                explicit_slug=slug,
                taken_by_default=taken,
                number_explicit_slug=behaviour.taken_slug is None,
            )
        except translations.SlugInUse as exc:
            raise behaviour.taken_slug(exc.slug) from None
    else:
        await translations.store(call.conn, resource.name, int(row["id"]), language, texts)
    changes.record(call.conn, resource.name, int(row["id"]), "translate", language=language)
    return shared

"""The post family's behaviour: how the pipeline reads, lists, writes and deletes posts."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from eventcal.errors import ApiError, Forbidden, Gone
from eventcal.http.request import RequestState
from eventcal.http.responses import Reply
from eventcal.permissions import Actor, Cap, publish_status
from eventcal.resources import changes, relations, translations
from eventcal.resources.archive import post_archive
from eventcal.resources.pagination import Page
from eventcal.resources.posts import rules
from eventcal.resources.slugs import sanitize_slug
from eventcal.resources.spec import Relation, TableLink
from eventcal.storage import queries as q
from eventcal.storage.db import ForeignKeyViolation, Row, UniqueViolation
from eventcal.storage.tables import post

if TYPE_CHECKING:
    from eventcal.context import Call
    from eventcal.resources.spec import Resource

SLUG_ATTEMPTS = 50


@dataclass(frozen=True, slots=True)
class Posts:
    """WordPress-style posts: statuses and scheduling, trash, slugs unique among live items,
    password protection, and the per-item capabilities of spec README §6."""

    drafts_get_slugs: bool = True
    """Venues and organizers always get a slug; events only once they are live (WordPress)."""
    item_methods: tuple[str, ...] = ("GET", "DELETE", "UPDATE")
    by_slug: bool = True
    empty_pages: bool = False
    """A page past the end is a 404."""
    location_on_create: bool = False
    taken_slug: None = None
    """A translated slug that is taken is numbered (``konzert-2``), never refused."""
    password_on_writes: bool = False
    """Writes by id take the ``password`` parameter too (events, as the original lists it)."""
    protects: bool = True
    """Items may be password-protected: reads take a ``password``."""
    trashes: bool = True
    """``DELETE`` moves items to the trash (410 when they are there already)."""
    id_word: str = "post"
    wp_type: str = "post"
    """The original's post type, in the URLs of items without a pretty one (``tribe_venue``)."""
    list_summary: str = "List {plural}, newest first."
    schedules: bool = True
    """``future`` items are published when their time comes (``resources.scheduling``)."""

    # --- permissions ---------------------------------------------------------------------

    def may_create(self, resource: Resource, actor: Actor) -> bool:
        return actor.can(Cap.EDIT_POSTS)

    def may_update_any(self, resource: Resource, actor: Actor) -> bool:
        return actor.can(Cap.EDIT_POSTS)

    def may_delete_any(self, resource: Resource, actor: Actor) -> bool:
        return actor.can(Cap.DELETE_POSTS)

    def authorize(
        self, state: RequestState, resource: Resource, row: Row | None, action: str
    ) -> None:
        """Writes: creating needs ``edit_posts``; updating and deleting an item need the
        per-item capabilities (its author, status and the caller's role)."""
        actor = state.actor
        if action == "create":
            allowed = self.may_create(resource, actor)
        elif action == "delete":
            allowed = row is not None and rules.may_delete(actor, row)
        else:
            allowed = row is not None and rules.may_edit(actor, row)
        if not allowed:
            raise rules.forbidden(actor)

    def protected(self, actor: Actor, row: Row, password: str | None, context_edit: bool) -> bool:
        """The caller may not see the item's password-protected content."""
        return not rules.password_access(actor, row, password, context_edit)

    def check_read(
        self, resource: Resource, actor: Actor, row: Row, password: str | None, context_edit: bool
    ) -> None:
        """A single read: 403 for trashed items (when the collection says so), items the caller
        may not read, and protected ones without their password (when the collection refuses
        them instead of blanking them)."""
        messages = resource.messages
        code = resource.name
        if messages.trashed is not None and row["status"] == "trash":
            raise Forbidden(f"{code}-no-longer-available", messages.trashed)
        if not rules.may_read(actor, row):
            raise Forbidden(f"{code}-not-accessible", messages.not_accessible)
        if messages.password_required is not None and self.protected(
            actor, row, password, context_edit
        ):
            raise Forbidden(f"{code}-password-protected", messages.password_required)

    # --- lookups ---------------------------------------------------------------------------

    async def find(self, call: Call, resource: Resource, item_id: int, *, lock: bool) -> Row | None:
        return await rules.find(call.conn, resource.table, item_id, lock=lock)

    async def id_by_slug(self, call: Call, resource: Resource, slug: str) -> int | None:
        return await rules.id_by_slug(
            call.conn, resource.table, resource.name, slug, call.translating
        )

    async def revision(self, call: Call, resource: Resource, item_id: int) -> int:
        found = await rules.revision(call.conn, resource.table, item_id)
        return found or 0

    async def slug_taken(self, call: Call, resource: Resource, slug: str, item_id: int) -> bool:
        return await rules.slug_taken(call.conn, resource.table, slug, item_id)

    async def is_other_kind(self, call: Call, item_id: int) -> bool:
        """The id names an item of another collection in the shared id space."""
        return 0 < item_id <= rules.MAX_ID and await q.post_type(call.conn, item_id) is not None

    def archive(self, page: Page, key: str, state: RequestState, path: str | None = None) -> Reply:
        return post_archive(page, key, state, path)

    # --- writes ----------------------------------------------------------------------------

    async def insert(
        self, call: Call, resource: Resource, values: dict[str, Any], sent: Mapping[str, Any]
    ) -> Row:
        """A new item: its author, status (scaled back to what the caller may publish),
        publication dates and a unique slug; retried when a concurrent writer takes the slug.
        Returns its row as written (``RETURNING``: not read again)."""
        actor = call.actor
        author_id = sent.get("author", actor.user_id)
        rules.require_author_change(actor, author_id)
        status, dates = rules.new_item_dates(
            sent, publish_status(actor, sent.get("status")), call.site.zone, call.now
        )
        name = str(values[resource.name_field])
        slug = rules.new_slug(sent, name, status, drafts_get_slugs=self.drafts_get_slugs)
        item_id = await rules.new_id(call.conn, resource.name)
        row = {
            **values,
            **dates,
            "id": item_id,
            "author_id": author_id,
            "status": status,
            "status_before_trash": "draft" if status == "trash" else None,
        }
        statement = q.insert_row(resource.table, tuple(sorted({*row, "slug"})), returning=True)
        inserted: list[Row] = []

        async def write(values: dict[str, Any]) -> None:
            inserted[:] = await call.conn.all(statement, q.row_values(values))

        written = await self._with_slug(
            call, resource, item_id=item_id, values=row, wanted=slug, status=status, write=write
        )
        if not written:
            raise ApiError(f"could-not-create-{resource.name}", resource.messages.not_created, 500)
        changes.record(call.conn, resource.name, item_id, "create", 1)
        return inserted[0]

    async def update(
        self,
        call: Call,
        resource: Resource,
        row: Row,
        values: dict[str, Any],
        sent: Mapping[str, Any],
    ) -> Row:
        """Apply an update: status changes (publishing, scheduling, trash and restore with their
        slug rules), dates, and a new slug made unique. Returns the row as updated."""
        actor = call.actor
        if "author" in sent:
            rules.require_author_change(actor, sent["author"])
        old_status = str(row["status"])
        requested = publish_status(actor, sent["status"]) if "status" in sent else old_status
        status, dates = rules.updated_item_dates(row, sent, requested, call.site.zone, call.now)
        values.update(dates)
        requested_slug = sanitize_slug(str(sent["slug"])) if "slug" in sent else None
        name = str(values.get(resource.name_field, row[resource.name_field]))
        status_values, wanted = rules.status_change(
            row, status, requested_slug, name, drafts_get_slugs=self.drafts_get_slugs
        )
        values.update(status_values)
        item_id = int(row["id"])
        columns = tuple(sorted({*values, *(("slug",) if wanted is not None else ())}))
        statement = q.update_row(resource.table, columns, returning=True)
        updated: list[Row] = []

        async def write(changed: dict[str, Any]) -> None:
            updated[:] = await call.conn.all(
                statement, {**q.row_values(changed), "row_id": item_id}
            )

        written = await self._with_slug(
            call,
            resource,
            item_id=item_id,
            values=values,
            wanted=wanted,
            status=status,
            write=write,
        )
        if not written:
            raise ApiError(f"could-not-update-{resource.name}", resource.messages.not_updated, 400)
        action = _action(old_status, status)
        aspect = changes.aspect(resource, row, values) if action == "update" else None
        changes.record(
            call.conn, resource.name, item_id, action, row["revision"] + 1, aspect=aspect
        )
        return updated[0]

    async def _with_slug(
        self,
        call: Call,
        resource: Resource,
        *,
        item_id: int,
        values: dict[str, Any],
        wanted: str | None,
        status: str,
        write: Callable[[dict[str, Any]], Awaitable[None]],
    ) -> bool:
        """Write ``values`` with ``wanted`` (when not None) as the slug, made unique among the
        live items when it must be; a concurrent writer that takes the same slug first makes the
        unique index refuse ours, and the next free one is tried. False when none could be
        written. A live item whose title leaves no slug characters (``!!!``, a snowman) gets
        its id as the slug, as WordPress's ``sanitize_title($title, $post_id)`` gives it."""
        if wanted == "" and rules.slug_must_be_unique(
            status, "-", drafts_get_slugs=self.drafts_get_slugs
        ):
            wanted = str(item_id)
        unique = wanted is not None and rules.slug_must_be_unique(
            status, wanted, drafts_get_slugs=self.drafts_get_slugs
        )
        for _ in range(SLUG_ATTEMPTS):
            if wanted is not None:
                values["slug"] = (
                    await rules.unique_slug(call.conn, resource.table, wanted, item_id)
                    if unique
                    else wanted
                )
            try:
                async with call.conn.savepoint():
                    await write(values)
            except UniqueViolation:
                if not unique:
                    raise
                continue
            return True
        return False

    def trash_values(self, resource: Resource, row: Row) -> dict[str, Any] | None:
        """What ``DELETE`` sends through :meth:`update`: the item moves to the trash (410 when
        it is there already)."""
        if row["status"] == "trash":
            raise Gone(f"{resource.name}-is-in-trash", resource.messages.already_trashed)
        return {"status": "trash"}

    async def delete(self, call: Call, resource: Resource, row: Row) -> None:
        """Delete for good (``DELETE ?force=true``): its links go (counts kept), items that
        link to it lose the link, its translations and its place in the id space go too. An
        item still referenced otherwise (an event's ``post_parent``) is a 409; nothing
        changes then."""
        item_id = int(row["id"])
        links: dict[Relation, list[int]] = {
            r: [] for r in resource.relations if isinstance(r.link, TableLink)
        }
        try:
            async with call.conn.savepoint():
                await relations.set_links(
                    call,
                    resource,
                    item_id,
                    links,
                    was_counted=resource.counted(row),
                    is_counted=False,
                )
                await relations.unlink_incoming(call, resource, item_id)
                await translations.delete_item(call.conn, resource.name, item_id)
                for table in (resource.table, post):
                    await call.conn.execute(sa.delete(table).where(table.c.id == item_id))
        except ForeignKeyViolation:
            raise ApiError(
                f"rest_cannot_delete_{resource.name}",
                "The item is still referenced by other items and cannot be deleted for good.",
                409,
            ) from None

    def is_published(self, row: Row | None) -> bool:
        """Published items count in term counts."""
        return row is not None and row["status"] == "publish"

    def became_unlisted(self, before: Row, after: Row) -> bool:
        """The item went to the trash: links pointing at it are removed (DEVIATIONS #15)."""
        return bool(after["status"] == "trash" and before["status"] != "trash")


def _action(old_status: str, status: str) -> str:
    if status == "trash" and old_status != "trash":
        return "trash"
    if old_status == "trash" and status != "trash":
        return "restore"
    return "update"

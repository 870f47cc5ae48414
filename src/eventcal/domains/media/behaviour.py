"""The media library's behaviour: who may upload, edit and delete items (WordPress's
``upload_files`` and edit-others rules), creating an item from an upload, and deleting it for
good (refused while an event, venue or organizer shows it, unless ``force``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from eventcal.domains.media import store
from eventcal.domains.media.images import ImageRejected, Processed
from eventcal.errors import ApiError
from eventcal.http.request import RequestState
from eventcal.http.responses import Reply
from eventcal.i18n import N_
from eventcal.permissions import Actor, Cap
from eventcal.resources import changes, relations, translations
from eventcal.resources.archive import post_archive
from eventcal.resources.pagination import Page
from eventcal.resources.posts import rules
from eventcal.resources.public import Public
from eventcal.resources.registry import Incoming
from eventcal.resources.spec import ColumnLink
from eventcal.storage import queries as q
from eventcal.storage.db import Row
from eventcal.storage.tables import media, post

if TYPE_CHECKING:
    from eventcal.context import Call
    from eventcal.resources.spec import Resource

_BY_ID = sa.select(media).where(media.c.id == sa.bindparam("id", type_=sa.Integer))
_LOCKED = _BY_ID.with_for_update()
_DELETE = sa.delete(media).where(media.c.id == sa.bindparam("item_id", type_=sa.Integer))
_DELETE_ID = sa.delete(post).where(post.c.id == sa.bindparam("item_id", type_=sa.Integer))
MAX_USERS_SHOWN = 10


def no_data() -> ImageRejected:
    return ImageRejected("rest_upload_no_data", N_("No data supplied."), 400)


def _cannot(code: str, message: str, actor: Actor) -> ApiError:
    return ApiError(code, message, 401 if actor.is_anonymous else 403)


@dataclass(frozen=True, slots=True)
class Media(Public):
    """Uploaded files: no statuses, no trash, no slugs; public once uploaded."""

    empty_pages: bool = False
    taken_slug: None = None
    id_word: str = "media"
    wp_type: str = "attachment"
    list_summary: str = "List {plural}, newest first."

    # --- permissions ---------------------------------------------------------------------

    def may_manage(self, actor: Actor) -> bool:
        return actor.can(Cap.UPLOAD_FILES)

    def may_change(self, actor: Actor, row: Row, others: Cap) -> bool:
        """Authors change their own uploads; another user's needs the edit/delete-others
        capability."""
        own = row["author_id"] is not None and row["author_id"] == actor.user_id
        return self.may_manage(actor) and (own or actor.can(others))

    def authorize(
        self, state: RequestState, resource: Resource, row: Row | None, action: str
    ) -> None:
        actor = state.actor
        if action == "create":
            if not self.may_create(resource, actor):
                raise _cannot(
                    "rest_cannot_create",
                    N_("Sorry, you are not allowed to upload media on this site."),
                    actor,
                )
        elif action == "delete":
            if row is None or not self.may_change(actor, row, Cap.DELETE_OTHERS):
                raise _cannot(
                    "rest_cannot_delete",
                    N_("Sorry, you are not allowed to delete this media item."),
                    actor,
                )
        elif row is None or not self.may_change(actor, row, Cap.EDIT_OTHERS):
            raise _cannot(
                "rest_cannot_edit", N_("Sorry, you are not allowed to edit this media item."), actor
            )

    # --- lookups ---------------------------------------------------------------------------

    async def find(self, call: Call, resource: Resource, item_id: int, *, lock: bool) -> Row | None:
        if item_id <= 0 or item_id > rules.MAX_ID:
            return None
        return await call.conn.first(_LOCKED if lock else _BY_ID, {"id": item_id})

    async def slug_taken(self, call: Call, resource: Resource, slug: str, item_id: int) -> bool:
        return False

    def archive(self, page: Page, key: str, state: RequestState, path: str | None = None) -> Reply:
        return post_archive(page, key, state, path)

    # --- writes ----------------------------------------------------------------------------

    async def insert(
        self, call: Call, resource: Resource, values: dict[str, Any], sent: Mapping[str, Any]
    ) -> Row:
        """The item from its upload (``file``, processed while the arguments were parsed):
        its row, its files, and a title from the file name when none is given."""
        processed = sent.get("file")
        if not isinstance(processed, Processed):
            raise no_data()
        item_id = await rules.new_id(call.conn, resource.name)
        stored, files = store.row_values(item_id, processed, call.urls.base, call.now)
        stem = processed.name.rpartition(".")[0]
        row = {
            "title": stem,
            **values,
            **stored,
            "id": item_id,
            "author_id": call.actor.user_id,
        }
        await store.insert(call.conn, row, files)
        changes.record(call.conn, resource.name, item_id, "create", 1)
        found = await self.find(call, resource, item_id, lock=False)
        assert found is not None
        return found

    async def update(
        self,
        call: Call,
        resource: Resource,
        row: Row,
        values: dict[str, Any],
        sent: Mapping[str, Any],
    ) -> Row:
        """Metadata only (the file stays as uploaded); always written, so a change of
        translations alone is a new revision too. Returns the row as updated."""
        item_id = int(row["id"])
        values = {**values, "modified_at": call.now}
        statement = q.update_row(media, tuple(sorted(values)), returning=True)
        updated = await call.conn.all(statement, {**q.row_values(values), "row_id": item_id})
        changes.record(call.conn, resource.name, item_id, "update", int(row["revision"]) + 1)
        return updated[0]

    async def delete(self, call: Call, resource: Resource, row: Row) -> None:
        """Deleted for good with its files (the foreign key cascades); the items showing it
        lose their image (the delete endpoint refuses that without ``force``)."""
        item_id = int(row["id"])
        await relations.unlink_incoming(call, resource, item_id)
        await call.conn.execute(_DELETE, {"item_id": item_id})
        await call.conn.execute(_DELETE_ID, {"item_id": item_id})
        await translations.delete_item(call.conn, resource.name, item_id)


@lru_cache(maxsize=16)
def _users_statement(incoming: Incoming) -> sa.Select[Any]:
    link = incoming.relation.link
    assert isinstance(link, ColumnLink)
    table = incoming.source.table
    return (
        sa.select(table.c.id)
        .where(link.column == sa.bindparam("item_id", type_=sa.Integer))
        .order_by(table.c.id)
        .limit(MAX_USERS_SHOWN)
    )


async def users(call: Call, resource: Resource, item_id: int) -> dict[str, list[int]]:
    """The items showing this one as their image (collection → ids, a few of each), through
    the relations declared to point at the media collection (an index on each column)."""
    found: dict[str, list[int]] = {}
    for incoming in call.registry.incoming(resource):
        rows = await call.conn.all(_users_statement(incoming), {"item_id": item_id})
        if rows:
            found.setdefault(incoming.source.collection, []).extend(int(r["id"]) for r in rows)
    return found

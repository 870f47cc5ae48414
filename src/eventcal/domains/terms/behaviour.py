"""The term family's behaviour (categories and tags): who may manage them, creating them (a
taken name is ``term_exists``), updating them (a taken slug is ``duplicate_term_slug``) and
deleting them for good (a deleted category's children move up to its parent)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from eventcal.domains.terms import store
from eventcal.errors import ApiError
from eventcal.http.args import NULL
from eventcal.http.request import RequestState
from eventcal.http.responses import Reply
from eventcal.permissions import Actor, Cap
from eventcal.resources import changes, relations, translations
from eventcal.resources.archive import term_archive
from eventcal.resources.pagination import Page
from eventcal.resources.posts.rules import forbidden
from eventcal.resources.public import Public
from eventcal.resources.slugs import sanitize_slug
from eventcal.storage import queries as q
from eventcal.storage.db import Row, UniqueViolation
from eventcal.storage.tables import term

if TYPE_CHECKING:
    from eventcal.context import Call
    from eventcal.resources.spec import Resource

MAX_ID = 2**31 - 1
_LOCKED_TERM = (
    sa.select(term)
    .where(term.c.taxonomy == sa.bindparam("taxonomy"), term.c.id == sa.bindparam("id"))
    .with_for_update()
)
_SAME_NAME = sa.select(term.c.id, term.c.slug, term.c.parent_id).where(
    term.c.taxonomy == sa.bindparam("taxonomy"),
    sa.func.lower(term.c.name) == sa.bindparam("name"),
)
_REPARENT = (
    sa.update(term)
    .where(term.c.parent_id == sa.bindparam("term_id"))
    .values(parent_id=sa.bindparam("new_parent", type_=sa.Integer))
)
_DELETE_TERM = sa.delete(term).where(term.c.id == sa.bindparam("term_id"))


def duplicate_slug(slug: str) -> ApiError:
    return ApiError(
        "duplicate_term_slug",
        "The slug \u201c{slug}\u201d is already in use by another term.",
        400,
        slug=slug,
    )


@dataclass(frozen=True, slots=True)
class Terms(Public):
    """One taxonomy of the term table."""

    taxonomy: str
    """``tribe_events_cat`` / ``post_tag`` (the original's taxonomy names)."""
    hierarchical: bool
    manage_caps: tuple[Cap, ...]
    empty_pages: bool = True
    """A page past the end is an empty 200 (the original's term archives)."""
    taken_slug: Callable[[str], ApiError] = duplicate_slug
    """A translated slug that is taken is ``duplicate_term_slug``."""
    id_word: str = "term"
    list_summary: str = "List {plural}, by name unless ordered otherwise."

    def may_manage(self, actor: Actor) -> bool:
        return all(actor.can(cap) for cap in self.manage_caps)

    def authorize(
        self, state: RequestState, resource: Resource, row: Row | None, action: str
    ) -> None:
        if not self.may_manage(state.actor):
            raise forbidden(state.actor)
        if not self.hierarchical and state.query.get("parent") not in (None, NULL):
            raise ApiError(
                "rest_taxonomy_not_hierarchical",
                "Cannot set parent term, taxonomy is not hierarchical.",
                400,
            )

    async def find(self, call: Call, resource: Resource, item_id: int, *, lock: bool) -> Row | None:
        """The term; with ``lock`` (writes) its row stays locked until the transaction ends."""
        if item_id <= 0 or item_id > MAX_ID:
            return None
        if lock:
            return await call.conn.first(_LOCKED_TERM, {"taxonomy": self.taxonomy, "id": item_id})
        found = await store.terms_by_ids(call.conn, self.taxonomy, [item_id])
        return found.get(item_id)

    async def slug_taken(self, call: Call, resource: Resource, slug: str, item_id: int) -> bool:
        owner = await call.conn.scalar(q.TERM_SLUG_TAKEN, {"taxonomy": self.taxonomy, "slug": slug})
        return owner is not None and int(owner) != item_id

    def archive(self, page: Page, key: str, state: RequestState, path: str | None = None) -> Reply:
        return term_archive(page, key, state, path)

    async def insert(
        self, call: Call, resource: Resource, values: dict[str, Any], sent: Mapping[str, Any]
    ) -> Row:
        """A new term; 400 ``term_exists`` when the name is taken (in the same parent)."""
        name = str(values["name"])
        parent = values.get("parent_id")
        await call.conn.lock(f"term:{self.taxonomy}:{name.strip().lower()}")
        existing = await self._existing_name(call, name, parent, sent.get("slug"))
        if existing is not None:
            raise ApiError(
                "term_exists",
                resource.messages.exists,
                400,
                data={"term_id": existing},
                top_level={"additional_data": [existing, existing]},
            )
        term_id = await store.create_term(
            call.conn,
            self.taxonomy,
            name,
            slug=str(sent.get("slug") or ""),
            description=str(values.get("description") or ""),
            parent_id=parent,
        )
        changes.record(call.conn, resource.name, term_id, "create", 1)
        row = await self.find(call, resource, term_id, lock=False)
        assert row is not None
        return row

    async def _existing_name(
        self, call: Call, name: str, parent: int | None, slug: str | None
    ) -> int | None:
        """A term with the same name (same parent for categories) that the requested slug does
        not distinguish: creating it again is ``term_exists``."""
        rows = await call.conn.all(
            _SAME_NAME, {"taxonomy": self.taxonomy, "name": name.strip().lower()}
        )
        for row in rows:
            if self.hierarchical and int(row["parent_id"] or 0) != int(parent or 0):
                continue
            if slug and sanitize_slug(slug) != row["slug"]:
                continue
            return int(row["id"])
        return None

    async def update(
        self,
        call: Call,
        resource: Resource,
        row: Row,
        values: dict[str, Any],
        sent: Mapping[str, Any],
    ) -> Row:
        """Always written: a change of translations only is a change of the term too (its
        revision). Returns the row as updated."""
        term_id = int(row["id"])
        try:
            async with call.conn.savepoint():
                updated = await call.conn.all(
                    q.update_row(term, tuple(sorted(values)), returning=True),
                    {**q.row_values(values), "row_id": term_id},
                )
        except UniqueViolation:
            raise duplicate_slug(str(values.get("slug", row["slug"]))) from None
        changes.record(call.conn, resource.name, term_id, "update", int(row["revision"]) + 1)
        return updated[0]

    async def delete(self, call: Call, resource: Resource, row: Row) -> None:
        """Children move up to the parent; events lose the term."""
        term_id = int(row["id"])
        conn = call.conn
        await conn.execute(_REPARENT, {"term_id": term_id, "new_parent": row["parent_id"]})
        await relations.unlink_incoming(call, resource, term_id)
        await conn.execute(_DELETE_TERM, {"term_id": term_id})
        await translations.delete_item(conn, resource.name, term_id)

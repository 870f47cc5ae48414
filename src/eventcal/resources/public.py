"""What the families of collections without statuses share (terms, media): every item is public
once written, nothing is password-protected, scheduled or trashed, and one check decides who
may write."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from eventcal.permissions import Actor
from eventcal.storage.db import Row

if TYPE_CHECKING:
    from eventcal.context import Call
    from eventcal.resources.spec import Resource


class Public:
    """A behaviour's rules for items that are public once written (no ``/by-slug`` routes, no
    password, trash or scheduling; a create answers with its ``Location``); the family says who
    may write (:meth:`may_manage`) and how items are stored."""

    __slots__ = ()

    item_methods: ClassVar[tuple[str, ...]] = ("GET", "UPDATE", "DELETE")
    by_slug: ClassVar[bool] = False
    location_on_create: ClassVar[bool] = True
    password_on_writes: ClassVar[bool] = False
    protects: ClassVar[bool] = False
    trashes: ClassVar[bool] = False
    schedules: ClassVar[bool] = False

    def may_manage(self, actor: Actor) -> bool:
        raise NotImplementedError

    def may_create(self, resource: Resource, actor: Actor) -> bool:
        return self.may_manage(actor)

    def may_update_any(self, resource: Resource, actor: Actor) -> bool:
        return self.may_manage(actor)

    def may_delete_any(self, resource: Resource, actor: Actor) -> bool:
        return self.may_manage(actor)

    def protected(self, actor: Actor, row: Row, password: str | None, context_edit: bool) -> bool:
        return False

    def check_read(
        self, resource: Resource, actor: Actor, row: Row, password: str | None, context_edit: bool
    ) -> None:
        """Every item may be read."""

    async def is_other_kind(self, call: Call, item_id: int) -> bool:
        return False

    def trash_values(self, resource: Resource, row: Row) -> dict[str, Any] | None:
        return None  # deleted for good

    def is_published(self, row: Row | None) -> bool:
        return False

    def became_unlisted(self, before: Row, after: Row | None) -> bool:
        return False

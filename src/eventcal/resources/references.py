"""How clients name another collection's items: the parsers of relation fields and of list
filters by linked items, and the checks that an item named exists and the caller may read it.

A relation names its target collection; the target's :class:`Reference` says how clients name its
items in another collection's writes and filters (venues: ids, ``{"id": …}`` or inline objects;
terms: ids, slugs or names).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

import sqlalchemy as sa

from eventcal.errors import ApiError
from eventcal.http.args import UNKNOWN_IDS, Parser, because, positive_int
from eventcal.http.request import RequestState
from eventcal.resources.spec import Resource
from eventcal.storage.db import Row, in_values

if TYPE_CHECKING:
    from eventcal.context import Call


@dataclass(frozen=True, slots=True)
class FilterValue:
    """A list filter naming items of another collection: their ids, and the value as the
    archive's links carry it."""

    ids: list[int]
    text: str


class Reference(Protocol):
    """How clients name a collection's items in other collections' writes and filters."""

    async def parse(
        self, value: Any, state: RequestState, target: Resource, *, allow_csv: bool
    ) -> list[Any]:
        """The references a write sends (raise :class:`Invalid`); ``[]`` clears the links."""

    async def resolve(self, call: Call, target: Resource, refs: list[Any], name: str) -> list[int]:
        """The ids of the referenced items, in order, duplicates removed; may create items
        (inline venues, new terms by name) for callers who may."""

    async def filter(self, value: Any, state: RequestState, target: Resource) -> FilterValue:
        """The items a list filter names (raise :class:`Invalid` when one does not exist)."""


def references(target: str, *, allow_csv: bool = False) -> Parser:
    """The parser of a relation field: the target collection parses the value."""

    async def parse(value: Any, state: RequestState) -> list[Any]:
        resource = state.call.registry[target]
        assert resource.reference is not None, f"{target} cannot be referenced"
        refs: list[Any] = await resource.reference.parse(
            value, state, resource, allow_csv=allow_csv
        )
        return refs

    return parse


def filter_by(target: str) -> Parser:
    """The parser of a list filter naming items of ``target`` (``venue=1,2``, ``tags=jazz``)."""

    async def parse(value: Any, state: RequestState) -> FilterValue:
        resource = state.call.registry[target]
        assert resource.reference is not None, f"{target} cannot be referenced"
        found: FilterValue = await resource.reference.filter(value, state, resource)
        return found

    return parse


async def existing(call: Call, target: Resource, ids: Sequence[int]) -> set[int]:
    """Which of ``ids`` are items of the collection the caller may read (one query): another
    author's draft is as unknown as an id that names nothing."""
    if not ids:
        return set()
    rows: list[Row] = await call.conn.all(_existing_statement(target), {"ids": list(ids)})
    return {int(r["id"]) for r in rows if may_read(target, call.actor, r)}


@lru_cache(maxsize=32)
def _existing_statement(target: Resource) -> sa.Select[Any]:
    table = target.table
    return sa.select(table).where(in_values(table.c.id, "ids"), *target.scope_condition())


def require_existing(found: set[int], ids: Sequence[int]) -> None:
    missing = [str(i) for i in ids if i not in found]
    if missing:
        raise because(UNKNOWN_IDS, ids=", ".join(dict.fromkeys(missing)))


def existing_item(target: str) -> Parser:
    """The id of an item of ``target`` the caller may read (``event``, ``post`` filters): one
    that is a draft, private, trashed or password-protected to the caller is refused exactly
    like an id that names nothing, so the filter reveals neither its links nor its existence."""

    async def parse(value: Any, state: RequestState) -> int:
        number = positive_int(value, state)
        resource = state.call.registry[target]
        row = await resource.behaviour.find(state.call, resource, number, lock=False)
        if row is None or not may_see(resource, state.call.actor, row):
            raise because(UNKNOWN_IDS, ids=number)
        return number

    return parse


def may_read(resource: Resource, actor: Any, row: Row) -> bool:
    """Whether the caller may read the item (as a single read decides, password aside)."""
    try:
        resource.behaviour.check_read(resource, actor, row, "", True)
    except ApiError as error:  # protected content alone does not hide the item itself
        return error.code == f"{resource.name}-password-protected"
    return True


def may_see(resource: Resource, actor: Any, row: Row) -> bool:
    """Whether the caller may read the item and its protected content (as a single read with
    ``context=edit`` and no password decides)."""
    return may_read(resource, actor, row) and not resource.behaviour.protected(
        actor, row, None, True
    )

"""What the contract tests read from a collection's declaration, and how they look at storage."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from eventcal.permissions import Actor, Role
from eventcal.resources.spec import Field, Resource
from eventcal.storage.service_tables import change
from tests.conftest import NS, Api
from tests.contract.declarations import Declared

WEAKEST_FIRST = ("subscriber", "contributor", "author", "editor", "administrator")


@dataclass
class Case:
    """One collection under test: its declaration, its test data and a client."""

    api: Api
    resource: Resource
    declared: Declared

    # --- what the declaration says -------------------------------------------------------

    @property
    def name_field(self) -> Field:
        """The field holding the item's name (``title``, ``venue``, ``name``)."""
        return next(f for f in self.resource.fields if f.column == self.resource.name_field)

    @property
    def stored_fields(self) -> list[Field]:
        """Fields stored in a column of the item's own row (not translations only)."""
        return [f for f in self.resource.fields if f.column is not None]

    @property
    def trashes(self) -> bool:
        return bool(self.resource.behaviour.trashes)

    @property
    def by_slug(self) -> bool:
        return bool(self.resource.behaviour.by_slug)

    def actor(self, role: str) -> Actor:
        return Actor(user_id=1, role=Role(role), login=role)

    def may_create(self, role: str) -> bool:
        return bool(self.resource.behaviour.may_create(self.resource, self.actor(role)))

    def may_update(self, role: str) -> bool:
        return bool(self.resource.behaviour.may_update_any(self.resource, self.actor(role)))

    def may_delete(self, role: str) -> bool:
        return bool(self.resource.behaviour.may_delete_any(self.resource, self.actor(role)))

    @property
    def weakest_writer(self) -> str:
        return next(r for r in WEAKEST_FIRST if self.may_create(r))

    @property
    def non_writers(self) -> list[str]:
        return [r for r in WEAKEST_FIRST if not self.may_create(r)]

    # --- requests --------------------------------------------------------------------------

    def path(self, suffix: str | int = "") -> str:
        if isinstance(suffix, int):
            suffix = f"/{suffix}"
        return f"{NS}/{self.resource.collection}{suffix}"

    def payload(self, name: str | None = None, **more: Any) -> dict[str, Any]:
        payload = dict(self.declared.create)
        if name is not None:
            payload[self.name_field.name] = name
        return {**payload, **more}

    def send_create(self, payload: dict[str, Any], *, as_: str | None = "administrator") -> Any:
        """POST a create: JSON, or a multipart form with the declared file (media)."""
        upload = self.declared.upload
        if upload is None:
            return self.api.post(self.path(), json=payload, as_=as_)
        return self.api.post(self.path(), data=payload, files={"file": upload}, as_=as_)

    def create(self, name: str | None = None, *, as_: str = "administrator", **more: Any) -> Any:
        created = self.send_create(self.payload(name, **more), as_=as_)
        assert created.status_code == 201, created.text
        return created.json()

    def item_id(self, name: str | None = None, **more: Any) -> int:
        return int(self.create(name, **more)["id"])

    # --- storage ---------------------------------------------------------------------------

    def stored(self, item_id: int) -> dict[str, Any] | None:
        table = self.resource.table

        async def load() -> dict[str, Any] | None:
            async with self.api.database.read() as conn:
                row = await conn.first(
                    sa.select(table).where(table.c.id == item_id, *self.resource.scope_condition())
                )
                return None if row is None else dict(row)

        return self.api.run(load)

    def rows(self) -> list[dict[str, Any]]:
        table = self.resource.table

        async def load() -> list[dict[str, Any]]:
            async with self.api.database.read() as conn:
                found = await conn.all(
                    sa.select(table).where(*self.resource.scope_condition()).order_by(table.c.id)
                )
                return [dict(row) for row in found]

        return self.api.run(load)

    def log(self, item_id: int | None = None) -> list[tuple[str, int, str, int | None]]:
        """The change log: ``(kind, item id, action, revision)`` in commit order."""

        async def load() -> list[tuple[str, int, str, int | None]]:
            async with self.api.database.read() as conn:
                found = await conn.all(
                    sa.select(change).order_by(change.c.version, change.c.position)
                )
                return [
                    (r["kind"], int(r["item_id"]), r["action"], r["revision"])
                    for r in found
                    if item_id is None or int(r["item_id"]) == item_id
                ]

        return self.api.run(load)

    def column_values(self, sent: dict[str, Any]) -> dict[str, Any]:
        """The columns the fields sent are stored in, with the values they should hold."""
        values: dict[str, Any] = {}
        for f in self.stored_fields:
            if f.name in sent:
                values.update(f.values(sent[f.name]))
        return values


def assert_shows(case: Case, body: dict[str, Any], sent: dict[str, Any]) -> None:
    """Every field sent that the body shows under its own name has the value sent (the name
    field always)."""
    relations = {r.name for r in case.resource.relations}
    assert case.name_field.name in body
    for name, value in sent.items():
        if name in body and name not in relations:
            assert body[name] == value, name


def changed_columns(before: dict[str, Any], after: dict[str, Any]) -> set[str]:
    return {column for column in before if before[column] != after[column]}

"""The change log's storage: records collected during a write transaction, written with the
transaction's data version just before it commits (see ``service_tables.change``)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime

import sqlalchemy as sa

from eventcal.storage.rowsets import Rows, rows_of
from eventcal.storage.service_tables import change

TEXT = "text"
"""The aspect of an update that changed only columns no listing condition reads but a search
(``resources.changes.aspect``; ``storage.itemcache`` keeps the totals that do not search)."""

NEXT_VERSION = "UPDATE data_version SET version = version + 1 WHERE id = 1 RETURNING version"
"""Run last in every versioned write transaction: it holds the row's lock until the commit, so
transactions take versions in the order they commit."""

COLUMNS = (
    "version",
    "position",
    "kind",
    "item_id",
    "action",
    "revision",
    "language",
    "aspect",
    "changed_at",
)
_SOURCE, _VALUES = rows_of("changes", [change.c[name] for name in COLUMNS])
INSERT = sa.insert(change).from_select(COLUMNS, sa.select(*_VALUES).select_from(_SOURCE))
"""The change-log rows of one transaction, in one statement (parameters: :func:`params`)."""


@dataclass(frozen=True, slots=True)
class Change:
    """One item changed by a write."""

    kind: str
    item_id: int
    action: str
    revision: int | None = None
    language: str | None = None
    aspect: str | None = None
    """``text``: only columns that no listing condition reads but a search changed (see
    ``service_tables.change``); None: anything may have."""


def rows(changes: list[Change], version: int) -> list[dict[str, object]]:
    """The change-log rows of a transaction's changes (a change of the same item in the same
    way twice in one transaction is kept once, with its last revision)."""
    now = datetime.now(UTC)
    latest: dict[tuple[str, int, str, str | None], Change] = {}
    for item in changes:
        key = (item.kind, item.item_id, item.action, item.language)
        before = latest.pop(key, None)
        mixed = before is not None and before.aspect != item.aspect
        latest[key] = replace(item, aspect=None) if mixed else item
    return [
        {
            "version": version,
            "position": position,
            "kind": item.kind,
            "item_id": item.item_id,
            "action": item.action,
            "revision": item.revision,
            "language": item.language,
            "aspect": item.aspect,
            "changed_at": now,
        }
        for position, item in enumerate(latest.values())
    ]


def params(changes: list[Change], version: int) -> dict[str, Rows]:
    """Parameters of :data:`INSERT` for a transaction's changes (see :func:`rows`)."""
    return {"changes": Rows([tuple(row[c] for c in COLUMNS) for row in rows(changes, version)])}

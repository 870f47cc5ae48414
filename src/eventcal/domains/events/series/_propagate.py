"""An edit of the series reaches its occurrences, except the fields set on one alone."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import sqlalchemy as sa

from eventcal.context import Call
from eventcal.domains.events.series._bulk import (
    TABLE_RELATIONS,
    copy_links,
    copy_translations,
    links_of,
    recount,
)
from eventcal.domains.events.series._model import (
    FIELD_COLUMNS,
    TRANSLATED,
    counts,
    overridden,
    overrides,
)
from eventcal.domains.events.series._model import template as template_of
from eventcal.resources import changes
from eventcal.storage.db import Row, in_values
from eventcal.storage.tables import event

# --- propagating an edit of the series -----------------------------------------------------


async def propagate(call: Call, before: Row, master: Row, sent: Mapping[str, Any]) -> None:
    """An edit of the series reaches every occurrence, except the fields set on one alone."""
    conn = call.conn
    master_id = int(master["id"])
    existing = await conn.all(SERIES_ROWS, {"series_id": master_id})
    template = template_of(master)
    groups: dict[frozenset[str], list[Row]] = {}
    for row in existing:
        groups.setdefault(frozenset(overrides(row)), []).append(row)
    counting: dict[int, tuple[bool, bool]] = {}
    action = "trash" if master["status"] == "trash" != before["status"] else "update"
    for fields, rows in groups.items():
        kept = {c for f in fields for c in FIELD_COLUMNS.get(f, ())}
        values = {c: v for c, v in template.items() if c not in kept}
        ids = [int(r["id"]) for r in rows]
        await conn.execute(_update_many(tuple(sorted(values))), {**_bind(values), "ids": ids})
        for row in rows:
            counting[int(row["id"])] = (counts(row), counts({**dict(row), **values}))
        revisions = [(int(r["id"]), int(r["revision"]) + 1) for r in rows]
        changes.record_all(conn, "event", revisions, action)
    await recount(call, [i for i, (was, now) in counting.items() if was and not now], -1)
    for relation in TABLE_RELATIONS:
        if relation.name not in sent:
            continue
        targets = (await links_of(conn, relation, [master_id])).get(master_id, [])
        ids = [int(r["id"]) for r in existing if relation.name not in overrides(r)]
        steady = [i for i in ids if counting[i] == (True, True)]
        await copy_links(call, relation, targets, steady, counted=True)
        others = [i for i in ids if counting[i] != (True, True)]
        await copy_links(call, relation, targets, others, counted=False)
    await recount(call, [i for i, (was, now) in counting.items() if now and not was], 1)
    language = call.translating
    for field in TRANSLATED if language else ():
        if field in sent:
            own = {field, overridden(field, language)}
            ids = [int(r["id"]) for r in existing if not own & overrides(r)]
            await copy_translations(conn, master_id, ids, [field], language)


SERIES_ROWS = sa.select(event).where(
    event.c.series_id == sa.bindparam("series_id", type_=sa.Integer)
)


def _bind(values: Mapping[str, Any]) -> dict[str, Any]:
    return {f"v_{name}": value for name, value in values.items()}


@lru_cache(maxsize=64)
def _update_many(columns: tuple[str, ...]) -> sa.Update:
    values: dict[str, Any] = {c: sa.bindparam(f"v_{c}", type_=event.c[c].type) for c in columns}
    values["revision"] = event.c.revision + 1
    return sa.update(event).where(in_values(event.c.id, "ids")).values(values)

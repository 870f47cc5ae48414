"""Links, term counts and translations of many occurrences at once."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

import sqlalchemy as sa

from eventcal.context import Call
from eventcal.domains.events import links
from eventcal.resources import changes, relations, translations
from eventcal.resources.spec import Relation, Resource, TableLink
from eventcal.storage.db import Connection, Row, in_values
from eventcal.storage.rowsets import Rows, rows_of
from eventcal.storage.tables import event, post, translation

DELETE_ROWS = sa.delete(event).where(in_values(event.c.id, "ids"))
DELETE_POSTS = sa.delete(post).where(in_values(post.c.id, "ids"))
DELETE_TRANSLATIONS = sa.delete(translation).where(
    in_values(translation.c.item_id, "ids"), translation.c.kind == "event"
)
TRANSLATIONS_OF = sa.select(translation).where(
    translation.c.item_id == sa.bindparam("item_id", type_=sa.Integer),
    translation.c.kind == "event",
    translation.c.field != "slug",
)


@lru_cache(maxsize=8)
def _links_of(relation: Relation) -> sa.Select[Any]:
    link = relation.link
    assert isinstance(link, TableLink)
    columns = [link.source.label("source_id"), link.target.label("target_id")]
    if link.position is not None:
        columns.append(link.position.label("position"))
    return sa.select(*columns).where(in_values(link.source, "ids"))


@lru_cache(maxsize=8)
def _link_rows(relation: Relation) -> sa.Insert:
    """Link rows in one statement (``links``: rows of source, target and, when the link has
    one, position): see storage/rowsets.py."""
    link = relation.link
    assert isinstance(link, TableLink)
    columns = [link.source, link.target, *([link.position] if link.position is not None else [])]
    source, values = rows_of("links", columns)
    names = [c.name for c in columns]
    return sa.insert(link.table).from_select(names, sa.select(*values).select_from(source))


@lru_cache(maxsize=8)
def _unlink_rows(relation: Relation) -> sa.Delete:
    link = relation.link
    assert isinstance(link, TableLink)
    return sa.delete(link.table).where(in_values(link.source, "ids"))


TABLE_RELATIONS = tuple(r for r in links.RELATIONS if isinstance(r.link, TableLink))


# --- links, counts and translations in bulk ------------------------------------------------


async def links_of(
    conn: Connection, relation: Relation, ids: Sequence[int]
) -> dict[int, list[int]]:
    """Source id → target ids (in the link's order) for many sources at once."""
    found: dict[int, list[tuple[int, int]]] = {}
    if ids:
        for row in await conn.all(_links_of(relation), {"ids": list(ids)}):
            position = int(row["position"]) if "position" in row.keys() else 0  # noqa: SIM118
            found.setdefault(int(row["source_id"]), []).append((position, int(row["target_id"])))
    return {source: [t for _, t in sorted(items)] for source, items in found.items()}


async def copy_links(
    call: Call,
    relation: Relation,
    targets: list[int],
    ids: Sequence[int],
    *,
    counted: bool,
    new: bool = False,
) -> None:
    """Give every source in ``ids`` exactly ``targets``, keeping counts exact (``new``: the
    sources were just inserted, so they have no links yet)."""
    if not ids:
        return
    old = {} if new else await links_of(call.conn, relation, ids)
    if not new:
        await call.conn.execute(_unlink_rows(relation), {"ids": list(ids)})
    assert isinstance(relation.link, TableLink)
    positioned = relation.link.position is not None
    rows = [
        (source, target, position) if positioned else (source, target)
        for source in ids
        for position, target in enumerate(targets)
    ]
    if rows:
        await call.conn.execute(_link_rows(relation), {"links": Rows(rows)})
    if relation.counted and counted:
        deltas: dict[int, int] = {}
        for source in ids:
            for target in old.get(source, []):
                deltas[target] = deltas.get(target, 0) - 1
            for target in targets:
                deltas[target] = deltas.get(target, 0) + 1
        await _adjust(call, relation.link, deltas)


async def recount(call: Call, ids: Sequence[int], sign: int) -> None:
    """Occurrences that started (+1) or stopped (-1) counting in their terms' counts."""
    seen: list[Any] = []
    for relation in TABLE_RELATIONS:
        if relation.counted and ids and relation.link not in seen:
            seen.append(relation.link)  # categories and tags: one link table, read once
            deltas: dict[int, int] = {}
            for targets in (await links_of(call.conn, relation, ids)).values():
                for target in targets:
                    deltas[target] = deltas.get(target, 0) + sign
            await _adjust(call, relation.link, deltas)


@lru_cache(maxsize=8)
def _owned(target: Resource) -> sa.Select[Any]:
    table = target.table
    return sa.select(table.c.id).where(in_values(table.c.id, "ids"), *target.scope_condition())


async def _adjust(call: Call, link: Any, deltas: dict[int, int]) -> None:
    """``deltas`` added to the counts of targets linked through ``link``, each through the
    relation whose collection it belongs to: categories and tags share a link table, so the
    links read for one are the other's too (each term counted once, and its change logged
    under its own collection)."""
    changed = [target for target, delta in deltas.items() if delta]
    for relation in TABLE_RELATIONS:
        if relation.link is link and relation.counted and changed:
            rows = await call.conn.all(_owned(call.registry.target(relation)), {"ids": changed})
            own = {int(r["id"]): deltas[int(r["id"])] for r in rows}
            await relations.adjust_counts(call.conn, call.registry, relation, own)


async def copy_translations(
    conn: Connection,
    master_id: int,
    ids: Sequence[int],
    fields: Iterable[str] | None = None,
    language: str | None = None,
) -> None:
    """The master's translations (``fields`` and ``language`` only, when given) copied to the
    occurrences."""
    if not ids:
        return
    wanted = None if fields is None else set(fields)
    rows = [
        r
        for r in await conn.all(TRANSLATIONS_OF, {"item_id": master_id})
        if (wanted is None or r["field"] in wanted) and language in (None, r["language"])
    ]
    languages = {str(r["language"]) for r in rows}
    for each in languages:
        delete = sa.delete(translation).where(
            in_values(translation.c.item_id, "ids"),
            translation.c.kind == "event",
            translation.c.language == sa.bindparam("language", type_=sa.String),
            in_values(translation.c.field, "fields", sa.String()),
        )
        names = sorted({str(r["field"]) for r in rows if r["language"] == each})
        await conn.execute(delete, {"ids": list(ids), "language": each, "fields": names})
    copies = [
        {
            "item_id": item_id,
            "kind": "event",
            "language": r["language"],
            "field": r["field"],
            "value": r["value"],
        }
        for item_id in ids
        for r in rows
    ]
    if copies:
        await conn.execute_many(translations.INSERT, copies)


async def delete_occurrences(call: Call, rows: Sequence[Row]) -> None:
    """Occurrences the series no longer has: gone with their links, counts and translations."""
    ids = [int(r["id"]) for r in rows]
    if not ids:
        return
    await recount(call, [int(r["id"]) for r in rows if r["status"] == "publish"], -1)
    for relation in TABLE_RELATIONS:
        await call.conn.execute(_unlink_rows(relation), {"ids": ids})
    await call.conn.execute(DELETE_TRANSLATIONS, {"ids": ids})
    await call.conn.execute(DELETE_ROWS, {"ids": ids})
    await call.conn.execute(DELETE_POSTS, {"ids": ids})
    changes.record_all(call.conn, "event", [(i, None) for i in ids], "delete")

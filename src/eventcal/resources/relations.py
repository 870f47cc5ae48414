"""Relations at work: resolving the items a write links to, keeping link tables and counts,
unlinking a trashed item, and the conditions that filter by links.

How clients name the items (each target's :class:`~eventcal.resources.references.Reference`) is
``resources.references``; everything here is the same for every relation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from eventcal.errors import InvalidParams, ParamError
from eventcal.resources import changes
from eventcal.resources.registry import Incoming, Registry
from eventcal.resources.spec import ColumnLink, Relation, Resource, TableLink
from eventcal.storage.db import Connection, in_values
from eventcal.storage.rowsets import Rows, rows_of

if TYPE_CHECKING:
    from eventcal.context import Call


# --- writes --------------------------------------------------------------------------------


async def resolve(
    call: Call, resource: Resource, sent: Mapping[str, Any]
) -> tuple[dict[str, Any], dict[Relation, list[int]]]:
    """The links a write sends, resolved in the relations' order (inline items are created
    before the item itself): column values for column links, target ids for link tables."""
    columns: dict[str, Any] = {}
    tables: dict[Relation, list[int]] = {}
    for relation in resource.relations:
        if relation.name not in sent:
            continue
        target = call.registry.target(relation)
        assert target.reference is not None
        ids = await target.reference.resolve(call, target, sent[relation.name], relation.name)
        if isinstance(relation.link, ColumnLink):
            if len(ids) > 1:
                raise InvalidParams({relation.name: ParamError(relation.too_many)})
            columns[relation.link.column.name] = ids[0] if ids else None
        else:
            tables[relation] = ids
    return columns, tables


@lru_cache(maxsize=64)
def _statements(relation: Relation, target: Resource) -> dict[str, Any]:
    link = relation.link
    assert isinstance(link, TableLink)
    current = sa.select(link.target.label("target_id")).where(
        link.source == sa.bindparam("source_id", type_=sa.Integer)
    )
    if target.scope is not None:
        column, value = target.scope
        current = current.where(
            link.target.in_(sa.select(target.table.c.id).where(target.table.c[column] == value))
        )
    if link.position is not None:
        current = current.order_by(link.position)
    unlink = sa.delete(link.table).where(
        link.source == sa.bindparam("source_id", type_=sa.Integer),
        in_values(link.target, "ids"),
    )
    values: dict[str, Any] = {
        link.source.name: sa.bindparam("source_id"),
        link.target.name: sa.bindparam("target_id"),
    }
    if link.position is not None:
        values[link.position.name] = sa.bindparam("position")
    return {"current": current, "unlink": unlink, "link": sa.insert(link.table).values(values)}


@lru_cache(maxsize=16)
def _count_statement(table: sa.Table) -> sa.Update:
    """Add each target's delta (a :class:`Rows` of ``(id, delta)``) to its count, in one
    statement. The rows are locked first in id order (``FOR UPDATE`` in the subquery, on
    PostgreSQL; a SQLite write transaction excludes every other writer anyway): a fixed lock
    order, so two writers adjusting overlapping terms never deadlock."""
    source, (target_id, delta) = rows_of("deltas", (table.c.id, table.c.count))
    locked = table.alias("locked")
    in_order = (
        sa.select(locked.c.id)
        .where(in_values(locked.c.id, "ids"))
        .order_by(locked.c.id)
        .with_for_update()
    )
    added = (
        sa.select(delta.element)
        .select_from(source)
        .where(target_id.element == table.c.id)
        .correlate(table)
        .scalar_subquery()
    )
    return (
        sa.update(table)
        .where(table.c.id.in_(in_order))
        .values(count=table.c.count + added)
        .returning(table.c.id, table.c.revision)
    )


@lru_cache(maxsize=64)
def counts_own_table(registry: Registry, resource: Resource) -> bool:
    """Whether a count kept by the collection's links is one of its own items' (then a write
    of an item may change another row of its table, or its own)."""
    return any(r.counted and registry.target(r).table is resource.table for r in resource.relations)


async def linked_ids(call: Call, relation: Relation, source_id: int) -> list[int]:
    """The targets an item links to through a link table (in the link's order)."""
    found = _statements(relation, call.registry.target(relation))
    rows = await call.conn.all(found["current"], {"source_id": source_id})
    return [int(r["target_id"]) for r in rows]


@dataclass(slots=True)
class _Work:
    """What a write does to the links of one item: per link table the links removed and
    added (relations sharing a table, categories and tags, share its statements), and per
    counted relation the count deltas of its targets."""

    unlinked: dict[sa.Table, tuple[sa.Delete, list[int]]]
    linked: dict[sa.Table, tuple[sa.Insert, list[dict[str, Any]]]]
    counts: list[tuple[Relation, dict[int, int]]]


async def set_links(
    call: Call,
    resource: Resource,
    source_id: int,
    wanted: Mapping[Relation, list[int]],
    *,
    was_counted: bool,
    is_counted: bool,
    new: bool = False,
) -> None:
    """Replace the item's links of each relation in ``wanted`` (kept in the order given where
    the link keeps one) and keep the counts of counted relations: a source counts while it is
    published, whether its links or its status changed. A ``new`` item (inserted in this
    transaction, with an id never used before) has no links yet: they are not read. One
    statement per link table for the links removed, one for those added, one per target
    table for the counts."""
    work = _Work({}, {}, [])
    for relation in resource.relations:
        if not isinstance(relation.link, TableLink):
            continue
        sent = relation in wanted
        if not sent and not (relation.counted and was_counted != is_counted):
            continue
        statements = _statements(relation, call.registry.target(relation))
        current = [] if new else await linked_ids(call, relation, source_id)
        target_ids = wanted[relation] if sent else current
        if sent and current != target_ids:
            _replace(
                work,
                relation=relation,
                statements=statements,
                source_id=source_id,
                current=current,
                wanted=target_ids,
            )
        if relation.counted:
            work.counts.append(
                (
                    relation,
                    _deltas(current if was_counted else [], target_ids if is_counted else []),
                )
            )
    # Each link row's trigger locks its target's day summary (migration 0020): writers take
    # their targets' locks first, all in one order, so two that link the same targets in
    # opposite orders (or remove some and add others) wait for each other instead of
    # deadlocking. A no-op on SQLite, whose writers never overlap.
    await call.conn.lock_all(_targets_touched(work))
    for unlink, ids in work.unlinked.values():
        await call.conn.execute(unlink, {"source_id": source_id, "ids": ids})
    for link, rows in work.linked.values():
        await call.conn.execute_many(link, rows)
    await adjust_all_counts(call.conn, call.registry, work.counts)


def _targets_touched(work: _Work) -> list[str]:
    """The lock names of the targets whose links the work removes or adds, sorted."""
    keys = {f"link:{table.name}:{i}" for table, (_, ids) in work.unlinked.items() for i in ids}
    keys.update(
        f"link:{t.name}:{r['target_id']}" for t, (_, rows) in work.linked.items() for r in rows
    )
    return sorted(keys)


def _replace(
    work: _Work,
    *,
    relation: Relation,
    statements: dict[str, Any],
    source_id: int,
    current: list[int],
    wanted: list[int],
) -> None:
    link = relation.link
    assert isinstance(link, TableLink)
    ordered = link.position is not None
    removed = current if ordered else sorted(set(current) - set(wanted))
    added = wanted if ordered else sorted(set(wanted) - set(current))
    if removed:
        work.unlinked.setdefault(link.table, (statements["unlink"], []))[1].extend(removed)
    if added:
        work.linked.setdefault(link.table, (statements["link"], []))[1].extend(
            {"source_id": source_id, "target_id": target_id, "position": position}
            for position, target_id in enumerate(added)
        )


def _deltas(current: list[int], wanted: list[int]) -> dict[int, int]:
    """The source stopped counting for ``current`` and counts for ``wanted``: relative count
    updates, so concurrent writers never lose an increment."""
    deltas: dict[int, int] = {}
    for target_id in current:
        deltas[target_id] = deltas.get(target_id, 0) - 1
    for target_id in wanted:
        deltas[target_id] = deltas.get(target_id, 0) + 1
    return deltas


async def adjust_counts(
    conn: Connection, registry: Registry, relation: Relation, deltas: Mapping[int, int]
) -> None:
    """Add ``deltas`` to the targets' counts and record the change of each."""
    await adjust_all_counts(conn, registry, [(relation, deltas)])


async def adjust_all_counts(
    conn: Connection, registry: Registry, counts: Sequence[tuple[Relation, Mapping[int, int]]]
) -> None:
    """Add the deltas of counted relations to their targets' counts: one statement per target
    table (categories and tags share one), its rows locked in id order; each target records
    its change under its own collection, in id order."""
    tables: dict[sa.Table, dict[int, tuple[int, str]]] = {}
    for relation, deltas in counts:
        target = registry.target(relation)
        changed = tables.setdefault(target.table, {})
        for target_id, delta in deltas.items():
            if delta:
                changed[target_id] = (changed.get(target_id, (0, ""))[0] + delta, target.name)
    for table, changed in tables.items():
        ids = sorted(i for i, (delta, _) in changed.items() if delta)
        if not ids:
            continue
        rows = await conn.all(
            _count_statement(table),
            {"ids": ids, "deltas": Rows([(i, changed[i][0]) for i in ids])},
        )
        for row in sorted(rows, key=lambda r: int(r["id"])):
            item_id = int(row["id"])
            changes.record(conn, changed[item_id][1], item_id, "count", int(row["revision"]))


@lru_cache(maxsize=64)
def _unlink_statement(incoming: Incoming) -> sa.Executable:
    link = incoming.relation.link
    if isinstance(link, ColumnLink):
        table = incoming.source.table
        return (
            sa.update(table)
            .where(link.column == sa.bindparam("item_id", type_=sa.Integer))
            .values({link.column.name: None})
            .returning(table.c.id, table.c.revision)
        )
    return (
        sa.delete(link.table)
        .where(link.target == sa.bindparam("item_id", type_=sa.Integer))
        .returning(link.source.label("id"))
    )


async def unlink_incoming(call: Call, resource: Resource, item_id: int) -> None:
    """Remove every link that points at the item (a trashed venue leaves its events, and only
    that venue: DEVIATIONS #15); each source that lost a link records a ``link`` change."""
    for incoming in call.registry.incoming(resource):
        rows = await call.conn.all(_unlink_statement(incoming), {"item_id": item_id})
        for row in rows:
            revision = row["revision"] if "revision" in row.keys() else None  # noqa: SIM118
            changes.record(call.conn, incoming.source.name, int(row["id"]), "link", revision)


# --- conditions that filter by links -------------------------------------------------------


def linked_to_item(incoming: Incoming, target: sa.Table, param: str) -> sa.ColumnElement[bool]:
    """The target is linked from the source item bound as ``param`` (``venues?event=7``)."""
    link = incoming.relation.link
    if isinstance(link, ColumnLink):
        source = incoming.source.table
        source_id, target_id = source.c.id, link.column
    else:
        source_id, target_id = link.source, link.target
    return (
        sa.exists()
        .where(source_id == sa.bindparam(param, type_=sa.Integer), target_id == target.c.id)
        .correlate(target)
    )


def sources_where(
    incoming: Incoming, target: sa.Table, *conditions: sa.ColumnElement[bool]
) -> sa.ColumnElement[bool]:
    """Some source item meeting ``conditions`` (on the source table) links to the target."""
    source = incoming.source.table
    link = incoming.relation.link
    if isinstance(link, ColumnLink):
        return sa.exists().where(link.column == target.c.id, *conditions).correlate(target)
    return (
        sa.exists()
        .where(link.target == target.c.id, source.c.id == link.source, *conditions)
        .correlate(target)
    )


def links_to_any(relation: Relation, source: sa.Table, param: str) -> sa.ColumnElement[bool]:
    """The source links to one of the targets bound as ``param`` (``events?venue=1,2``)."""
    link = relation.link
    if isinstance(link, ColumnLink):
        return in_values(link.column, param)
    # ``id IN (the linked ids)``, not a correlated ``EXISTS``: the link table's index on the
    # target gives the ids once, instead of one probe per row of the window (SQLite counted a
    # category's events 3.4x slower with EXISTS at 10,000 events).
    alias = link.table.alias()
    return source.c.id.in_(
        sa.select(alias.c[link.source.name]).where(in_values(alias.c[link.target.name], param))
    )

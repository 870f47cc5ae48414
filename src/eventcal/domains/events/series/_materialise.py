"""Materialising: a series' occurrence rows brought in line with its rule up to the
horizon, matched by their nominal start so that ids survive edits; new rows inserted in bulk."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from eventcal.context import Call
from eventcal.domains.events import recurrence as rules
from eventcal.domains.events.series._bulk import (
    TABLE_RELATIONS,
    copy_links,
    copy_translations,
    delete_occurrences,
)
from eventcal.domains.events.series._model import (
    TEMPLATE,
    horizon,
    overrides,
    rule_of,
)
from eventcal.resources import changes, relations
from eventcal.storage.db import Connection, Row, as_local, as_utc, in_values
from eventcal.storage.rowsets import Rows, rows_of
from eventcal.storage.tables import event, post

# --- statements ------------------------------------------------------------------------------

OCCURRENCES = sa.select(
    event.c.id,
    event.c.occurrence_start,
    event.c.overrides,
    event.c.start_local,
    event.c.end_local,
    event.c.start_at,
    event.c.end_at,
    event.c.status,
    event.c.revision,
).where(event.c.series_id == sa.bindparam("series_id", type_=sa.Integer))
MOVE_OCCURRENCE = (
    sa.update(event)
    .where(event.c.id == sa.bindparam("row_id", type_=sa.Integer))
    .values(
        occurrence_start=sa.bindparam("v_occurrence_start", type_=event.c.occurrence_start.type),
        start_local=sa.bindparam("v_start_local", type_=event.c.start_local.type),
        end_local=sa.bindparam("v_end_local", type_=event.c.end_local.type),
        start_at=sa.bindparam("v_start_at", type_=event.c.start_at.type),
        end_at=sa.bindparam("v_end_at", type_=event.c.end_at.type),
        revision=event.c.revision + 1,
    )
)
SET_HORIZON = (
    sa.update(event)
    .where(event.c.id == sa.bindparam("series_id", type_=sa.Integer))
    .values(materialized_until=sa.bindparam("until", type_=event.c.materialized_until.type))
)
_NUMBERS = sa.select(sa.literal(1).label("n")).cte("numbers", recursive=True)
_NUMBERS = _NUMBERS.union_all(
    sa.select((_NUMBERS.c.n + 1).label("n")).where(
        _NUMBERS.c.n < sa.bindparam("count", type_=sa.Integer)
    )
)
NEW_IDS = (
    sa.insert(post)
    .from_select(["type"], sa.select(sa.literal("event", type_=sa.String)).select_from(_NUMBERS))
    .returning(post.c.id)
)
"""``count`` new ids of the shared id space in one statement."""
SLUGS_TAKEN = sa.select(event.c.slug, event.c.status).where(
    in_values(event.c.slug, "slugs", sa.String())
)
"""Events holding any of the slugs; the live ones are picked here, not in SQL (with a status
condition SQLite's planner walks the listing index of every published event instead of the
slug index: 0.7 s for a two-year daily series among 60,000 events)."""
LIVE = frozenset({"publish", "future", "private"})


PER_OCCURRENCE = (
    "id",
    "slug",
    "start_local",
    "end_local",
    "start_at",
    "end_at",
    "occurrence_start",
)
"""What differs between a series' occurrences; every other column is copied from the master."""
_MASTER = event.alias("master")
_COPIED = tuple(c for c in TEMPLATE if c != "hide_from_listings")
_GIVEN, _GIVEN_VALUES = rows_of("occurrences", [event.c[c] for c in PER_OCCURRENCE])
INSERT_OCCURRENCES = sa.insert(event).from_select(
    [*PER_OCCURRENCE, *_COPIED, "hide_from_listings", "timezone", "all_day", "series_id"],
    sa.select(
        *_GIVEN_VALUES,
        *(_MASTER.c[c] for c in _COPIED),
        _MASTER.c.series_hidden,
        _MASTER.c.timezone,
        _MASTER.c.all_day,
        _MASTER.c.id,
    )
    .select_from(_GIVEN, _MASTER)
    .where(_MASTER.c.id == sa.bindparam("master_id", type_=sa.Integer)),
)
"""New occurrences in bulk, in one statement (``occurrences``: a :class:`Rows` of the
``PER_OCCURRENCE`` values; every other column is the master's). One statement, not one per
row: on SQLite each statement would copy the pages it changes to the request's savepoint
journal again (storage/rowsets.py)."""


# --- materialising -------------------------------------------------------------------------


def _match(
    existing: Sequence[Row], wanted: Sequence[rules.Occurrence]
) -> tuple[dict[int, rules.Occurrence], list[rules.Occurrence], list[Row]]:
    """Rows to keep (id → its occurrence now), occurrences to insert, rows to delete. A row is
    the same occurrence when its nominal start is the same, or else its day is (the series'
    time of day changed)."""
    by_start = {as_local(r["occurrence_start"]): r for r in existing if r["occurrence_start"]}
    kept: dict[int, rules.Occurrence] = {}
    new: list[rules.Occurrence] = []
    for occurrence in wanted:
        row = by_start.pop(occurrence.original, None)
        if row is None:
            new.append(occurrence)
        else:
            kept[int(row["id"])] = occurrence
    by_day: dict[Any, list[Row]] = {}
    for row in by_start.values():
        by_day.setdefault(as_local(row["occurrence_start"]).date(), []).append(row)
    still_new = []
    for occurrence in new:
        same_day = by_day.get(occurrence.original.date())
        if same_day:
            kept[int(same_day.pop(0)["id"])] = occurrence
        else:
            still_new.append(occurrence)
    gone = [row for rows in by_day.values() for row in rows]
    return kept, still_new, gone


async def materialise(call: Call, master: Row, *, until: datetime | None = None) -> None:
    """Bring the master's occurrences in line with its rule up to the horizon."""
    rule = rule_of(master)
    if rule is None:
        return
    bound = until or horizon(call)
    wanted = rules.expand(rule, end_local=as_local(master["end_local"]), until=bound)
    master_id = int(master["id"])
    existing = await call.conn.all(OCCURRENCES, {"series_id": master_id})
    kept, new, gone = _match(existing, wanted)
    await delete_occurrences(call, gone)
    rows = {int(r["id"]): r for r in existing}
    moves = []
    for item_id, occurrence in kept.items():
        row = rows[item_id]
        moved = "start_date" in overrides(row) or "end_date" in overrides(row)
        if as_local(row["occurrence_start"]) != occurrence.original or (
            not moved and as_local(row["start_local"]) != occurrence.start_local
        ):
            moves.append(_dates(occurrence, item_id, keep=row if moved else None))
    if moves:
        await call.conn.execute_many(MOVE_OCCURRENCE, moves)
        changes.record_all(call.conn, "event", [(m["row_id"], None) for m in moves], "update")
    await insert_occurrences(call, master, new)
    await call.conn.execute(SET_HORIZON, {"series_id": master_id, "until": bound})


def _dates(occurrence: rules.Occurrence, item_id: int, keep: Row | None) -> dict[str, Any]:
    """A row's new dates: a moved occurrence keeps its own times, only its identity follows."""
    if keep is not None:
        return {
            "row_id": item_id,
            "v_occurrence_start": occurrence.original,
            "v_start_local": as_local(keep["start_local"]),
            "v_end_local": as_local(keep["end_local"]),
            "v_start_at": as_utc(keep["start_at"]),
            "v_end_at": as_utc(keep["end_at"]),
        }
    return {
        "row_id": item_id,
        "v_occurrence_start": occurrence.original,
        "v_start_local": occurrence.start_local,
        "v_end_local": occurrence.end_local,
        "v_start_at": occurrence.start_at,
        "v_end_at": occurrence.end_at,
    }


async def _new_ids(conn: Connection, count: int) -> list[int]:
    rows = await conn.all(NEW_IDS, {"count": count})
    return sorted(int(r["id"]) for r in rows)


async def _slugs(
    conn: Connection, master: Row, occurrences: Sequence[rules.Occurrence], ids: Sequence[int]
) -> list[str]:
    """``{series slug}-{date}`` (and the time when a day has two), unique among live events
    (one taken by another event gets the occurrence's id too); drafts without a slug give their
    occurrences none."""
    base = str(master["slug"] or "")
    if not base:
        return [""] * len(occurrences)
    dates = [o.original.date() for o in occurrences]
    days: dict[Any, int] = {}
    for day in dates:
        days[day] = days.get(day, 0) + 1
    # isoformat(), not strftime: the same text for the years an event may have (1000-9999),
    # 4x cheaper (a two-year daily series names 730 occurrences).
    wanted = [
        f"{base}-{day.isoformat()}" + (f"-{o.original:%H%M}" if days[day] > 1 else "")
        for o, day in zip(occurrences, dates, strict=True)
    ]
    found = await conn.all(SLUGS_TAKEN, {"slugs": wanted})
    taken = {str(r["slug"]) for r in found if r["status"] in LIVE}
    pairs = zip(wanted, ids, strict=True)
    return [f"{slug}-{item_id}" if slug in taken else slug for slug, item_id in pairs]


async def insert_occurrences(
    call: Call, master: Row, occurrences: Sequence[rules.Occurrence]
) -> list[int]:
    """New occurrence rows copying the master's template, links and translations."""
    if not occurrences:
        return []
    conn = call.conn
    ids = await _new_ids(conn, len(occurrences))
    slugs = await _slugs(conn, master, occurrences, ids)
    master_id = int(master["id"])
    rows = [
        (item_id, slug, o.start_local, o.end_local, o.start_at, o.end_at, o.original)
        for item_id, slug, o in zip(ids, slugs, occurrences, strict=True)
    ]
    await conn.execute(INSERT_OCCURRENCES, {"master_id": master_id, "occurrences": Rows(rows)})
    published = master["status"] == "publish"
    for relation in TABLE_RELATIONS:
        # The master's own targets of this relation: categories and tags share a link table,
        # so links_of would give both twice (inserting them twice).
        targets = await relations.linked_ids(call, relation, master_id)
        if targets:
            await copy_links(call, relation, targets, ids, counted=published, new=True)
    await copy_translations(conn, master_id, ids)
    changes.record_all(conn, "event", [(i, 1) for i in ids], "create")
    return ids

"""Recurring series in the store: a master row holds the rule and the template; each occurrence
is an event row of its own, materialised up to a horizon.

Occurrences are matched to the rule by their nominal start (``occurrence_start``), so an edit of
the series keeps every occurrence's id: the rows are updated, only occurrences the rule no longer
makes are deleted and only new ones inserted (in bulk: a daily series of two years is 730 rows).
An occurrence keeps the fields set on it alone (``overrides``) when the series is edited.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any

import sqlalchemy as sa

from eventcal.context import Call, Site, Urls
from eventcal.domains.events import links
from eventcal.domains.events import recurrence as rules
from eventcal.errors import InvalidParams, ParamError, invalid
from eventcal.http.args import Invalid
from eventcal.i18n import N_
from eventcal.permissions import ANONYMOUS
from eventcal.resources import changes, relations
from eventcal.resources.spec import Relation, TableLink
from eventcal.storage.db import Connection, Database, Row, as_local, as_utc, in_values
from eventcal.storage.tables import event, post, translation

FIELD_COLUMNS: dict[str, tuple[str, ...]] = {
    "author": ("author_id",),
    "status": ("status", "status_before_trash"),
    "date": ("published_at", "date_floating"),
    "date_utc": ("published_at", "date_floating"),
    "title": ("title",),
    "description": ("description",),
    "excerpt": ("excerpt",),
    "post_password": ("post_password",),
    "image": ("image_id", "image_url"),
    "cost": ("cost", "currency_symbol", "currency_position"),
    "website": ("website",),
    "show_map": ("show_map",),
    "show_map_link": ("show_map_link",),
    "hide_from_listings": ("hide_from_listings",),
    "sticky": ("sticky",),
    "featured": ("featured",),
    "ticketed": ("ticketed",),
    "venue": ("venue_id",),
    "event_status": ("event_status",),
    "status_reason": ("status_reason",),
    "attendance_mode": ("attendance_mode",),
    "online_url": ("online_url",),
}
"""The fields an occurrence copies from its series, and their columns (an override of a field
keeps its columns)."""
TEMPLATE = (
    *dict.fromkeys(c for columns in FIELD_COLUMNS.values() for c in columns),
    "modified_at",
)
DATE_FIELDS = ("start_date", "end_date", "timezone", "all_day")
SERIES_FIELDS = frozenset({"recurrence", "scope"})
"""Fields that are the series' own: never an occurrence's override."""


def is_master(row: Row | Mapping[str, Any]) -> bool:
    return bool(row["recurrence"])


def counts(row: Row) -> bool:
    """Published occurrences and single events count in term counts; a series' master does
    not (its occurrences do)."""
    return bool(row["status"] == "publish" and not row["recurrence"])


def overrides(row: Row | Mapping[str, Any]) -> set[str]:
    return {name for name in str(row["overrides"] or "").split(",") if name}


def rule_of(row: Row | Mapping[str, Any]) -> rules.Rule | None:
    """The master's rule, parsed with its start, zone and all-day flag."""
    return rules.parse(
        str(row["recurrence"]).split("\n") if row["recurrence"] else None,
        start_local=as_local(row["start_local"]),
        zone_name=str(row["timezone"]),
        all_day=bool(row["all_day"]),
    )


def refused(error: rules.RecurrenceError) -> InvalidParams:
    return InvalidParams({"recurrence": ParamError(error.message, **error.message_args)})


def horizon(call: Call) -> datetime:
    """Occurrences are stored up to here (the site's setting, in months from now)."""
    months = call.site.recurrence_horizon_months
    return call.now + timedelta(days=months * 366 // 12)


@lru_cache(maxsize=1024)
def describe(lines: str, start_local: str, zone_name: str, all_day: bool, language: str) -> str:
    """``recurrence_text`` (the same series is described once per process and language)."""
    rule = rules.parse(
        lines.split("\n"),
        start_local=datetime.fromisoformat(start_local),
        zone_name=zone_name,
        all_day=all_day,
    )
    return rules.describe(rule, language) if rule is not None else ""


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
SLUGS_TAKEN = sa.select(event.c.slug).where(
    in_values(event.c.slug, "slugs", sa.String()),
    event.c.status.in_([sa.literal(s) for s in ("publish", "future", "private")]),
)
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
COPY_TRANSLATION = sa.insert(translation).values(
    item_id=sa.bindparam("item_id"),
    kind=sa.bindparam("kind"),
    language=sa.bindparam("language"),
    field=sa.bindparam("field"),
    value=sa.bindparam("value"),
)


@lru_cache(maxsize=4)
def _insert_occurrences(columns: tuple[str, ...]) -> sa.Insert:
    return sa.insert(event).values({c: sa.bindparam(c, type_=event.c[c].type) for c in columns})


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
    link = relation.link
    assert isinstance(link, TableLink)
    values: dict[str, Any] = {
        link.source.name: sa.bindparam("source_id"),
        link.target.name: sa.bindparam("target_id"),
    }
    if link.position is not None:
        values[link.position.name] = sa.bindparam("position")
    return sa.insert(link.table).values(values)


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
    call: Call, relation: Relation, targets: list[int], ids: Sequence[int], *, counted: bool
) -> None:
    """Give every source in ``ids`` exactly ``targets``, keeping counts exact."""
    if not ids:
        return
    old = await links_of(call.conn, relation, ids)
    await call.conn.execute(_unlink_rows(relation), {"ids": list(ids)})
    rows = [
        {"source_id": source, "target_id": target, "position": position}
        for source in ids
        for position, target in enumerate(targets)
    ]
    if rows:
        await call.conn.execute_many(_link_rows(relation), rows)
    if relation.counted and counted:
        deltas: dict[int, int] = {}
        for source in ids:
            for target in old.get(source, []):
                deltas[target] = deltas.get(target, 0) - 1
            for target in targets:
                deltas[target] = deltas.get(target, 0) + 1
        await relations.adjust_counts(call.conn, call.registry, relation, deltas)


async def recount(call: Call, ids: Sequence[int], sign: int) -> None:
    """Occurrences that started (+1) or stopped (-1) counting in their terms' counts."""
    for relation in TABLE_RELATIONS:
        if relation.counted and ids:
            deltas: dict[int, int] = {}
            for targets in (await links_of(call.conn, relation, ids)).values():
                for target in targets:
                    deltas[target] = deltas.get(target, 0) + sign
            await relations.adjust_counts(call.conn, call.registry, relation, deltas)


async def copy_translations(
    conn: Connection, master_id: int, ids: Sequence[int], fields: Iterable[str] | None = None
) -> None:
    """The master's translations (``fields`` only, when given) copied to the occurrences."""
    if not ids:
        return
    wanted = None if fields is None else set(fields)
    rows = [
        r
        for r in await conn.all(TRANSLATIONS_OF, {"item_id": master_id})
        if wanted is None or r["field"] in wanted
    ]
    languages = {str(r["language"]) for r in rows}
    for language in languages:
        delete = sa.delete(translation).where(
            in_values(translation.c.item_id, "ids"),
            translation.c.kind == "event",
            translation.c.language == sa.bindparam("language", type_=sa.String),
            in_values(translation.c.field, "fields", sa.String()),
        )
        names = sorted({str(r["field"]) for r in rows if r["language"] == language})
        await conn.execute(delete, {"ids": list(ids), "language": language, "fields": names})
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
        await conn.execute_many(COPY_TRANSLATION, copies)


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
    days: dict[Any, int] = {}
    for occurrence in occurrences:
        days[occurrence.original.date()] = days.get(occurrence.original.date(), 0) + 1
    wanted = [
        f"{base}-{o.original:%Y-%m-%d}"
        + (f"-{o.original:%H%M}" if days[o.original.date()] > 1 else "")
        for o in occurrences
    ]
    taken = {str(r["slug"]) for r in await conn.all(SLUGS_TAKEN, {"slugs": wanted})}
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
    template = {c: master[c] for c in TEMPLATE}
    template["hide_from_listings"] = master["series_hidden"]
    master_id = int(master["id"])
    rows = [
        {
            **template,
            "id": item_id,
            "slug": slug,
            "timezone": master["timezone"],
            "all_day": master["all_day"],
            "start_local": o.start_local,
            "end_local": o.end_local,
            "start_at": o.start_at,
            "end_at": o.end_at,
            "series_id": master_id,
            "occurrence_start": o.original,
        }
        for item_id, slug, o in zip(ids, slugs, occurrences, strict=True)
    ]
    await conn.execute_many(_insert_occurrences(tuple(sorted(rows[0]))), rows)
    published = template["status"] == "publish"
    for relation in TABLE_RELATIONS:
        targets = (await links_of(conn, relation, [master_id])).get(master_id, [])
        if targets:
            await copy_links(call, relation, targets, ids, counted=published)
    await copy_translations(conn, master_id, ids)
    changes.record_all(conn, "event", [(i, 1) for i in ids], "create")
    return ids


# --- propagating an edit of the series -----------------------------------------------------


async def propagate(call: Call, before: Row, master: Row, sent: Mapping[str, Any]) -> None:
    """An edit of the series reaches every occurrence, except the fields set on one alone."""
    conn = call.conn
    master_id = int(master["id"])
    existing = await conn.all(SERIES_ROWS, {"series_id": master_id})
    template = {c: master[c] for c in TEMPLATE}
    template["hide_from_listings"] = master["series_hidden"]
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
    if call.translating:
        for field in ("title", "description", "excerpt", "status_reason"):
            if field in sent:
                ids = [int(r["id"]) for r in existing if field not in overrides(r)]
                await copy_translations(conn, master_id, ids, [field])


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


# --- what a write of an event sets -----------------------------------------------------------


def lines(value: Any, state: Any) -> list[str]:
    """``recurrence`` as sent: RFC 5545 lines (a list, or one string of lines); ``[]``, ``""``
    and ``null`` mean a single event. The lines themselves are read with the event's dates."""
    if value is None or value in ("", []):
        return []
    if isinstance(value, str):
        return value.splitlines()
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        if len(value) > rules.MAX_LINES:
            raise Invalid(N_("{param} has more than {max} items."), max=rules.MAX_LINES)
        return list(value)
    raise Invalid(N_("{param} must be a list of RFC 5545 lines (RRULE, RDATE, EXDATE)."))


def columns(
    call: Call, sent: Mapping[str, Any], current: Row | None, dates: Mapping[str, Any]
) -> dict[str, Any]:
    """The series columns of a write: its rule, read with its dates (validated and limited),
    and whether it is listed (a series' master never is; ``series_hidden`` keeps the series'
    own ``hide_from_listings``)."""
    if current is not None and current["series_id"] is not None:
        if "recurrence" in sent:
            raise invalid(
                "recurrence",
                N_("An occurrence has no rule of its own: send recurrence with scope=all."),
            )
        return {}
    stored = str(current["recurrence"]) if current is not None else ""
    values: dict[str, Any] = {}
    if "recurrence" in sent or (stored and dates):
        wanted = sent["recurrence"] if "recurrence" in sent else stored.split("\n")
        values["recurrence"] = _rule_text(call, wanted, current, dates)
    recurring = bool(values.get("recurrence", stored))
    if "hide_from_listings" in sent:
        hidden = bool(sent["hide_from_listings"])
    elif current is None:
        hidden = False
    else:
        hidden = bool(current["series_hidden"] if stored else current["hide_from_listings"])
    if recurring:
        values.update(hide_from_listings=True, series_hidden=hidden)
    elif stored:
        values.update(hide_from_listings=hidden, series_hidden=False)
    return values


def _rule_text(
    call: Call, wanted: Sequence[str], current: Row | None, dates: Mapping[str, Any]
) -> str:
    def value(name: str) -> Any:
        if name in dates:
            return dates[name]
        assert current is not None
        return current[name]

    try:
        rule = rules.parse(
            list(wanted),
            start_local=as_local(value("start_local")),
            zone_name=str(value("timezone")),
            all_day=bool(value("all_day")),
        )
        if rule is not None:
            rules.check_limit(rule, until=horizon(call), limit=call.site.recurrence_limit)
    except rules.RecurrenceError as error:
        raise refused(error) from None
    return "\n".join(rule.lines) if rule is not None else ""


# --- the scheduler extends series as time passes ------------------------------------------

FINISHED = datetime(9999, 1, 1, tzinfo=UTC)
"""``materialized_until`` of a series that makes no more occurrences."""
DUE = (
    sa.select(event)
    .where(event.c.materialized_until < sa.bindparam("soon", type_=event.c.materialized_until.type))
    .order_by(event.c.materialized_until)
    .limit(sa.bindparam("batch", type_=sa.Integer))
)
EXTEND_BATCH = 20


async def extend(database: Database, registry: Any, site: Site, now: datetime) -> int:
    """Series whose stored occurrences end within a week of the horizon get the occurrences up
    to it; a series that makes no more is marked finished. Returns how many were extended."""
    bound = now + timedelta(days=site.recurrence_horizon_months * 366 // 12)
    async with database.read() as conn:
        due = await conn.all(DUE, {"soon": bound - timedelta(days=7), "batch": EXTEND_BATCH})
    for master in due:
        async with database.transaction() as conn:
            call = Call(conn, ANONYMOUS, site, Urls.build("http://localhost"), now, registry)
            row = await conn.first(LOCKED, {"id": int(master["id"])})
            if row is None or not is_master(row) or row["status"] == "trash":
                continue
            rule = rule_of(row)
            until = as_utc(row["materialized_until"])
            if rule is None or not rules.continues_after(rule, until):
                await conn.execute(SET_HORIZON, {"series_id": int(row["id"]), "until": FINISHED})
            else:
                await materialise(call, row, until=bound)
    return len(due)


LOCKED = (
    sa.select(event).where(event.c.id == sa.bindparam("id", type_=sa.Integer)).with_for_update()
)

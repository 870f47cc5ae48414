"""Writes to recurring series: which rows a write applies to (``scope``), and what it does to
the series after the pipeline has written its row.

- An occurrence's id defaults to ``scope=this``: the write changes that occurrence alone (an
  override, which later edits of the series leave alone); ``DELETE`` cancels it (an EXDATE).
- ``scope=following`` splits the series there: the old series ends just before the occurrence
  (an UNTIL), a new series starts with it and takes the later occurrences, ids unchanged.
- The series' id (or ``scope=all``) changes every occurrence; ``DELETE`` trashes the series.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa

from eventcal.context import Call
from eventcal.domains.events import recurrence as rules
from eventcal.domains.events import series
from eventcal.errors import invalid
from eventcal.http.args import Arg, Params, one_of
from eventcal.http.request import RequestState
from eventcal.http.responses import Reply
from eventcal.i18n import N_
from eventcal.resources import changes
from eventcal.resources.posts import rules as post_rules
from eventcal.resources.present import present_rows
from eventcal.resources.spec import Resource
from eventcal.storage import queries as q
from eventcal.storage.db import Row, as_local, as_utc
from eventcal.storage.tables import event
from eventcal.timezones import resolve_timezone, to_utc

SCOPES = ("this", "following", "all")
SCOPE_ARG = Arg(
    "scope",
    "Which occurrences of a recurring event the write changes: this (the default for an "
    "occurrence's id), following (splits the series there) or all (the default for the "
    "series' id)",
    one_of("scope", SCOPES),
    type="string",
    enum=SCOPES,
)
SET_OVERRIDES = (
    sa.update(event)
    .where(event.c.id == sa.bindparam("row_id", type_=sa.Integer))
    .values(overrides=sa.bindparam("overrides", type_=sa.Text))
)
MOVE_TO_SERIES = (
    sa.update(event)
    .where(
        event.c.series_id == sa.bindparam("old_id", type_=sa.Integer),
        event.c.occurrence_start >= sa.bindparam("cut", type_=event.c.occurrence_start.type),
    )
    .values(series_id=sa.bindparam("new_id", type_=sa.Integer), revision=event.c.revision + 1)
    .returning(event.c.id, event.c.revision)
)


class SeriesHooks:
    """The events collection's hooks for recurring series (see the module docstring)."""

    async def target(
        self, state: RequestState, resource: Resource, row: Row, params: Params
    ) -> Row:
        scope = params.get("scope")
        if row["series_id"] is None or scope in (None, "this"):
            return row
        call = state.call
        master: Row | None = await resource.behaviour.find(
            call, resource, int(row["series_id"]), lock=True
        )
        if master is None:
            return row
        if scope == "all" or as_local(row["occurrence_start"]) == as_local(master["start_local"]):
            return master  # from the first occurrence on: the whole series
        if state.method == "DELETE":
            return row
        return await split(call, resource, master, row)

    async def after_write(
        self,
        call: Call,
        resource: Resource,
        before: Row | None,
        after: Row,
        sent: Mapping[str, Any],
    ) -> bool:
        if after["series_id"] is not None:
            await _override(call, after, sent)
            return True
        if before is None:
            if not series.is_master(after):
                return False  # a single event: nothing more to write
            await series.materialise(call, after)
            return True
        if not series.is_master(before) and not series.is_master(after):
            return False
        existing = await call.conn.all(series.OCCURRENCES, {"series_id": int(after["id"])})
        if not series.is_master(after):
            await series.delete_occurrences(call, existing)  # the series became one event
            return True
        await series.propagate(call, before, after, sent)
        if "recurrence" in sent or any(name in sent for name in series.DATE_FIELDS):
            await series.materialise(call, after)
        elif not existing:
            await series.materialise(call, after)  # a single event became a series
        return True

    async def delete(
        self, state: RequestState, resource: Resource, row: Row, params: Params
    ) -> Reply | None:
        if params.get("force") and row["recurrence"]:
            raise invalid(
                "force",
                N_(
                    "A recurring series cannot be deleted for good: move it to the trash, "
                    "or delete its occurrences one by one."
                ),
            )
        if row["series_id"] is None:
            return None  # a single event or the whole series: to the trash (or for good)
        call = state.call
        master = await resource.behaviour.find(call, resource, int(row["series_id"]), lock=True)
        if master is None:
            return None
        rule = series.rule_of(master)
        assert rule is not None
        original = as_local(row["occurrence_start"])
        shown = await present_rows(call, resource, [row], context_edit=True)
        try:
            if params.get("scope") == "following" and original != rule.start:
                ended = rules.until_before(rule, original)
                await _set_rule(call, master, ended)
            else:
                await _set_rule(call, master, rules.without(rule, original))
        except rules.RecurrenceError as error:
            raise series.refused(error) from None
        updated = await resource.behaviour.find(call, resource, int(master["id"]), lock=False)
        assert updated is not None
        await series.materialise(call, updated)
        return Reply(shown[0])


async def _override(call: Call, row: Row, sent: Mapping[str, Any]) -> None:
    """Fields written to one occurrence stay its own when the series is edited later (a
    text written in another language than the default: in that language only)."""
    fields = (
        series.overrides(row)
        | {series.overridden(name, call.translating) for name in sent} - series.SERIES_FIELDS
    )
    value = ",".join(sorted(fields))
    if value != row["overrides"]:
        await call.conn.execute(SET_OVERRIDES, {"row_id": int(row["id"]), "overrides": value})


async def _set_rule(call: Call, master: Row, rule: rules.Rule | None) -> None:
    """A new rule for the master; None: only its own first occurrence is left, so it becomes a
    single event again (listed, its other occurrences gone)."""
    values: dict[str, Any] = {"recurrence": "\n".join(rule.lines) if rule is not None else ""}
    if rule is None:
        values.update(
            hide_from_listings=master["series_hidden"], series_hidden=False, materialized_until=None
        )
        existing = await call.conn.all(series.OCCURRENCES, {"series_id": int(master["id"])})
        await series.delete_occurrences(call, existing)
    statement = q.update_row(event, tuple(sorted(values)))
    await call.conn.execute(statement, {**q.row_values(values), "row_id": master["id"]})
    changes.record(call.conn, "event", int(master["id"]), "update", int(master["revision"]) + 1)


async def split(call: Call, resource: Resource, master: Row, occurrence: Row) -> Row:
    """``scope=following``: the series ends before ``occurrence``; a new series starts with it
    and takes it and the later occurrences (their ids stay). Returns the new series' master."""
    rule = series.rule_of(master)
    assert rule is not None
    original = as_local(occurrence["occurrence_start"])
    try:
        old_half = rules.until_before(rule, original)
        new_half = rules.starting_at(rule, original)
    except rules.RecurrenceError as error:
        raise series.refused(error) from None
    new_id = await post_rules.new_id(call.conn, "event")
    values = {c: master[c] for c in master.keys()}  # noqa: SIM118 (rows are not dicts)
    zone = resolve_timezone(str(master["timezone"])) or call.site.zone
    length = as_local(master["end_local"]) - as_local(master["start_local"])
    start = as_local(occurrence["start_local"])
    slug = await post_rules.unique_slug(call.conn, event, str(master["slug"] or ""), new_id)
    values.update(
        id=new_id,
        slug=slug if master["slug"] else "",
        start_local=original,
        end_local=original + length,
        start_at=to_utc(original, zone),
        end_at=to_utc(original + length, zone),
        recurrence="\n".join(new_half.lines) if new_half is not None else "",
        revision=1,
        materialized_until=None,
    )
    if new_half is None:  # the occurrence is the last one: it becomes a single event
        values.update(
            start_local=start,
            end_local=as_local(occurrence["end_local"]),
            start_at=as_utc(occurrence["start_at"]),
            end_at=as_utc(occurrence["end_at"]),
            hide_from_listings=master["series_hidden"],
        )
    await call.conn.execute(q.insert_row(event, tuple(sorted(values))), q.row_values(values))
    changes.record(call.conn, "event", new_id, "create", 1)
    await _copy_master(call, int(master["id"]), new_id)
    moved = await call.conn.all(
        MOVE_TO_SERIES, {"old_id": int(master["id"]), "new_id": new_id, "cut": original}
    )
    changes.record_all(
        call.conn, "event", [(int(r["id"]), int(r["revision"])) for r in moved], "update"
    )
    await _set_rule(call, master, old_half)
    found: Row | None = await resource.behaviour.find(call, resource, new_id, lock=True)
    assert found is not None
    if new_half is None:
        await series.delete_occurrences(call, moved)
    return found


async def _copy_master(call: Call, old_id: int, new_id: int) -> None:
    """The new series' master links and translations are the old one's."""
    for relation in series.TABLE_RELATIONS:
        targets = (await series.links_of(call.conn, relation, [old_id])).get(old_id, [])
        if targets:
            await series.copy_links(call, relation, targets, [new_id], counted=False)
    await series.copy_translations(call.conn, old_id, [new_id])

"""Scheduled items: ``future`` posts (events, venues, organizers) become ``publish`` when their
publication date arrives (WordPress publishes them with its cron).

Every process runs :func:`publish_due` now and then; the statements are idempotent and row locks
make concurrent runs safe (a row another process already published no longer matches), so no
process needs to know about the others.
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Any

import sqlalchemy as sa

from eventcal.context import Site
from eventcal.resources import changes, relations
from eventcal.resources.registry import Registry
from eventcal.resources.spec import Relation, Resource, TableLink
from eventcal.storage.db import Database, in_values
from eventcal.storage.tables import UtcDateTime

INTERVAL_SECONDS = 30.0


def _scheduled(registry: Registry) -> tuple[Resource, ...]:
    return tuple(r for r in registry if r.behaviour.schedules)


@lru_cache(maxsize=8)
def _any_due(resources: tuple[Resource, ...]) -> sa.Select[Any]:
    return sa.select(
        sa.or_(
            *(
                sa.exists().where(
                    r.table.c.status == "future",
                    r.table.c.published_at <= sa.bindparam("now", type_=UtcDateTime),
                )
                for r in resources
            )
        ).label("due")
    )


@lru_cache(maxsize=16)
def _publish(resource: Resource) -> sa.Update:
    table = resource.table
    return (
        sa.update(table)
        .where(table.c.status == "future", table.c.published_at <= sa.bindparam("now"))
        .values(status="publish")
        .returning(table)
    )


@lru_cache(maxsize=16)
def _links(relation: Relation, target: Resource) -> sa.Select[Any]:
    """Links of the given sources to the relation's targets, counted per target."""
    link = relation.link
    assert isinstance(link, TableLink)
    query = sa.select(link.target.label("target_id"), sa.func.count().label("links")).where(
        in_values(link.source, "ids")
    )
    if target.scope is not None:
        column, value = target.scope
        query = query.where(
            link.target.in_(sa.select(target.table.c.id).where(target.table.c[column] == value))
        )
    return query.group_by(link.target)


async def run(database: Database, registry: Registry, site: Site, now: datetime) -> None:
    """One round of the scheduler: publish what is due, then each collection's upkeep."""
    await publish_due(database, registry, now)
    for resource in registry:
        if resource.upkeep is not None:
            await resource.upkeep(database, registry, site, now)


async def publish_due(database: Database, registry: Registry, now: datetime) -> dict[str, int]:
    """Publish every scheduled item whose time has come; returns how many of each kind it
    published (kinds with none are left out).

    Nothing is written when nothing is due: a write would change the data version and so
    discard every process's cached responses every half minute."""
    scheduled = _scheduled(registry)
    async with database.read() as conn:
        if not await conn.scalar(_any_due(scheduled), {"now": now}):
            return {}
    published: dict[str, int] = {}
    async with database.transaction() as conn:
        for resource in scheduled:
            rows = await conn.all(_publish(resource), {"now": now})
            if rows:
                published[resource.name] = len(rows)
            changes.record_all(
                conn, resource.name, [(int(r["id"]), int(r["revision"])) for r in rows], "publish"
            )
            ids = [int(r["id"]) for r in rows if resource.counted(r)]
            for relation in resource.relations:
                if relation.counted and ids:
                    target = registry.target(relation)
                    found = await conn.all(_links(relation, target), {"ids": ids})
                    deltas = {int(f["target_id"]): int(f["links"]) for f in found}
                    await relations.adjust_counts(conn, registry, relation, deltas)
    return published

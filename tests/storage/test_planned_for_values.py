"""Totals of searches are planned for their words (``Connection.scalar_planned_for_values``):
on PostgreSQL a generic plan, or the default cost of a pattern test, made a search total test
every event's text (30-80 ms at 10,000 events, recounted after every text edit: what held one
worker back while an editor wrote, bench/README.md "PostgreSQL with writes")."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa

from eventcal.storage.db import Connection
from tests.conftest import NS, Api

SETTINGS = sa.text(
    "SELECT current_setting('plan_cache_mode') || ' ' || current_setting('cpu_operator_cost')"
)


def test_the_settings_hold_for_that_statement_alone(api: Api) -> None:
    async def read() -> tuple[Any, Any, Any]:
        async with api.database.read() as conn:
            before = await conn.scalar(SETTINGS)
            during = await conn.scalar_planned_for_values(SETTINGS)
            after = await conn.scalar(SETTINGS)
        return before, during, after

    if api.database.dialect_name != "postgresql":
        pytest.skip("PostgreSQL's planner settings")
    before, during, after = api.run(read)
    assert during == "force_custom_plan 0.05"
    assert before == after == "auto 0.0025"


def test_inside_a_transaction_it_changes_nothing(api: Api) -> None:
    if api.database.dialect_name != "postgresql":
        pytest.skip("PostgreSQL's planner settings")

    async def write() -> tuple[Any, Any]:
        async with api.database.transaction(versioned=False) as conn:
            during = await conn.scalar_planned_for_values(SETTINGS)
            after = await conn.scalar(SETTINGS)
        return during, after

    assert api.run(write) == ("auto 0.0025", "auto 0.0025")


def test_search_totals_and_only_they_are_planned_for_their_words(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    planned: list[str] = []
    for engine in (Connection, *Connection.__subclasses__()):
        scalar = engine.__dict__.get("scalar_planned_for_values")
        if scalar is not None:
            monkeypatch.setattr(engine, "scalar_planned_for_values", _noting(scalar, planned))
    api.user("administrator")
    for title in ("Jazz night", "Jazz brunch", "Market day"):
        created = api.post(
            f"{NS}/events",
            json={
                "title": title,
                "status": "publish",
                "start_date": "2026-12-05 19:00:00",
                "end_date": "2026-12-05 22:00:00",
            },
        )
        assert created.status_code == 201, created.text
    # One per page, so that every total is counted (a short first page is its own total).
    listed = api.get(f"{NS}/events?per_page=1", as_=None)
    assert listed.status_code == 200 and listed.json()["total"] == 3
    assert planned == []
    found = api.get(f"{NS}/events?search=jazz&per_page=1", as_=None)
    assert found.status_code == 200 and found.json()["total"] == 2
    assert len(planned) == 1
    excluded = api.get(f"{NS}/events?search=-market&per_page=1", as_=None)
    assert excluded.status_code == 200 and excluded.json()["total"] == 2
    assert len(planned) == 2


def _noting(scalar: Any, planned: list[str]) -> Any:
    async def noting(self: Connection, stmt: Any, params: Any = None) -> Any:
        planned.append(str(stmt))
        return await scalar(self, stmt, params)

    return noting

"""The series' statements use indexes (SQLite's plan): materialising and extending a series
costs the same among 100 or 100,000 events."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from eventcal.domains.events.series import _extend, _materialise
from eventcal.storage import migrate
from tests.storage.test_query_plans import plan


@pytest.fixture(scope="module")
def raw(tmp_path_factory: pytest.TempPathFactory) -> sqlite3.Connection:
    path = Path(tmp_path_factory.mktemp("plans")) / "plans.db"
    migrate.upgrade(f"sqlite:///{path}")
    return sqlite3.connect(path)


def test_the_slugs_an_occurrence_would_take_are_looked_up_by_the_slug_index(
    raw: sqlite3.Connection,
) -> None:
    steps = plan(raw, _materialise.SLUGS_TAKEN, {"slugs": ["yoga-2027-01-04", "yoga-2027-01-05"]})
    assert any("INDEX ix_event_slug (slug=?)" in s for s in steps), steps
    assert not any("ix_event_listing" in s or s.startswith("SCAN event") for s in steps), steps


def test_a_series_occurrences_are_read_by_the_series_index(raw: sqlite3.Connection) -> None:
    steps = plan(raw, _materialise.OCCURRENCES, {"series_id": 7})
    assert any("ix_event_series_id_start_at (series_id=?)" in s for s in steps), steps


def test_new_occurrences_copy_the_master_by_its_key(raw: sqlite3.Connection) -> None:
    """One statement for all of them: the master read once by its key, the occurrences' own
    values from the one list parameter."""
    select = _materialise.INSERT_OCCURRENCES.select
    assert select is not None
    steps = plan(raw, select, {"master_id": 7, "occurrences": "[]"})
    assert steps == [
        "SEARCH master USING INTEGER PRIMARY KEY (rowid=?)",
        "SCAN occurrences VIRTUAL TABLE INDEX 1:",
    ], steps


def test_series_due_for_extension_are_found_by_their_horizon(raw: sqlite3.Connection) -> None:
    steps = plan(raw, _extend.DUE, {"soon": "2027-01-01", "batch": 20})
    assert any("ix_event_materialized_until (materialized_until<?)" in s for s in steps), steps

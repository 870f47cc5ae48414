"""The Schemathesis command line, as a user runs it, against a real ``eventcal serve`` on data:
every phase (examples, coverage, fuzzing, stateful), positive and negative data, anonymous and
as an administrator (application password), on each backend. It must find no 5xx
(``not_a_server_error``) and no error outside the original's shape (``error_shape``, registered
by ``tests/fuzz/schemathesis_hooks.py``). Generation is deterministic; the examples per
operation keep each run to two or three minutes.

A finding that belongs to other work is to be kept as its exact failing request in a test of
its own marked ``xfail(strict=True)``, so that it flips when fixed (none at present)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from eventcal.storage.db import create_database
from tests import factories
from tests.conftest import PASSWORD
from tests.processes.conftest import Server, prepare, start_server

ROOT = Path(__file__).resolve().parents[2]
SCHEMATHESIS = Path(sys.executable).parent / "schemathesis"
NS = "/cal/events/v1"
EXAMPLES = {"sqlite": "5", "postgresql": "3"}
"""Generated cases per operation and phase (68 operations: ~7,000 requests a run)."""


def seed(database_url: str) -> None:
    """Events of several kinds with a venue, organizers, categories and tags."""

    async def run() -> None:
        db = create_database(database_url)
        await db.startup()
        try:
            hall = await factories.make_venue(db, "Main Hall", city="Berlin", latitude=52.5)
            cellar = await factories.make_venue(db, "Cellar", status="draft")
            jane = await factories.make_organizer(db, "Jane Org", email="jane@example.org")
            hidden = await factories.make_organizer(db, "Hidden Org", post_password="secret")
            concerts = await factories.make_term(db, "Concerts")
            jazz = await factories.make_term(db, "Jazz", parent_id=concerts)
            gala = await factories.make_term(db, "gala", taxonomy="post_tag")
            await factories.make_event(
                db,
                "Jazz night",
                venue_id=hall,
                organizer_ids=(jane, hidden),
                term_ids=(concerts, jazz, gala),
                featured=True,
            )
            await factories.make_event(db, "Draft", status="draft", venue_id=cellar)
            await factories.make_event(db, "Binned", status="trash")
            await factories.make_event(db, "Secret", post_password="pw")
        finally:
            await db.shutdown()

    asyncio.run(run())


@pytest.fixture
def server(database_url: str, password_hash: str, tmp_path: Path) -> Iterator[Server]:
    prepare(database_url, password_hash)
    seed(database_url)
    running = start_server(
        database_url, tmp_path / "server.log", env={"EVENTCAL_LOGIN_MAX_FAILURES": "1000000"}
    )
    try:
        yield running
    finally:
        running.stop()


@pytest.mark.slow
@pytest.mark.parametrize("caller", ["anonymous", "administrator"])
def test_schemathesis_finds_nothing(
    server: Server, database_url: str, caller: str, tmp_path: Path
) -> None:
    backend = "sqlite" if database_url.startswith("sqlite") else "postgresql"
    command = [
        str(SCHEMATHESIS),
        "run",
        f"{server.base}{NS}/doc",
        "--checks",
        "not_a_server_error,error_shape",
        "--phases",
        "examples,coverage,fuzzing,stateful",
        "--mode",
        "all",
        "--max-examples",
        EXAMPLES[backend],
        "--generation-deterministic",
        "--workers",
        "1",
        "--no-color",
        "--request-timeout",
        "30",
    ]
    if caller == "administrator":
        command += ["--auth", f"admin:{PASSWORD}"]
    env = {
        **os.environ,
        "SCHEMATHESIS_HOOKS": "tests.fuzz.schemathesis_hooks",
        "PYTHONPATH": str(ROOT),
    }
    done = subprocess.run(  # noqa: S603 (the pinned schemathesis of the dev extras)
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900, check=False
    )
    found = done.stdout.find("FAILURES")
    summary = (done.stdout[found:][:20_000] if found >= 0 else done.stdout[-5000:]) + done.stderr
    assert done.returncode == 0, summary
    assert " passed" in done.stdout
    assert "Examples" in done.stdout and "Stateful" in done.stdout

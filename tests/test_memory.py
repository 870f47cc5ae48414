"""Freed heap memory goes back to the system (``eventcal.memory``): without it a PostgreSQL
worker's resident memory grew past 150 MB while its Python objects stayed at 53 MB."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from eventcal import memory
from eventcal.app import create_app
from eventcal.config import Settings

pytestmark = pytest.mark.skipif(not memory.can_release(), reason="not glibc: nothing to call")


def resident_mb() -> float:
    status = Path(f"/proc/{os.getpid()}/status").read_text()
    return int(status.split("VmRSS:")[1].split()[0]) / 1024


def test_release_returns_the_holes_left_by_freed_bodies() -> None:
    # Response-sized bodies interleaved with small survivors: freeing the bodies leaves holes
    # that glibc keeps (they are not at the top of the heap).
    survivors = []
    bodies = []
    for i in range(20_000):
        bodies.append(os.urandom(6_000))
        survivors.append(bytes(100 + i % 300))
    del bodies
    freed = resident_mb()
    assert memory.release()
    assert freed - resident_mb() > 40, "the freed 120 MB stayed resident"
    assert len(survivors) == 20_000


def test_every_worker_releases_memory_while_it_runs(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[float] = []

    def counted() -> bool:
        calls.append(time.monotonic())
        return True

    monkeypatch.setattr(memory, "INTERVAL_SECONDS", 0.01)
    monkeypatch.setattr(memory, "release", counted)
    with TestClient(create_app(settings)):
        deadline = time.monotonic() + 5
        while len(calls) < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(calls) >= 3
    stopped = len(calls)
    time.sleep(0.05)
    assert len(calls) == stopped  # the task ends with the app

"""Freed heap memory goes back to the system (``eventcal.memory``): without it a PostgreSQL
worker's resident memory grew past 150 MB while its Python objects stayed at 53 MB."""

from __future__ import annotations

import json
import os
import subprocess
import sys
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


_WORKER = """
import asyncio, gc, json
from eventcal.app import asgi, create_app

async def start(app):
    sent = []
    messages = [{"type": "lifespan.startup"}]

    async def receive():
        return messages.pop(0) if messages else await asyncio.Event().wait()

    async def send(message):
        sent.append(message["type"])

    task = asyncio.ensure_future(app({"type": "lifespan"}, receive, send))
    while not sent:
        await asyncio.sleep(0.01)
    task.cancel()
    return sent

before = (gc.get_freeze_count(), gc.get_threshold()[0])
plain = asyncio.run(start(create_app()))
after_plain = (gc.get_freeze_count(), gc.get_threshold()[0])
served = asyncio.run(start(asgi()))
print(json.dumps([before, plain, after_plain, served, gc.get_freeze_count(), gc.get_threshold()]))
"""


def test_a_server_worker_settles_its_garbage_collector_once_started(database_url: str) -> None:
    env = {**os.environ, "EVENTCAL_DATABASE_URL": database_url, "EVENTCAL_LOG_LEVEL": "ERROR"}
    command = [sys.executable, "-c", _WORKER]
    done = subprocess.run(  # noqa: S603 - this interpreter, this file's code
        command, check=False, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    before, plain, after_plain, served, frozen, threshold = json.loads(done.stdout)
    assert plain == served == ["lifespan.startup.complete"]
    # An app built for tests or embedding leaves the process's collector alone...
    assert after_plain == before == [0, 700]
    # ...a server's worker freezes what it built at start and collects the young less often.
    assert frozen > 10_000
    assert threshold[0] == memory.YOUNG_THRESHOLD

"""Graceful shutdown (issue 7): a server told to stop (SIGTERM, what a process manager or a
rolling upgrade sends) finishes the requests it has started, then exits cleanly.

The request is held in flight deterministically: the test takes SQLite's write lock first, so
the server's create waits for it (busy timeout); the server is told to stop while it waits; the
lock is then released."""

from __future__ import annotations

import signal
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import httpx2

from eventcal.storage import migrate
from eventcal.storage.db import sqlite_path
from tests.processes.conftest import AUTH, prepare, start_server

NS = "/cal/events/v1"
EVENT = {
    "title": "Last Orders",
    "start_date": "2027-03-05 19:00:00",
    "end_date": "2027-03-05 22:00:00",
    "status": "publish",
}


def test_a_stopped_server_finishes_the_requests_in_flight(
    tmp_path: Path, password_hash: str
) -> None:
    url = f"sqlite:///{tmp_path / 'eventcal.db'}"
    migrate.upgrade(url)
    prepare(url, password_hash)
    server = start_server(url, tmp_path / "server.log")
    answers: list[Any] = []
    try:
        base = server.base
        lock = sqlite3.connect(sqlite_path(url), isolation_level=None)
        lock.execute("BEGIN IMMEDIATE")  # the server's write waits for this
        try:

            def create() -> None:
                with httpx2.Client(base_url=base, timeout=30, headers=AUTH) as client:
                    try:
                        answers.append(client.post(f"{NS}/events", json=EVENT))
                    except httpx2.HTTPError as exc:  # recorded: the assertion below names it
                        answers.append(exc)

            writer = threading.Thread(target=create)
            writer.start()
            time.sleep(2.0)  # the request is now waiting for the lock inside the server
            assert not answers, "the write did not wait for the lock"
            server.process.send_signal(signal.SIGTERM)
            time.sleep(0.5)
            assert server.process.poll() is None, "the server exited with a request in flight"
        finally:
            lock.execute("ROLLBACK")
            lock.close()
        writer.join(30)
        assert server.process.wait(20) == 0, server.log.read_text()[-2000:]
    finally:
        server.stop()

    assert len(answers) == 1 and not isinstance(answers[0], Exception), answers
    assert answers[0].status_code == 201, answers[0].text
    created = answers[0].json()["id"]
    with sqlite3.connect(sqlite_path(url)) as check:
        titles = check.execute("SELECT title FROM event WHERE id = ?", (created,)).fetchall()
    assert titles == [("Last Orders",)]

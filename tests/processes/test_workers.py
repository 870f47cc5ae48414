"""``eventcal serve --workers N`` runs N worker processes that all answer (issue 7)."""

from __future__ import annotations

import signal
from pathlib import Path

import httpx2

from tests.processes.conftest import AUTH, start_server

NS = "/cal/events/v1"


def worker_pids(main_pid: int) -> list[int]:
    children = Path(f"/proc/{main_pid}/task/{main_pid}/children").read_text()
    return [int(pid) for pid in children.split()]


def test_serve_with_two_workers_runs_two_processes(empty_database: str, tmp_path: Path) -> None:
    server = start_server(empty_database, tmp_path / "server.log", workers=2)
    workers: list[int] = []
    try:
        workers = worker_pids(server.process.pid)
        assert len(workers) == 2, workers
        with httpx2.Client(base_url=server.base, timeout=30, headers=AUTH) as client:
            created = client.post(
                f"{NS}/events",
                json={
                    "title": "Two workers",
                    "start_date": "2027-03-05 19:00:00",
                    "end_date": "2027-03-05 22:00:00",
                },
            )
            assert created.status_code == 201, created.text
            # Fresh connections land on either worker; every one sees the write.
            for _ in range(20):
                with httpx2.Client(base_url=server.base, timeout=30) as fresh:
                    listed = fresh.get(f"{NS}/events")
                    assert listed.status_code == 200
                    assert listed.json()["total"] == 1
    finally:
        assert server.stop(signal.SIGTERM) == 0
    assert all(not Path(f"/proc/{pid}").exists() for pid in workers)

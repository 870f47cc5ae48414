"""Time the iCalendar feed (issue 17): ``GET /events.ics`` with 2,000 events, the setting's
default maximum, on a temporary SQLite database seeded like ``bench/seed.py`` does.

Prints, per request (response cache off, so every request builds the feed): wall time, and the
CPU time of rendering (``icalendar``, in its worker thread) apart from reading and presenting.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from typing import Any

from starlette.testclient import TestClient

import seed
from eventcal.app import create_app
from eventcal.config import load_settings
from eventcal.domains.events import ical


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=2000, help="events seeded (2,000)")
    parser.add_argument("--runs", type=int, default=5, help="requests measured (5)")
    args = parser.parse_args(argv)
    render_cpu: list[float] = []
    render = ical.ICS.render

    def timed(*parts: Any) -> bytes:
        started = time.thread_time()
        body = render(*parts)
        render_cpu.append(time.thread_time() - started)
        return body

    object.__setattr__(ical.ICS, "render", timed)
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/feed.db"
        seed.seed(url, events=args.events, fast=True)
        settings = load_settings({}).with_overrides(
            database_url=url, response_cache_mb=0, public_url="http://bench.example"
        )
        with TestClient(create_app(settings)) as client:
            walls: list[float] = []
            cpus: list[float] = []
            size = 0
            for _ in range(args.runs + 1):
                started, cpu_started = time.perf_counter(), time.process_time()
                response = client.get("/cal/events/v1/events.ics")
                walls.append(time.perf_counter() - started)
                cpus.append(time.process_time() - cpu_started)
                assert response.status_code == 200, response.text[:300]
                size = len(response.content)
                events = response.content.count(b"BEGIN:VEVENT")
    # The first request warms caches up (statements, zones).
    walls, cpus, renders = walls[1:], cpus[1:], render_cpu[1:]
    print(f"{events:,} events, {size / 1e6:.1f} MB")
    for name, values in (("request wall", walls), ("request CPU", cpus), ("render CPU", renders)):
        median, least = statistics.median(values) * 1000, min(values) * 1000
        print(f"{name}: median {median:.0f} ms (min {least:.0f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

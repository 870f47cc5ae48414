"""Scenarios of a live site (issue 18): distinct reads while an editor writes, the building path
per filter, two workers.

``run.py`` builds its scenarios from these: the wrk scripts pick a random path of a list made
here (seeded, so every run asks the same mix), and :class:`Writer` PATCHes random events through
the API at a steady rate from a thread of the benchmark while wrk measures.
"""

from __future__ import annotations

import base64
import json
import random
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

API = "/cal/events/v1"
SEARCH_WORDS = ("jazz", "market", "gala", "lecture", "workshop", "screening")
"""Words of the seeded titles: each in about one event of eight."""


@dataclass(frozen=True, slots=True)
class Pool:
    """Ids the paths pick from (the seeded database's)."""

    event_ids: Sequence[int]
    category_ids: Sequence[int]
    tag_ids: Sequence[int]
    venue_ids: Sequence[int]
    organizer_ids: Sequence[int]


def _window(rng: random.Random, *, days: int = 20) -> str:
    today = datetime.now(UTC).date()
    start = today + timedelta(days=rng.randrange(1, 700))
    return f"start_date={start.isoformat()}&end_date={(start + timedelta(days=days)).isoformat()}"


PathMaker = Callable[[random.Random, Pool], str]

FILTERS: dict[str, PathMaker] = {
    "plain page": lambda r, p: f"?page={r.randrange(1, 61)}",
    "categories": lambda r, p: f"?categories={r.choice(p.category_ids)}&page={r.randrange(1, 6)}",
    "tags": lambda r, p: f"?tags={r.choice(p.tag_ids)}",
    "venue": lambda r, p: f"?venue={r.choice(p.venue_ids)}",
    "organizer": lambda r, p: f"?organizer={r.choice(p.organizer_ids)}",
    "featured": lambda r, p: f"?featured=1&page={r.randrange(1, 4)}",
    "search": lambda r, p: f"?search={r.choice(SEARCH_WORDS)}",
    "date window": lambda r, p: "?" + _window(r),
    "strict dates": lambda r, p: "?" + _window(r) + "&strict_dates=1",
    "geoloc": lambda r, p: "?geoloc=1",
    "include": lambda r, p: "?include=" + ",".join(map(str, r.sample(list(p.event_ids), 10))),
    "status": lambda r, p: f"?event_status=scheduled&page={r.randrange(1, 6)}",
}
"""``GET /events`` per filter of issue 18 (the query string)."""


def mixed_path(rng: random.Random, pool: Pool) -> str:
    """40% single events, 25% listing pages 1-60, 15% a category and a page, 10% a search
    word, 10% date windows (the mix of issue 18)."""
    roll = rng.random()
    if roll < 0.40:
        return f"{API}/events/{rng.choice(pool.event_ids)}"
    name = (
        "plain page"
        if roll < 0.65
        else "categories"
        if roll < 0.80
        else "search"
        if roll < 0.90
        else "date window"
    )
    return f"{API}/events{FILTERS[name](rng, pool)}"


def paths(make: Callable[[random.Random], str], count: int = 4000) -> list[str]:
    rng = random.Random(18)
    return [make(rng) for _ in range(count)]


def paths_script(listed: Sequence[str]) -> str:
    """A wrk script asking a random path of ``listed`` per request."""
    body = ",\n  ".join(f'"{p}"' for p in listed)
    return f"""
local paths = {{
  {body}
}}
function request()
  return wrk.format("GET", paths[math.random(#paths)])
end
"""


@dataclass(slots=True)
class Writer:
    """PATCHes (``POST /events/{id}``, a new excerpt: titles keep the words searched for) of
    random events at ``per_second``, as an
    editor would, from a thread of the benchmark; counts what it sent and what failed."""

    base_url: str
    event_ids: Sequence[int]
    login: str
    password: str
    per_second: float = 10.0
    sent: int = 0
    failed: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _thread: threading.Thread | None = None

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=60)

    def _run(self) -> None:
        """One write every ``1 / per_second`` s, each in a thread of a pool, so that slow
        answers under load do not lower the rate."""
        rng = random.Random(10)
        token = base64.b64encode(f"{self.login}:{self.password}".encode()).decode()
        interval = 1 / self.per_second
        next_at = time.monotonic()
        with ThreadPoolExecutor(max_workers=32) as pool:
            while not self._stop.is_set():
                pool.submit(self._write, rng.choice(self.event_ids), token)
                next_at += interval
                self._stop.wait(max(0.0, next_at - time.monotonic()))

    def _write(self, event_id: int, token: str) -> None:
        body = json.dumps({"excerpt": f"Edited at {time.time_ns()}"}).encode()
        request = urllib.request.Request(
            f"{self.base_url}{API}/events/{event_id}",
            data=body,
            headers={"Content-Type": "application/json", "Authorization": f"Basic {token}"},
            method="POST",
        )
        started = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                ok = response.status == 200
        except (urllib.error.URLError, OSError):
            ok = False
        with self._lock:
            self.latencies_ms.append((time.monotonic() - started) * 1000)
            self.sent += 1
            self.failed += not ok

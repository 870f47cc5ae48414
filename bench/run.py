"""Benchmark the API against bare-ASGI references (issue 8). See bench/README.md.

    make bench                                    # SQLite, 10,000 events
    make bench BENCH_ARGS="--postgres --duration 20"

Seeds a fresh database, serves it with ``eventcal serve --workers 1`` pinned to CPU 0, loads it
with ``wrk`` pinned to CPU 1, and prints requests/s, p50 and p99 per scenario next to two
references served the same way (``bench/reference_apps.py``). Results also go to
``bench/results/<time>-<backend>.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import fcntl
import json
import os
import platform
import random
import re
import resource
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime, timedelta
from importlib.metadata import version
from pathlib import Path
from typing import Any

import sqlalchemy as sa

import live
import media
import seed
from eventcal.storage.db import create_database, postgres_dsn
from eventcal.storage.tables import CATEGORY_TAXONOMY, TAG_TAXONOMY, event, organizer, term, venue

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
RESULTS = BENCH / "results"
BIN = Path(sys.executable).parent
API = "/cal/events/v1"
HOST = "127.0.0.1"
FIRST_PORT = 8765
SERVER_CPU = "0"
WRK_CPU = "1"
DEFAULT_POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/test"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# --- wrk scripts -------------------------------------------------------------------------------

# Every script ends with this: wrk's own summary is printed too (--latency), but this line is
# what we parse (exact microseconds, and errors by kind).
LUA_DONE = """
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH_RESULT {"requests":%d,"duration_us":%d,"bytes":%d,"connect_errors":%d,' ..
    '"read_errors":%d,"write_errors":%d,"timeouts":%d,"bad_status":%d,' ..
    '"p50_us":%d,"p90_us":%d,"p99_us":%d,"mean_us":%.1f,"max_us":%d}\\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.timeout,
    e.status, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency.mean, latency.max))
end
"""


def lua_string(text: str) -> str:
    """A Lua long-bracket string literal (no escaping needed for JSON)."""
    assert "]==]" not in text
    return f"[==[{text}]==]"


def random_ids_script(path_prefix: str, ids: Sequence[int]) -> str:
    """GET ``path_prefix`` + a random id of ``ids`` per request."""
    listed = ",".join(str(i) for i in ids)
    return f"""
local ids = {{{listed}}}
function request()
  return wrk.format("GET", "{path_prefix}" .. ids[math.random(#ids)])
end
"""


def post_script(path: str, authorization: str, bodies: Sequence[str]) -> str:
    """POST a JSON event per request. Titles are unique (``run_id``, set per wrk run by
    :func:`run_wrk`, then thread and counter), so every event gets its slug at the first try,
    as new events usually do."""
    listed = ",\n  ".join(lua_string(b) for b in bodies)
    return f"""
local bodies = {{
  {listed}
}}
local counter = 0
thread_id = 0
local next_thread = 0
wrk.method = "POST"
wrk.path = "{path}"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "{authorization}"

function setup(thread)
  next_thread = next_thread + 1
  thread:set("thread_id", next_thread)
end

function request()
  counter = counter + 1
  local body = '{{"title":"Bench post ' .. run_id .. ' ' .. thread_id .. '-' .. counter .. '",' ..
    bodies[counter % #bodies + 1]
  return wrk.format(nil, nil, nil, body)
end
"""


# --- scenarios -----------------------------------------------------------------------------------


@dataclass(slots=True)
class Scenario:
    name: str
    server: str
    """``eventcal`` or the name of an app in reference_apps.py."""
    path: str
    """What wrk's URL points at (scripts may pick their own paths)."""
    measures: str
    script: str = ""
    method: str = "GET"
    sample_body: bytes | None = None
    """The body of the sanity request made before measuring (the script makes its own)."""
    headers: dict[str, str] = field(default_factory=dict)
    expect: int = 200
    target_rps: float | None = None
    target_p99_ms: float | None = None
    writer: Callable[[str], live.Writer] | None = None
    """Writes during the measurement (``base URL → writer``), started before the warm-up."""
    warm_as_mixed: bool = False
    """Its server's caches start cold, while the one-worker figure it is compared with runs
    after "mixed reads" on the same server: its warm-up lasts as long as that scenario and its
    warm-up, so both are measured with caches as warm (each worker keeps its own)."""


@dataclass(slots=True)
class Result:
    scenario: str
    requests_per_s: float
    p50_ms: float
    p90_ms: float
    p99_ms: float
    mean_ms: float
    max_ms: float
    requests: int
    errors: dict[str, int]
    target: str
    meets_target: bool | None
    rss_mb: float | None = None
    """Resident memory of the server's worker after the measurement (the issue's memory target)."""
    writes: str = ""
    """What the writer did during the measurement (writes/s, failures, median latency)."""
    cpu: dict[str, float] = field(default_factory=dict)
    """CPUs busy during the measurement (CPU seconds per second): ``server`` (granian and its
    workers), ``wrk``, and ``other`` (the rest of the machine: the database server, the
    editor's thread, anything else running)."""


@dataclass(slots=True)
class Fixtures:
    """What the scenarios need from the seeded database."""

    event_ids: list[int]
    venue_ids: list[int]
    organizer_ids: list[int]
    category_ids: list[int]
    tag_names: list[str]
    tag_ids: list[int] = field(default_factory=list)


async def read_fixtures(url: str, sample: int = 10_000) -> Fixtures:
    database = create_database(url)
    await database.startup()
    try:
        async with database.read() as conn:
            published = event.c.status == "publish"
            ids = await conn.all(
                sa.select(event.c.id).where(published).order_by(sa.func.random()).limit(sample)
            )
            venues = await conn.all(sa.select(venue.c.id).where(venue.c.status == "publish"))
            organizers = await conn.all(
                sa.select(organizer.c.id).where(organizer.c.status == "publish")
            )
            categories = await conn.all(
                sa.select(term.c.id).where(term.c.taxonomy == CATEGORY_TAXONOMY)
            )
            tags = await conn.all(
                sa.select(term.c.id, term.c.name).where(term.c.taxonomy == TAG_TAXONOMY)
            )
    finally:
        await database.shutdown()
    return Fixtures(
        event_ids=[int(r["id"]) for r in ids],
        venue_ids=[int(r["id"]) for r in venues],
        organizer_ids=[int(r["id"]) for r in organizers],
        category_ids=[int(r["id"]) for r in categories],
        tag_names=[str(r["name"]) for r in tags],
        tag_ids=[int(r["id"]) for r in tags],
    )


def post_bodies(fixtures: Fixtures, count: int = 100) -> list[str]:
    """JSON events without their title (``"title": …`` is added per request): dates in the next
    year, an existing venue and organizer, categories by id, tags by name."""
    rng = random.Random(8)
    today = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0, tzinfo=None)
    bodies = []
    for _ in range(count):
        start = today + timedelta(days=rng.randrange(1, 365), hours=rng.randint(9, 21))
        end = start + timedelta(hours=rng.randint(1, 4))
        fields = {
            "description": " ".join(rng.sample(seed.SENTENCES, 3)),
            "start_date": start.isoformat(" "),
            "end_date": end.isoformat(" "),
            "timezone": rng.choice(seed.ZONES),
            "cost": str(rng.choice((5, 10, 15, 20))),
            "venue": rng.choice(fixtures.venue_ids),
            "organizer": rng.choice(fixtures.organizer_ids),
            "categories": rng.sample(fixtures.category_ids, 2),
            "tags": rng.sample(fixtures.tag_names, 2),
        }
        bodies.append(json.dumps(fields)[1:])
    return bodies


def basic_auth(login: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{login}:{password}".encode()).decode()


def build_scenarios(fixtures: Fixtures, postgres: bool, media_path: str) -> list[Scenario]:
    """References first, then the API; the POST scenario writes, so it runs last."""
    events = f"{API}/events"
    authorization = basic_auth(seed.ADMIN_LOGIN, seed.ADMIN_PASSWORD)
    bodies = post_bodies(fixtures)
    sample_body = ('{"title":"Benchmark sanity check",' + bodies[0]).encode()
    rows_app = "postgres_rows" if postgres else "sqlite_rows"
    return [
        Scenario(
            "reference: hello",
            "hello",
            "/",
            "bare ASGI app returning a constant JSON body (granian + Python floor)",
        ),
        Scenario(
            "reference: 10 rows",
            rows_app,
            "/",
            "bare ASGI app reading the 10 next events from the same database, orjson-encoded",
        ),
        Scenario(
            "GET /events",
            "eventcal",
            events,
            "default listing: 10 events of the window yesterday..+24 months, with total",
            target_rps=1500 if postgres else 3000,
            target_p99_ms=20,
        ),
        Scenario(
            "GET /events/{id}",
            "eventcal",
            f"{events}/{fixtures.event_ids[0]}",
            f"one event by id, random among {len(fixtures.event_ids):,} published ones",
            script=random_ids_script(f"{events}/", fixtures.event_ids),
            target_rps=5000,
        ),
        Scenario(
            "GET /uploads/{hash}/{name}",
            "eventcal",
            media_path,
            "a stored rendition (medium, 300x225 JPEG): one read by a unique index; target "
            "half of GET /events/{id}'s target",
            target_rps=2500,
        ),
        Scenario(
            "POST /events",
            "eventcal",
            events,
            "create an event (admin, HTTP Basic; venue, organizer, 2 categories, 2 tags)",
            script=post_script(events, authorization, bodies),
            method="POST",
            sample_body=sample_body,
            headers={"Content-Type": "application/json", "Authorization": authorization},
            expect=201,
            target_rps=None if postgres else 800,
        ),
    ]


def live_scenarios(fixtures: Fixtures, postgres: bool) -> list[Scenario]:
    """Issue 18: the mixed reads with and without an editor writing, on one and two workers,
    then every filter of ``GET /events`` with the response cache off (the building path)."""
    pool = live.Pool(
        fixtures.event_ids,
        fixtures.category_ids,
        fixtures.tag_ids,
        fixtures.venue_ids,
        fixtures.organizer_ids,
    )
    mixed = live.paths(lambda rng: live.mixed_path(rng, pool))

    def writer(base_url: str) -> live.Writer:
        ids = fixtures.event_ids[:2000]
        return live.Writer(base_url, ids, seed.ADMIN_LOGIN, seed.ADMIN_PASSWORD)

    measures = "40% single events, 25% pages 1-60, 15% category + page, 10% search, 10% dates"
    found = [
        Scenario("mixed reads", "eventcal", mixed[0], measures, live.paths_script(mixed)),
        Scenario(
            "mixed reads + 10 writes/s",
            "eventcal",
            mixed[0],
            measures + "; an editor PATCHes random events 10 times a second",
            live.paths_script(mixed),
            target_rps=2000 if postgres else 3000,
            target_p99_ms=50,
            writer=writer,
        ),
        Scenario(
            "2 workers: mixed reads + 10 writes/s",
            "eventcal:2workers",
            mixed[0],
            "the same on two workers (both CPUs; wrk shares CPU 1)",
            live.paths_script(mixed),
            writer=writer,
            warm_as_mixed=True,
        ),
    ]
    for name, make in live.FILTERS.items():
        rng = random.Random(18)
        listed = [f"{API}/events{make(rng, pool)}" for _ in range(500)]
        found.append(
            Scenario(
                f"building: {name}",
                "eventcal:nocache",
                listed[0],
                f"GET /events ({name}) with the response cache off",
                live.paths_script(listed),
            )
        )
    return found


def target_text(scenario: Scenario) -> str:
    parts = []
    if scenario.target_rps is not None:
        parts.append(f">= {scenario.target_rps:,.0f}/s")
    if scenario.target_p99_ms is not None:
        parts.append(f"p99 < {scenario.target_p99_ms:g} ms")
    return ", ".join(parts)


# --- servers -----------------------------------------------------------------------------------


def free_port(start: int) -> int:
    for port in range(start, start + 100):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind((HOST, port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {start}..{start + 99}")


class Server:
    """A server process pinned to the server CPU, in its own process group so that stopping it
    stops its workers too."""

    def __init__(
        self,
        name: str,
        command: list[str],
        env: dict[str, str],
        port: int,
        log_path: Path,
        *,
        cpus: str = SERVER_CPU,
    ) -> None:
        self.name = name
        self.port = port
        self.log_path = log_path
        self.log = self.log_path.open("w")
        self.process = subprocess.Popen(
            ["taskset", "-c", cpus, *command],
            env=env,
            cwd=ROOT,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def url(self, path: str) -> str:
        return f"http://{HOST}:{self.port}{path}"

    def wait_ready(self, path: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited:\n{self.log_path.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url(path), timeout=5):
                    return
            except urllib.error.HTTPError as exc:
                raise RuntimeError(
                    f"{self.name} answered {exc.code}: {exc.read()[:500]!r}"
                ) from exc
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.2)
        raise RuntimeError(f"{self.name} did not answer within {timeout:g} s")

    def worker_rss_mb(self) -> float | None:
        """Resident memory of the largest worker (``VmRSS``), or None when it cannot be read."""
        sizes = []
        for pid in self.worker_pids():
            with contextlib.suppress(OSError):
                status = Path(f"/proc/{pid}/status").read_text()
                found = re.search(r"^VmRSS:\s+(\d+) kB", status, re.MULTILINE)
                if found:
                    sizes.append(int(found.group(1)) / 1024)
        return round(max(sizes), 1) if sizes else None

    def cpu_seconds(self) -> float:
        """CPU time used so far by granian's main process and its workers (user + system)."""
        total = 0.0
        for pid in (self.process.pid, *self.worker_pids()):
            with contextlib.suppress(OSError, IndexError, ValueError):
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
        return total

    def worker_pids(self) -> list[int]:
        """The worker processes (children of granian's main process)."""
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in children.read_text().split()]

    def stop(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGINT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.close()


@contextlib.contextmanager
def serve(
    name: str,
    database_url: str,
    ready_path: str,
    log_path: Path,
    server_env: dict[str, str] | None = None,
) -> Iterator[Server]:
    """``eventcal serve`` for ``eventcal``, else granian serving ``reference_apps:<name>``."""
    port = free_port(FIRST_PORT)
    env = {**os.environ, "EVENTCAL_DATABASE_URL": database_url, **(server_env or {})}
    cpus = SERVER_CPU
    if name.startswith("eventcal"):
        command = [str(BIN / "eventcal"), "serve", "--host", HOST, "--port", str(port)]
        command += ["--workers", "2" if name == "eventcal:2workers" else "1"]
        if name == "eventcal:2workers":
            cpus = f"{SERVER_CPU},{WRK_CPU}"
        if name == "eventcal:nocache":
            env["EVENTCAL_RESPONSE_CACHE_MB"] = "0"
    else:
        if database_url.startswith("sqlite"):
            env["BENCH_SQLITE_PATH"] = database_url.removeprefix("sqlite:///")
        else:
            env["BENCH_POSTGRES_URL"] = postgres_dsn(database_url)
        command = [str(BIN / "granian"), "--interface", "asgi", "--workers", "1"]
        command += ["--host", HOST, "--port", str(port), "--working-dir", str(BENCH)]
        command += [f"reference_apps:{name}"]
    server = Server(name, command, env, port, log_path, cpus=cpus)
    try:
        server.wait_ready(ready_path)
        yield server
        # wrk stops at its deadline with requests in flight; let them finish, so that the log
        # shows only errors of the measurement, not of requests cut off by the stop.
        time.sleep(1)
    finally:
        server.stop()


# --- wrk -----------------------------------------------------------------------------------------


def ensure_wrk() -> str:
    found = shutil.which("wrk")
    if found:
        return found
    print("wrk is missing: installing it with `apt-get install -y wrk`")
    subprocess.run(["apt-get", "install", "-y", "wrk"], check=True)
    found = shutil.which("wrk")
    if not found:
        raise SystemExit("wrk could not be installed; install it and run again")
    return found


@dataclass(slots=True)
class Load:
    duration: int
    connections: int
    threads: int
    cpu: str
    """The CPU wrk runs on."""


def run_wrk(server: Server, scenario: Scenario, load: Load, script_path: Path) -> dict[str, Any]:
    run_id = f'run_id = "{time.time_ns():x}"\n'
    script_path.write_text(run_id + scenario.script + LUA_DONE)
    command = ["taskset", "-c", load.cpu, "wrk", f"-t{load.threads}", f"-c{load.connections}"]
    command += [f"-d{load.duration}s", "--latency", "-s", str(script_path)]
    command += [server.url(scenario.path)]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    match = re.search(r"^BENCH_RESULT (\{.*\})$", output, re.MULTILINE)
    if match is None:
        raise RuntimeError(f"unexpected wrk output:\n{output}")
    return dict(json.loads(match.group(1)))


def sanity_check(server: Server, scenario: Scenario) -> int:
    """One request before measuring: a benchmark of error pages would be worthless. Returns the
    response size."""
    request = urllib.request.Request(
        server.url(scenario.path),
        data=scenario.sample_body,
        headers=scenario.headers,
        method=scenario.method,
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, body = response.status, response.read()
    except urllib.error.HTTPError as exc:
        status, body = exc.code, exc.read()
    if status != scenario.expect:
        raise RuntimeError(
            f"{scenario.name}: status {status}, expected {scenario.expect}: {body!r}"
        )
    return len(body)


def measure(server: Server, scenario: Scenario, load: Load, warmup: int, work_dir: Path) -> Result:
    size = sanity_check(server, scenario)
    if scenario.warm_as_mixed:
        warmup = 2 * warmup + load.duration
    print(f"  {scenario.name}: {size:,} bytes per response; warm-up {warmup} s, ", end="")
    print(f"measuring {load.duration} s", flush=True)
    script_path = work_dir / f"{re.sub(r'[^a-z0-9]+', '-', scenario.name.lower())}.lua"
    writer = scenario.writer(server.url("")) if scenario.writer is not None else None
    if writer is not None:
        writer.start()
    try:
        if warmup > 0:
            run_wrk(server, scenario, replace(load, duration=warmup), script_path)
        sent_before, started = (writer.sent if writer else 0), time.monotonic()
        before = _cpu_sample(server)
        raw = run_wrk(server, scenario, load, script_path)
        cpu = _cpu_used(before, _cpu_sample(server), time.monotonic() - started)
    finally:
        if writer is not None:
            writer.stop()
    writes = ""
    if writer is not None:
        rate = (writer.sent - sent_before) / (time.monotonic() - started)
        median = statistics.median(writer.latencies_ms) if writer.latencies_ms else 0
        writes = f"{rate:.1f} writes/s, {writer.failed} failed, median {median:.0f} ms"
    errors = {
        key: int(raw[key])
        for key in ("connect_errors", "read_errors", "write_errors", "timeouts", "bad_status")
        if raw[key]
    }
    rps = raw["requests"] / (raw["duration_us"] / 1e6)
    p99 = raw["p99_us"] / 1000
    meets = None
    if scenario.target_rps is not None or scenario.target_p99_ms is not None:
        meets = (scenario.target_rps is None or rps >= scenario.target_rps) and (
            scenario.target_p99_ms is None or p99 < scenario.target_p99_ms
        )
    return Result(
        scenario=scenario.name,
        requests_per_s=round(rps, 1),
        p50_ms=raw["p50_us"] / 1000,
        p90_ms=raw["p90_us"] / 1000,
        p99_ms=p99,
        mean_ms=round(raw["mean_us"] / 1000, 3),
        max_ms=raw["max_us"] / 1000,
        requests=int(raw["requests"]),
        errors=errors,
        target=target_text(scenario),
        meets_target=meets,
        rss_mb=server.worker_rss_mb(),
        writes=writes,
        cpu=cpu,
    )


def _machine_busy_seconds() -> float:
    """CPU seconds every CPU of the machine spent busy so far (``/proc/stat``)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle, iowait
    return (sum(values[:8]) - idle) / CLOCK_TICKS


def _cpu_sample(server: Server) -> tuple[float, float, float]:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return server.cpu_seconds(), children.ru_utime + children.ru_stime, _machine_busy_seconds()


def _cpu_used(
    before: tuple[float, float, float], after: tuple[float, float, float], seconds: float
) -> dict[str, float]:
    """CPUs busy between two samples: the server, wrk (the only child reaped in between) and
    the rest of the machine."""
    server, wrk, machine = (round((a - b) / seconds, 2) for a, b in zip(after, before, strict=True))
    return {"server": server, "wrk": wrk, "other": round(max(machine - server - wrk, 0.0), 2)}


# --- profiling (--profile) ------------------------------------------------------------------


def profile(server: Server, scenario: Scenario, load: Load, work_dir: Path, stamp: str) -> Path:
    """Sample the worker with py-spy while wrk loads ``scenario``; writes the collapsed stacks
    and a summary of the most expensive functions next to the results."""
    py_spy = BIN / "py-spy"
    worker = server.worker_pids()[0]
    stacks = RESULTS / f"{stamp}-profile-stacks.txt"
    command = [str(py_spy), "record", "--pid", str(worker), "--duration", str(load.duration)]
    command += ["--rate", "250", "--function", "--nonblocking", "--format", "raw"]
    command += ["--output", str(stacks)]
    print(f"  profiling {scenario.name} with py-spy for {load.duration} s", flush=True)
    with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as spy:
        time.sleep(1)
        run_wrk(server, scenario, load, work_dir / "profile.lua")
        _, errors = spy.communicate(timeout=60)
    if spy.returncode != 0 or not stacks.exists():
        raise RuntimeError(f"py-spy failed: {errors.decode()}")
    summary = RESULTS / f"{stamp}-profile-summary.txt"
    summary.write_text(summarise_stacks(stacks.read_text()))
    return summary


def _area(frame: str) -> str:
    """Where a frame's code lives: ``eventcal/<layer>``, else the module's top-level package.
    py-spy names frames ``function (package/module.py:line)``."""
    path = frame.rsplit(" (", 1)[-1].rstrip(")").rsplit(":", 1)[0]
    parts = path.split("/")
    if parts[0] == "eventcal" and len(parts) > 2:
        return "/".join(parts[:2])
    return parts[0].removesuffix(".py")


def _is_request_code(frame: str) -> bool:
    """A function of the project other than the command line (which is below every sample)."""
    location = frame.rsplit(" (", 1)[-1]
    return location.startswith("eventcal/") and not location.startswith("eventcal/cli")


def summarise_stacks(collapsed: str, top: int = 30) -> str:
    """Self time per area and per function, and inclusive time of the project's functions,
    from py-spy's collapsed stacks."""
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    total = 0
    for line in collapsed.splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack:
            continue
        count = int(count_text)
        frames = stack.split(";")
        total += count
        own[frames[-1]] += count
        for frame in set(frames):
            if _is_request_code(frame):
                inclusive[frame] += count
    areas: Counter[str] = Counter()
    for name, n in own.items():
        areas[_area(name)] += n

    def rows(counter: Counter[str], limit: int = top) -> list[str]:
        return [f"  {100 * n / total:5.1f}%  {name}" for name, n in counter.most_common(limit)]

    lines = [
        f"{total} samples of the busy worker process. Time spent in C (sqlite3, asyncpg, "
        "orjson) counts as self time of the Python function that called it.",
        "",
        "self time by area:",
        *rows(areas, 8),
        "",
        "self time by function:",
        *rows(own),
        "",
        "inclusive time of the project's functions (the function and all it calls):",
        *rows(inclusive),
    ]
    return "\n".join(lines) + "\n"


# --- the run -----------------------------------------------------------------------------------


def reset_postgres(url: str) -> None:
    """An empty ``public`` schema: everything in the database is dropped."""
    import asyncpg

    async def reset() -> None:
        conn = await asyncpg.connect(postgres_dsn(url))
        try:
            await conn.execute("DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;")
        finally:
            await conn.close()

    asyncio.run(reset())


def machine() -> dict[str, Any]:
    model = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    wrk = subprocess.run(["wrk", "-v"], check=False, capture_output=True, text=True)
    wrk_version = wrk.stdout.split()
    git = ["git", "rev-parse", "--short", "HEAD"]
    commit = subprocess.run(git, check=False, cwd=ROOT, capture_output=True, text=True)
    git = ["git", "status", "--porcelain", "--", "src"]
    changes = subprocess.run(git, check=False, cwd=ROOT, capture_output=True, text=True)
    return {
        "nproc": os.cpu_count(),
        "cpu_model": model,
        "kernel": platform.release(),
        "python": platform.python_version(),
        "granian": version("granian"),
        "sqlite": sqlite3.sqlite_version,
        "wrk": wrk_version[1] if len(wrk_version) > 1 else "",
        "commit": commit.stdout.strip(),
        "uncommitted_src_files": len(changes.stdout.splitlines()),
        "load_average": os.getloadavg(),
    }


def table(results: Sequence[Result]) -> str:
    """A Markdown table, with each result as a share of the two references."""
    by_name = {r.scenario: r for r in results}
    hello = by_name.get("reference: hello")
    rows = by_name.get("reference: 10 rows")

    def share(result: Result, reference: Result | None) -> str:
        if reference is None or not reference.requests_per_s:
            return ""
        percent = 100 * result.requests_per_s / reference.requests_per_s
        return f"{percent:.1f}%" if percent < 10 else f"{percent:.0f}%"

    head = (
        "| scenario | req/s | p50 ms | p99 ms | errors | vs hello | vs 10 rows | target | met "
        "| worker RSS MB |"
    )
    lines = [head, "|---|--:|--:|--:|--:|--:|--:|---|---|--:|"]
    for r in results:
        met = {True: "yes", False: "**no**", None: ""}[r.meets_target]
        lines.append(
            f"| {r.scenario} | {r.requests_per_s:,.0f} | {r.p50_ms:.2f} | {r.p99_ms:.2f} | "
            f"{sum(r.errors.values())} | {share(r, hello)} | {share(r, rows)} | {r.target} | "
            f"{met} | {'' if r.rss_mb is None else f'{r.rss_mb:.0f}'} |"
        )
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=10_000, help="events to seed (10,000)")
    parser.add_argument(
        "--fast", action="store_true", help="seed with bulk inserts (for very large --events)"
    )
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL instead of SQLite")
    parser.add_argument(
        "--postgres-url",
        default=DEFAULT_POSTGRES_URL,
        help="database for --postgres; its schema public is dropped first (default: %(default)s)",
    )
    parser.add_argument("--duration", type=int, default=10, help="seconds per scenario (10)")
    parser.add_argument("--connections", type=int, default=32, help="wrk connections (32)")
    parser.add_argument("--threads", type=int, default=1, help="wrk threads (1)")
    parser.add_argument("--warmup", type=int, default=2, help="warm-up seconds per scenario (2)")
    parser.add_argument(
        "--only", help="run only the scenarios whose name contains this text (references always)"
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="also sample a scenario with py-spy (make bench installs it)",
    )
    parser.add_argument(
        "--profile-scenario",
        default="GET /events",
        help="the scenario --profile samples (default: %(default)s)",
    )
    parser.add_argument(
        "--server-env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="environment for the eventcal server, e.g. EVENTCAL_RESPONSE_CACHE_MB=0 (repeatable)",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.profile and not (BIN / "py-spy").exists():
        raise SystemExit("--profile needs py-spy: run through `make bench`, which installs it")
    ensure_wrk()
    wrk_cpu = WRK_CPU
    if (os.cpu_count() or 1) < 2:
        print(f"warning: fewer than 2 CPUs, the server and wrk share CPU {SERVER_CPU}")
        wrk_cpu = SERVER_CPU
    RESULTS.mkdir(exist_ok=True)
    with (RESULTS / ".lock").open("w") as lock:
        # Two runs at once would share CPUs 0 and 1 and measure each other.
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print("another bench/run.py is running; waiting for it to finish", flush=True)
            fcntl.flock(lock, fcntl.LOCK_EX)
        return run(args, load=Load(args.duration, args.connections, args.threads, wrk_cpu))


def run(args: argparse.Namespace, load: Load) -> int:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    backend = "postgresql" if args.postgres else "sqlite"
    info = machine()  # before the run: the load average tells whether something else was busy

    with tempfile.TemporaryDirectory(prefix="eventcal-bench-") as tmp:
        work_dir = Path(tmp)
        if args.postgres:
            url = args.postgres_url
            print(f"resetting schema public of {url}")
            reset_postgres(url)
        else:
            url = f"sqlite:///{work_dir / 'bench.db'}"
        print(f"seeding {url} with {args.events:,} events")
        seed.seed(url, events=args.events, fast=args.fast)
        fixtures = asyncio.run(read_fixtures(url))
        media_path = asyncio.run(media.add_media(url))
        built = build_scenarios(fixtures, args.postgres, media_path)
        # The references, then the other servers, then one worker with its default caches,
        # whose POST scenario runs last (it adds events).
        references = [s for s in built if s.server != "eventcal"]
        own = [s for s in built if s.server == "eventcal"]
        extra = live_scenarios(fixtures, args.postgres)
        others = [s for s in extra if s.server != "eventcal"]
        mine = [s for s in extra if s.server == "eventcal"]
        scenarios = [*references, *others, *own[:-1], *mine, own[-1]]
        if args.only:
            scenarios = [
                s
                for s in scenarios
                if s.name.startswith("reference") or args.only.lower() in s.name.lower()
            ]

        results: list[Result] = []
        profile_summary = None
        for name in dict.fromkeys(s.server for s in scenarios):
            ready_path = f"{API}/events?per_page=1" if name.startswith("eventcal") else "/"
            print(f"serving {name} (1 worker on CPU {SERVER_CPU}; wrk on CPU {load.cpu})")
            log_path = RESULTS / f"{stamp}-{name}.log"
            server_env = dict(item.split("=", 1) for item in args.server_env if "=" in item)
            with serve(name, url, ready_path, log_path, server_env) as server:
                for scenario in (s for s in scenarios if s.server == name):
                    results.append(measure(server, scenario, load, args.warmup, work_dir))
                    if args.profile and scenario.name == args.profile_scenario:
                        profile_summary = profile(server, scenario, load, work_dir, stamp)

    report = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "backend": backend,
        "server_env": args.server_env,
        "events": args.events,
        "load": asdict(load),
        "machine": info,
        "scenarios": {s.name: s.measures for s in scenarios},
        "results": [asdict(r) for r in results],
    }
    path = RESULTS / f"{stamp}-{backend}.json"
    path.write_text(json.dumps(report, indent=2) + "\n")
    print()
    print(
        f"{backend}, {args.events:,} events, wrk -t{load.threads} -c{load.connections} "
        f"-d{load.duration}s; {info['nproc']} CPUs ({info['cpu_model']}); "
        f"commit {info['commit']} + {info['uncommitted_src_files']} changed files in src/"
    )
    print(table(results))
    for r in results:
        if r.writes:
            print(f"{r.scenario}: {r.writes}")
    print("CPUs busy while measuring (server / wrk / other):")
    for r in results:
        if r.cpu:
            print(f"  {r.scenario}: {r.cpu['server']} / {r.cpu['wrk']} / {r.cpu['other']}")
    print(f"\nresults: {path.relative_to(ROOT)}")
    if profile_summary is not None:
        print(f"profile: {profile_summary.relative_to(ROOT)}")
        print(profile_summary.read_text())
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # the servers were stopped on the way out
        print("\ninterrupted", file=sys.stderr)
        sys.exit(130)

"""A PostgreSQL server of our own (``initdb`` in a temporary directory), so tests can stop and
start it, and server processes to kill: faults that cannot be injected into a shared server."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from eventcal.storage import migrate
from tests.processes.conftest import free_port


def _postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if found:
        return Path(found[-1]).parent
    pg_ctl = shutil.which("pg_ctl")
    return Path(pg_ctl).parent if pg_ctl else None


@dataclass
class PrivatePostgres:
    """A PostgreSQL cluster only this test uses."""

    bin: Path
    data: Path
    port: int
    as_postgres: list[str]

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        command = [*self.as_postgres, str(self.bin / args[0]), *args[1:]]
        subprocess.run(command, check=True, capture_output=True, timeout=60)  # noqa: S603

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c full_page_writes=off -c max_connections=50"
        )
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.log), "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    @property
    def log(self) -> Path:
        return self.data / "server.log"


@pytest.fixture(scope="module")
def private_postgres() -> Iterator[PrivatePostgres]:
    bin_dir = _postgres_bin()
    if bin_dir is None:
        pytest.skip("no PostgreSQL server binaries (initdb, pg_ctl) on this machine")
    # Not under pytest's temporary directory: the server's user must be able to reach it.
    root = Path(tempfile.mkdtemp(prefix="eventcal-pg-"))
    data = root / "data"
    data.mkdir()
    as_postgres: list[str] = []
    if os.geteuid() == 0:  # initdb refuses to run as root
        shutil.chown(root, "postgres")
        shutil.chown(data, "postgres")
        as_postgres = ["runuser", "-u", "postgres", "--"]
    cluster = PrivatePostgres(bin_dir, data, free_port(), as_postgres)
    cluster._run(
        "initdb", "-D", str(data), "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"
    )
    cluster.start()
    try:
        migrate.upgrade(cluster.url)
        yield cluster
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            cluster.stop("immediate")
        shutil.rmtree(root, ignore_errors=True)

"""Real server processes (``eventcal serve``) on the test database: what several stateless
processes behind a load balancer do to one database."""

from __future__ import annotations

import asyncio
import base64
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from eventcal.storage.db import create_database
from tests import factories
from tests.conftest import PASSWORD

EVENTCAL = Path(sys.executable).parent / "eventcal"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    """One ``eventcal serve`` process (granian with its workers)."""

    process: subprocess.Popen[bytes]
    base: str
    log: Path

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 15) -> int:
        if self.process.poll() is None:
            os.killpg(self.process.pid, sig)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        return self.process.returncode


def start_server(
    database_url: str,
    log: Path,
    *,
    workers: int = 1,
    public_url: str | None = "http://127.0.0.1",
    env: dict[str, str] | None = None,
) -> Server:
    """``public_url=None``: URLs in responses name the address the request was sent to (an
    empty ``EVENTCAL_PUBLIC_URL`` is unset); ``env`` sets more variables."""
    port = free_port()
    env = {
        **os.environ,
        "EVENTCAL_DATABASE_URL": database_url,
        "EVENTCAL_PUBLIC_URL": public_url or "",
        "EVENTCAL_ACCESS_LOG": "0",
        "EVENTCAL_LOGIN_FAILURE_DELAY_MS": "0",
        **(env or {}),
    }
    command = [str(EVENTCAL), "serve", "--port", str(port), "--workers", str(workers)]
    with log.open("wb") as handle:  # the child keeps its own descriptor
        process = subprocess.Popen(  # noqa: S603 (our own console script)
            command, env=env, stdout=handle, stderr=subprocess.STDOUT, start_new_session=True
        )
    server = Server(process, f"http://127.0.0.1:{port}", log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{server.base}/readyz", timeout=2) as response:  # noqa: S310
                if response.status == 200:
                    return server
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.1)
    server.stop(signal.SIGKILL)
    raise RuntimeError(f"server not ready: {log.read_text()[-2000:]}")


AUTH = {"Authorization": "Basic " + base64.b64encode(f"admin:{PASSWORD}".encode()).decode()}


def prepare(database_url: str, password_hash: str) -> None:
    """Empty the database and add the administrator ``admin``."""

    async def run() -> None:
        db = create_database(database_url)
        await db.startup()
        try:
            await factories.empty_database(db)
            await factories.add_user(db, "admin", "administrator", password_hash)
        finally:
            await db.shutdown()

    asyncio.run(run())


@pytest.fixture
def empty_database(database_url: str, password_hash: str) -> str:
    """The session's database, emptied, with an administrator ``admin``."""
    prepare(database_url, password_hash)
    return database_url


@pytest.fixture
def two_servers(empty_database: str, tmp_path: Path) -> Iterator[list[Server]]:
    servers = [start_server(empty_database, tmp_path / f"server-{i}.log") for i in range(2)]
    try:
        yield servers
    finally:
        for server in servers:
            server.stop()

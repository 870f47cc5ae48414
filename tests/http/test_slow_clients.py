"""Slow and broken senders against a real server (issue 14, items 1d and 2): a body that does
not arrive in time is 408, a malformed chunked body is a clean 400 (or 408 when it merely
stalls), and a thousand clients sending their bodies byte by byte do not keep anyone else
waiting. Real ``eventcal serve`` processes: granian decodes the framing, not the test client."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from tests.processes.conftest import Server, prepare, start_server

pytestmark = pytest.mark.slow

NS = "/cal/events/v1"
SLOW_CLIENTS = 1100
"""More than granian's default number of requests a worker takes at once (1024)."""
HEAD = (
    b"POST /cal/events/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
)


@pytest.fixture
def server(
    database_url: str, password_hash: str, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[Server]:
    """A server whose body timeout is the test's parameter (default 60 s)."""
    prepare(database_url, password_hash)
    env = {"EVENTCAL_BODY_TIMEOUT_SECONDS": str(getattr(request, "param", 60))}
    running = start_server(database_url, tmp_path / "server.log", env=env)
    try:
        yield running
    finally:
        running.stop()


def port_of(server: Server) -> int:
    return int(server.base.rsplit(":", 1)[1])


async def answer(
    reader: asyncio.StreamReader, timeout: float = 30
) -> tuple[int, dict[str, object]]:
    """Status and JSON body of a response (``Connection: close`` or Content-Length framed)."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
    status = int(head.split(b" ", 2)[1])
    length = 0
    for line in head.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    body = await asyncio.wait_for(reader.readexactly(length), timeout)
    return status, orjson.loads(body) if body else {}


class Dribbler:
    """A client that sends a 1,000-byte body one byte at a time until it is answered."""

    def __init__(self) -> None:
        self.answered: asyncio.Future[tuple[int, dict[str, object]]] | None = None

    async def run(self, port: int, stop: asyncio.Event, started: asyncio.Event) -> str:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(HEAD + b"Content-Length: 1000\r\n\r\n{")
        await writer.drain()
        started.set()
        reply = asyncio.ensure_future(answer(reader, timeout=120))
        try:
            for _ in range(600):  # bounded: at most 600 bytes, ~2 minutes
                if stop.is_set() or reply.done():
                    break
                writer.write(b" ")
                await writer.drain()
                await asyncio.wait([reply], timeout=0.2)
            if reply.done():
                status, body = reply.result()
                return f"{status} {body.get('code')}"
            return "still sending"
        finally:
            reply.cancel()
            writer.close()


async def get(port: int) -> tuple[int, dict[str, object]]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(b"GET /cal/events/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        await writer.drain()
        return await answer(reader, timeout=20)
    finally:
        writer.close()


def test_slow_bodies_do_not_keep_other_clients_waiting(server: Server) -> None:
    """The body timeout is 60 s here: the normal request is answered while every slow
    client is still sending (so not because their timeouts freed the worker)."""

    async def scenario() -> tuple[tuple[int, dict[str, object]], list[str]]:
        port = port_of(server)
        stop = asyncio.Event()
        starts = [asyncio.Event() for _ in range(SLOW_CLIENTS)]
        clients = [asyncio.create_task(Dribbler().run(port, stop, started)) for started in starts]
        await asyncio.gather(*(started.wait() for started in starts))
        answered = await get(port)
        stop.set()
        return answered, await asyncio.gather(*clients)

    (status, body), slow = asyncio.run(scenario())
    assert status == 200
    assert body["events"] == []
    assert set(slow) == {"still sending"}


@pytest.mark.parametrize("server", [1], indirect=True)
def test_a_body_that_does_not_arrive_in_time_is_408(server: Server) -> None:
    async def scenario() -> list[str]:
        stop, started = asyncio.Event(), asyncio.Event()
        return await asyncio.gather(
            *(Dribbler().run(port_of(server), stop, started) for _ in range(3))
        )

    results = asyncio.run(scenario())
    assert results == ["408 rest_request_timeout"] * 3


@pytest.mark.parametrize("server", [1], indirect=True)
@pytest.mark.parametrize(
    ("chunks", "expected"),
    [
        (b"ZZ\r\nabc\r\n0\r\n\r\n", (400, "rest_incomplete_body")),
        (b"FFFFFFFFFFFFFFFFFFFF\r\nabc\r\n", (400, "rest_incomplete_body")),
        (b"-1\r\nabc\r\n0\r\n\r\n", (400, "rest_incomplete_body")),
        (b"10\r\nabc", (400, "rest_incomplete_body")),  # then the client stops sending
        (b"3abc0\r\n\r\n", (408, "rest_request_timeout")),  # waits for a chunk size end
    ],
    ids=["bad-size", "huge-size", "negative", "truncated", "stalled"],
)
def test_malformed_chunked_bodies_are_a_clean_4xx(
    server: Server, chunks: bytes, expected: tuple[int, str]
) -> None:
    async def scenario() -> tuple[int, dict[str, object]]:
        reader, writer = await asyncio.open_connection("127.0.0.1", port_of(server))
        try:
            writer.write(HEAD + b"Transfer-Encoding: chunked\r\n\r\n" + chunks)
            await writer.drain()
            if expected[1] == "rest_incomplete_body" and chunks.endswith(b"abc"):
                writer.write_eof()
            return await answer(reader)
        finally:
            writer.close()

    status, body = asyncio.run(scenario())
    assert (status, body["code"]) == expected
    assert body["data"] == {"status": expected[0]}

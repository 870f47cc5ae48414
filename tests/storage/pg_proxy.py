"""A TCP proxy in front of PostgreSQL that breaks connections at chosen moments: at a ``COMMIT``
(before the server gets it, or after the server answered it), or at connect time with the
server's "starting up" refusal. Faults that a shared server cannot be asked to produce, made
deterministic: the proxy sees the protocol messages, so it cuts exactly there."""

from __future__ import annotations

import asyncio
import contextlib
import struct
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from tests.processes.conftest import free_port

COMMIT = b"Q" + struct.pack("!I", 4 + len(b"COMMIT;\x00")) + b"COMMIT;\x00"
"""asyncpg's ``COMMIT`` (a simple-protocol query message)."""


def _error(code: str, message: str) -> bytes:
    fields = b"".join(
        kind + value.encode() + b"\x00"
        for kind, value in ((b"S", "FATAL"), (b"V", "FATAL"), (b"C", code), (b"M", message))
    )
    payload = fields + b"\x00"
    return b"E" + struct.pack("!I", 4 + len(payload)) + payload


STARTING_UP = _error("57P03", "the database system is starting up")


class FaultyProxy:
    """Forwards connections to the server; ``cut_commit`` and ``refuse`` arm one fault."""

    def __init__(self, server_url: str) -> None:
        parts = urlsplit(server_url)
        self.target = (parts.hostname or "127.0.0.1", parts.port or 5432)
        self.port = free_port()
        netloc = f"{parts.username or 'postgres'}@127.0.0.1:{self.port}"
        self.url = urlunsplit(("postgresql", netloc, parts.path, "sslmode=disable", ""))
        self.cut_commit: str | None = None
        """``"before"``: the next COMMIT never reaches the server (it rolls back);
        ``"after"``: the server commits, and its answer never reaches the client."""
        self.refuse = 0
        """New connections to refuse with SQLSTATE 57P03 (the server starting up)."""
        self.cuts = 0
        self._opened = 0
        self._doomed_below = 0
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server: asyncio.Server | None = None

    def end_open_sessions(self) -> None:
        """Every connection open now dies at the next message its client sends, unanswered
        and unforwarded: what a client sees of a server that restarted while its pooled
        connections sat idle, before it has read the close (a race a real restart leaves to
        chance)."""
        self._doomed_below = self._opened

    def start(self) -> None:
        self._thread.start()
        future = asyncio.run_coroutine_threadsafe(self._listen(), self._loop)
        future.result(10)

    def stop(self) -> None:
        async def close() -> None:
            if self._server is not None:
                self._server.close()
            current = asyncio.current_task()
            others = [t for t in asyncio.all_tasks() if t is not current]
            for task in others:
                task.cancel()
            await asyncio.gather(*others, return_exceptions=True)
            if self._server is not None:
                await self._server.wait_closed()

        asyncio.run_coroutine_threadsafe(close(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.refuse:
            self.refuse -= 1
            await reader.read(65536)  # the startup message
            writer.write(STARTING_UP)
            await writer.drain()
            writer.close()
            return
        up_reader, up_writer = await asyncio.open_connection(*self.target)
        self._opened += 1
        state = {"drop_answer": False, "number": self._opened}
        tasks = [
            asyncio.create_task(self._upstream(reader, up_writer, writer, state)),
            asyncio.create_task(self._downstream(up_reader, writer, up_writer, state)),
        ]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            for w in (writer, up_writer):
                w.close()
                with contextlib.suppress(Exception):
                    await w.wait_closed()

    async def _upstream(
        self,
        reader: asyncio.StreamReader,
        up: asyncio.StreamWriter,
        client: asyncio.StreamWriter,
        state: dict[str, Any],
    ) -> None:
        while data := await reader.read(65536):
            if state["number"] <= self._doomed_below:
                return  # both sides closed, the message never sent
            if self.cut_commit is not None and COMMIT in data:
                mode, self.cut_commit = self.cut_commit, None
                self.cuts += 1
                if mode == "before":
                    return  # both sides closed: the server rolls the transaction back
                state["drop_answer"] = True
            up.write(data)
            await up.drain()

    async def _downstream(
        self,
        up: asyncio.StreamReader,
        client: asyncio.StreamWriter,
        upstream_writer: asyncio.StreamWriter,
        state: dict[str, Any],
    ) -> None:
        while data := await up.read(65536):
            if state["drop_answer"]:
                return  # the server has committed; the client never hears it
            client.write(data)
            await client.drain()


@contextlib.contextmanager
def faulty_proxy(server_url: str) -> Iterator[FaultyProxy]:
    proxy = FaultyProxy(server_url)
    proxy.start()
    try:
        yield proxy
    finally:
        proxy.stop()

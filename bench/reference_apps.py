"""Bare ASGI apps that give the benchmark its reference points (no framework, no services).

* ``hello``: a constant JSON body. The ceiling of granian + one Python worker on this machine.
* ``sqlite_rows``: the 10 next published events, read with ``sqlite3`` from the benchmark's
  SQLite file (``BENCH_SQLITE_PATH``) and encoded with orjson: the least any listing that reads
  a page of events from that file can cost.
* ``postgres_rows``: the same query through an ``asyncpg`` pool (``BENCH_POSTGRES_URL``), the
  reference for runs on PostgreSQL.

Served like the service (``bench/run.py`` does it)::

    taskset -c 0 granian --interface asgi --workers 1 --working-dir bench reference_apps:hello
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Awaitable, Callable, MutableMapping
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

JSON_HEADERS = [(b"content-type", b"application/json")]
COLUMNS = "id, title, slug, description, timezone, start_at, end_at, cost, venue_id"
SQLITE_PAGE = (
    f"SELECT {COLUMNS} FROM event WHERE status = 'publish' AND hide_from_listings = FALSE "
    "AND start_at >= ? ORDER BY start_at, id LIMIT 10"
)
POSTGRES_PAGE = SQLITE_PAGE.replace("?", "$1")


async def _lifespan(
    receive: Receive,
    send: Send,
    startup: Callable[[], Awaitable[None]] | None = None,
    shutdown: Callable[[], Awaitable[None]] | None = None,
) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            if startup is not None:
                await startup()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            if shutdown is not None:
                await shutdown()
            await send({"type": "lifespan.shutdown.complete"})
            return


async def _reply(send: Send, body: bytes) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": JSON_HEADERS})
    await send({"type": "http.response.body", "body": body})


def _window_start() -> datetime:
    """Yesterday 23:59 UTC, as the listing's default window starts."""
    yesterday = datetime.now(UTC) - timedelta(days=1)
    return yesterday.replace(hour=23, minute=59, second=0, microsecond=0)


async def hello(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "lifespan":
        await _lifespan(receive, send)
        return
    await _reply(send, b'{"hello":"world"}')


_sqlite: dict[str, sqlite3.Connection] = {}


async def sqlite_rows(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "lifespan":

        async def open_file() -> None:
            raw = sqlite3.connect(os.environ["BENCH_SQLITE_PATH"], check_same_thread=False)
            raw.row_factory = sqlite3.Row
            _sqlite["conn"] = raw

        async def close_file() -> None:
            _sqlite.pop("conn").close()

        await _lifespan(receive, send, open_file, close_file)
        return
    start = _window_start().replace(tzinfo=None).isoformat(" ")
    rows = _sqlite["conn"].execute(SQLITE_PAGE, (start,)).fetchall()
    await _reply(send, orjson.dumps([dict(row) for row in rows]))


_postgres: dict[str, Any] = {}


async def postgres_rows(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "lifespan":
        import asyncpg

        async def open_pool() -> None:
            _postgres["pool"] = await asyncpg.create_pool(
                os.environ["BENCH_POSTGRES_URL"], min_size=1, max_size=10
            )

        async def close_pool() -> None:
            await _postgres.pop("pool").close()

        await _lifespan(receive, send, open_pool, close_pool)
        return
    rows = await _postgres["pool"].fetch(POSTGRES_PAGE, _window_start())
    await _reply(send, orjson.dumps([dict(row) for row in rows]))

"""One request straight to an ASGI app, without a server, sockets or a test client: what the
in-process benchmarks (``inprocess.py``, ``pages.py``) time."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


async def call(
    app: Any, method: str, path: str, headers: Sequence[tuple[bytes, bytes]] = (), body: bytes = b""
) -> tuple[int, dict[bytes, bytes], bytes]:
    """The response's status, headers and body."""
    path, _, query = path.partition("?")
    scope: dict[str, Any] = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 80),
    }
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    answer = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return int(sent[0]["status"]), dict(sent[0]["headers"]), answer

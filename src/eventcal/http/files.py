"""Stored files served at their URLs (``/uploads/{hash}/{name}``): uploaded media.

A URL names one content for ever (its hash changes with the bytes), so responses are
``immutable`` for a year and carry the hash as their ``ETag``; ``If-None-Match`` answers 304,
one ``Range`` answers 206 (416 past the end; several ranges are answered with the whole file,
as RFC 9110 allows). Serving a file is one read by a unique index and nothing else: no
session, no language, no response cache. Images are sent ``inline`` under their safe name,
never sniffed (``nosniff``), under a policy that runs nothing.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Protocol

import orjson
from starlette.types import Receive, Scope, Send

from eventcal.errors import ApiError
from eventcal.http.errors import database_error, error_body, internal_error_body, no_route
from eventcal.http.headers import SECURITY_HEADERS
from eventcal.storage.db import DatabaseUnavailable

log = logging.getLogger("eventcal.http")

PATH = re.compile(r"^/uploads/([0-9a-f]{32})/([A-Za-z0-9._-]{1,255})$")
CACHE_CONTROL = "public, max-age=31536000, immutable"
_RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")
JSON = "application/json; charset=UTF-8"


class File(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def mime_type(self) -> str: ...
    @property
    def data(self) -> bytes: ...
    @property
    def etag(self) -> str: ...


Lookup = Callable[[str], Awaitable[File | None]]
"""A file's hash → the file (None when no file has it)."""


def handles(path: str) -> bool:
    return path.startswith("/uploads/")


class Files:
    """ASGI handler of ``/uploads/…``."""

    def __init__(self, lookup: Lookup) -> None:
        self.lookup = lookup

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        method = scope["method"].upper()
        try:
            status, headers, body = await self._respond(scope, method)
        except ApiError as error:
            status, headers, body = _error(error)
        except DatabaseUnavailable as exc:
            log.warning("database unavailable: %s", exc)
            status, headers, body = _error(database_error(exc))
        except Exception:
            log.exception("unhandled error on %s %s", method, scope["path"])
            status, headers = 500, {"Content-Type": JSON}
            body = orjson.dumps(internal_error_body())
        merged = {**SECURITY_HEADERS, **headers, "Content-Length": str(len(body))}
        raw = [(name.lower().encode(), value.encode("latin-1")) for name, value in merged.items()]
        await send({"type": "http.response.start", "status": status, "headers": raw})
        await send({"type": "http.response.body", "body": b"" if method == "HEAD" else body})

    async def _respond(self, scope: Scope, method: str) -> tuple[int, dict[str, str], bytes]:
        found = PATH.match(scope["path"])
        if found is None:
            raise no_route()
        if method not in ("GET", "HEAD"):
            error = no_route()
            raise ApiError(error.code, error.message, 405, headers={"Allow": "GET, HEAD"})
        stored = await self.lookup(found.group(1))
        if stored is None or stored.name != found.group(2):
            raise no_route()
        headers = {
            "Content-Type": stored.mime_type,
            "Cache-Control": CACHE_CONTROL,
            "ETag": stored.etag,
            "Accept-Ranges": "bytes",
            "Content-Disposition": f'inline; filename="{stored.name}"',
        }
        if _matches(header(scope, b"if-none-match"), stored.etag):
            kept = ("Cache-Control", "ETag")
            return 304, {k: v for k, v in headers.items() if k in kept}, b""
        wanted = header(scope, b"range")
        if_range = header(scope, b"if-range")
        if wanted is None or (if_range is not None and if_range.strip() != stored.etag):
            return 200, headers, stored.data
        return _ranged(stored.data, wanted, headers)


def _ranged(data: bytes, wanted: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    """206 for one satisfiable range, 416 for one past the end; anything else (several
    ranges, another unit, a malformed header) is answered with the whole file."""
    found = _RANGE.match(wanted.strip().replace(" ", ""))
    size = len(data)
    if found is None or found.group(1) == found.group(2) == "":
        return 200, headers, data
    first, last = found.group(1), found.group(2)
    if first == "":
        start, end = max(0, size - int(last)), size - 1
        if int(last) == 0:
            start = size
    else:
        start = int(first)
        end = min(int(last), size - 1) if last else size - 1
        if last and int(last) < start:
            return 200, headers, data
    if start >= size or end < start:
        return 416, {**headers, "Content-Range": f"bytes */{size}"}, b""
    headers = {**headers, "Content-Range": f"bytes {start}-{end}/{size}"}
    return 206, headers, data[start : end + 1]


def _matches(condition: str | None, etag: str) -> bool:
    if condition is None:
        return False
    tags = [t.strip().removeprefix("W/") for t in condition.split(",")]
    return "*" in tags or etag in tags


def header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _error(error: ApiError) -> tuple[int, dict[str, str], bytes]:
    headers = {"Content-Type": JSON, "Cache-Control": "no-store", **error.headers}
    return error.status, headers, orjson.dumps(error_body(error))

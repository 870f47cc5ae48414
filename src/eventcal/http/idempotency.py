"""``Idempotency-Key`` (IETF httpapi draft "The Idempotency-Key HTTP Header Field").

A client may send ``Idempotency-Key: <key>`` with any write. The first successful (2xx)
response for the caller and key is stored in the write's own transaction and replayed, with
``Idempotent-Replayed: true``, to every retry of the same request (method, path, parameters
as read, files included) until it expires. So a client that lost the answer (a connection cut
during COMMIT: 503 ``db_commit_unknown``) retries safely: the write happens once.

* The same key with a different request: 422 (the draft's "already used for a different
  request").
* The same key while the first request is still in flight: 409 with ``Retry-After``.
* Errors are not stored (the draft leaves it to the server): a refused write changed nothing,
  so a retry is evaluated afresh; a 5xx may have been a passing fault.
* Anonymous callers cannot write, so their keys are not looked at.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import orjson

from eventcal.errors import ApiError
from eventcal.http.conditional import Built
from eventcal.http.multipart import Upload
from eventcal.storage import idempotency as stored
from eventcal.storage.db import Connection, Database

HEADER = "idempotency-key"
REPLAYED = "Idempotent-Replayed"
MAX_KEY_LENGTH = 255
RETRY_IN_FLIGHT_SECONDS = "1"


def invalid_key() -> ApiError:
    return ApiError(
        "rest_invalid_idempotency_key",
        "The Idempotency-Key header must hold 1 to {max} printable ASCII characters.",
        400,
        max=MAX_KEY_LENGTH,
    )


def key_reused() -> ApiError:
    return ApiError(
        "rest_idempotency_key_reused",
        "This Idempotency-Key is already used for a different request.",
        422,
    )


def key_in_flight() -> ApiError:
    return ApiError(
        "rest_idempotency_key_in_flight",
        "A request with this Idempotency-Key is still being processed: retry shortly.",
        409,
        headers={"Retry-After": RETRY_IN_FLIGHT_SECONDS},
    )


def parse_key(header: str) -> str:
    """The key of the header: an sf-string (``"…"``) as the draft writes it, or the bare
    text; 400 when empty, too long, or not printable ASCII."""
    value = header.strip()
    if len(value) >= 2 and value[0] == value[-1] == '"':
        value = value[1:-1]
    if not 1 <= len(value) <= MAX_KEY_LENGTH or not all(" " <= c <= "~" for c in value):
        raise invalid_key()
    return value


def fingerprint(method: str, path: str, params: dict[str, Any], files: dict[str, Upload]) -> str:
    """What makes two requests the same request (the caller and key aside): the method, the
    path and the parameters as read (body and query), files by content. Not the raw bytes: a
    client that retries a multipart form draws a new boundary, and JSON may be re-encoded."""
    h = hashlib.blake2b(digest_size=16)
    parts = [method.encode(), path.encode(), orjson.dumps(params, option=orjson.OPT_SORT_KEYS)]
    for name in sorted(files):
        upload = files[name]
        parts += [name.encode(), upload.filename.encode(), upload.content_type.encode()]
        parts.append(hashlib.blake2b(upload.data, digest_size=16).digest())
    for part in parts:
        h.update(len(part).to_bytes(8, "big"))
        h.update(part)
    return h.hexdigest()


@dataclass(frozen=True, slots=True)
class Idempotency:
    """One write request's key, and what its stored response must match."""

    user_id: int
    key: str
    fingerprint: str
    now: datetime
    ttl: timedelta

    async def stored(self, database: Database) -> Built | None:
        """The stored response to replay, if the first request completed (a read: retries
        of completed writes open no transaction)."""
        async with database.read() as conn:
            return await self._replay(conn)

    async def claim(self, conn: Connection) -> Built | None:
        """In the write's transaction: hold the key (409 while another request holds it),
        then the stored response if one was committed since :meth:`stored` looked."""
        if not await stored.claim(conn, self.user_id, self.key):
            raise key_in_flight()
        return await self._replay(conn)

    async def save(self, conn: Connection, built: Built) -> None:
        """Store a successful response, in the write's transaction."""
        response = stored.StoredResponse(self.fingerprint, built.status, built.headers, built.body)
        await stored.save(
            conn, self.user_id, self.key, response, now=self.now, expires_at=self.now + self.ttl
        )

    async def _replay(self, conn: Connection) -> Built | None:
        found = await stored.find(conn, self.user_id, self.key, self.now)
        if found is None:
            return None
        if found.fingerprint != self.fingerprint:
            raise key_reused()
        headers = {**found.headers, REPLAYED: "true"}
        return Built(found.status, headers, found.body, found.headers.get("ETag", ""))

"""Stored responses of writes sent with an ``Idempotency-Key`` (see ``http/idempotency.py``).

A response is saved in the transaction of the write it answers, so it exists exactly when the
write was committed: a retry after a lost connection finds it (and is answered with it) or
does not (and performs the write, once).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import orjson
import sqlalchemy as sa

from eventcal.storage.db import Connection
from eventcal.storage.service_tables import UtcDateTime, idempotency_key

_NOW = sa.bindparam("now", type_=UtcDateTime)


@dataclass(frozen=True, slots=True)
class StoredResponse:
    """A response as it was sent (without per-request headers), with the request's
    fingerprint."""

    fingerprint: str
    status: int
    headers: dict[str, str]
    body: bytes


_FIND = sa.select(
    idempotency_key.c.fingerprint,
    idempotency_key.c.status,
    idempotency_key.c.headers,
    idempotency_key.c.body,
).where(
    idempotency_key.c.user_id == sa.bindparam("user_id"),
    idempotency_key.c.key == sa.bindparam("key"),
    idempotency_key.c.expires_at > _NOW,
)
_DELETE_EXPIRED_KEY = sa.delete(idempotency_key).where(
    idempotency_key.c.user_id == sa.bindparam("user_id"),
    idempotency_key.c.key == sa.bindparam("key"),
    idempotency_key.c.expires_at <= _NOW,
)
_INSERT = sa.insert(idempotency_key).values(
    user_id=sa.bindparam("user_id"),
    key=sa.bindparam("key"),
    fingerprint=sa.bindparam("fingerprint"),
    status=sa.bindparam("status"),
    headers=sa.bindparam("headers"),
    body=sa.bindparam("body", type_=sa.LargeBinary),
    expires_at=sa.bindparam("expires_at", type_=UtcDateTime),
)
_PURGE = sa.delete(idempotency_key).where(idempotency_key.c.expires_at <= _NOW)


async def find(conn: Connection, user_id: int, key: str, now: datetime) -> StoredResponse | None:
    """The response stored for the caller's key, unless it has expired."""
    row = await conn.first(_FIND, {"user_id": user_id, "key": key, "now": now})
    if row is None:
        return None
    headers = orjson.loads(row["headers"])
    return StoredResponse(row["fingerprint"], int(row["status"]), headers, bytes(row["body"]))


async def claim(conn: Connection, user_id: int, key: str) -> bool:
    """Take the key for this transaction; False while another transaction holds it (the same
    request still in flight)."""
    return await conn.try_lock(f"idempotency:{user_id}:{key}")


async def save(
    conn: Connection,
    user_id: int,
    key: str,
    response: StoredResponse,
    *,
    now: datetime,
    expires_at: datetime,
) -> None:
    """Store the response for the key (an expired one with the same key gives way)."""
    await conn.execute(_DELETE_EXPIRED_KEY, {"user_id": user_id, "key": key, "now": now})
    await conn.execute(
        _INSERT,
        {
            "user_id": user_id,
            "key": key,
            "fingerprint": response.fingerprint,
            "status": response.status,
            "headers": orjson.dumps(response.headers).decode(),
            "body": response.body,
            "expires_at": expires_at,
        },
    )


async def purge(conn: Connection, now: datetime) -> int:
    """Delete the expired responses; how many there were."""
    return await conn.execute(_PURGE, {"now": now})

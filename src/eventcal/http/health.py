"""Health checks for load balancers: ``/healthz`` answers while the process runs, ``/readyz``
also needs the database."""

from __future__ import annotations

import logging

from eventcal.http.responses import Outgoing, json_response
from eventcal.storage.db import Database, data_version

log = logging.getLogger("eventcal.http")

NO_STORE = {"Cache-Control": "no-store"}


def healthz() -> Outgoing:
    return json_response({"status": "ok"}, 200, dict(NO_STORE))


async def readyz(database: Database) -> Outgoing:
    """Ready when the database answers; 503 with ``Retry-After`` otherwise."""
    try:
        async with database.read() as conn:
            version = await data_version(conn)
    except Exception:
        log.warning("readiness check: the database is unavailable", exc_info=True)
        body = {
            "code": "db_unavailable",
            "message": "The database is unavailable. Try again shortly.",
            "data": {"status": 503},
        }
        return json_response(body, 503, {**NO_STORE, "Retry-After": "5"})
    return json_response({"status": "ready", "data_version": version}, 200, dict(NO_STORE))

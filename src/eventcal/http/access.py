"""The access log: one JSON line per request, with the query string (password values
redacted), the authenticated user, the client address and, for an error, its code."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from urllib.parse import unquote_plus

from starlette.requests import Request

from eventcal import logs
from eventcal.http.client import Network, client_address

access_log = logging.getLogger(logs.ACCESS)

USER = "eventcal.user"
"""Scope key: the login of the authenticated caller (set by the router)."""
ERROR_CODE = "eventcal.error_code"
"""Scope key: the code of the error the request was answered with (set by the router)."""
MAX_QUERY_CHARS = 2048
"""Longer query strings are cut (a log line per request must stay small)."""
REDACTED = "[redacted]"


def redact_query(raw: bytes) -> str:
    """The query string as sent, with the value of every ``password`` parameter replaced: in
    any case, percent-encoded or not, with PHP brackets (``password[0]``) or not."""
    text = raw.decode("latin-1")
    if len(text) > MAX_QUERY_CHARS:
        text = text[:MAX_QUERY_CHARS] + "…"
    if "%" not in text and "password" not in text.lower():
        return text  # no name can read "password" (most queries: nothing to split)
    pairs = []
    for pair in text.split("&"):
        name, sep, _value = pair.partition("=")
        key = unquote_plus(name).lower().split("[", 1)[0].strip()
        pairs.append(f"{name}={REDACTED}" if sep and key == "password" else pair)
    return "&".join(pairs)


def log_access(
    request: Request, status: int, started: float, trusted_proxies: Sequence[Network]
) -> None:
    if not access_log.isEnabledFor(logging.INFO):
        return
    scope = request.scope
    fields = {
        "method": request.method,
        "path": scope["path"],
        "query": redact_query(scope.get("query_string", b"")),
        "status": status,
        "ms": round((time.perf_counter() - started) * 1000, 2),
        "user": scope.get(USER) or None,
        "client": client_address(request, trusted_proxies) or None,
    }
    if status >= 400 and scope.get(ERROR_CODE):
        fields["code"] = scope[ERROR_CODE]
    writer = logs.access_writer()
    if writer is not None:
        # Only the configured handler would see the record: it gets the line alone.
        writer.batch(logs.access_line(fields))
        return
    # The record is made directly: ``Logger.info`` would also walk the stack for the caller's
    # file and line, which the line does not show (a third of the cost of logging it).
    make_record = logging.getLogRecordFactory()
    record = make_record(logs.ACCESS, logging.INFO, "", 0, "request", None, None)
    record.__dict__.update(fields)
    record.json_line = logs.access_line(fields)
    access_log.handle(record)

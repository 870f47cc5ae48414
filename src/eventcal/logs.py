"""Structured logs: one JSON object per line, each carrying the request id of the request that
logged it (a context variable set by the router)."""

from __future__ import annotations

import logging
import sys
import time
import traceback
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

import orjson

request_id: ContextVar[str] = ContextVar("request_id", default="")

ACCESS = "eventcal.access"
"""The logger of the one line per request."""

_RESERVED = frozenset(vars(logging.makeLogRecord({})))
_make_record = logging.getLogRecordFactory()


def _record_with_request_id(*args: Any, **kwargs: Any) -> logging.LogRecord:
    """Every record remembers the request it was logged in (formatting may happen later)."""
    record = _make_record(*args, **kwargs)
    record.request_id = request_id.get()
    return record


logging.setLogRecordFactory(_record_with_request_id)


_second: tuple[int, str] = (-1, "")
"""The last whole second formatted, and its text (lines of the same second share it)."""


def timestamp(at: float | None = None) -> str:
    """``2026-11-24T21:21:23.123+00:00``: UTC to the millisecond (as ``isoformat`` writes it),
    of ``at`` (seconds since the epoch) or now."""
    global _second  # noqa: PLW0603 (a memo of the text of the current second)
    if at is None:
        at = time.time()
    second = int(at)
    micro = round((at - second) * 1e6)  # to the microsecond first, as ``datetime`` does
    if micro == 1_000_000:
        second, micro = second + 1, 0
    if _second[0] != second:
        text = datetime.fromtimestamp(second, UTC).isoformat(timespec="seconds")[:-6]
        _second = (second, text)
    return f"{_second[1]}.{micro // 1000:03d}+00:00"


class JsonFormatter(logging.Formatter):
    """``{"ts", "level", "logger", "message", "request_id", ...extra fields, "exception"}``."""

    def format(self, record: logging.LogRecord) -> str:
        line = getattr(record, "json_line", None)
        if line is not None:
            return str(line)
        data: dict[str, Any] = {
            "ts": timestamp(record.created),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        rid = getattr(record, "request_id", "")
        if rid:
            data["request_id"] = rid
        for key, value in vars(record).items():
            if key not in _RESERVED and key not in data and key != "request_id":
                data[key] = value
        if record.exc_info:
            data["exception"] = "".join(traceback.format_exception(*record.exc_info))
        return orjson.dumps(data, default=str).decode()


def access_line(fields: dict[str, Any]) -> str:
    """The access log's line, built directly (it is written once per request)."""
    return orjson.dumps(
        {
            "ts": timestamp(),
            "level": "INFO",
            "logger": ACCESS,
            "message": "request",
            "request_id": request_id.get(),
            **fields,
        }
    ).decode()


def line(level: str, message: str, **fields: Any) -> str:
    """One log line built outside logging (``eventcal serve`` before the server starts)."""
    data = {
        "ts": timestamp(),
        "level": level,
        "logger": "eventcal",
        "message": message,
        **fields,
    }
    return orjson.dumps(data, default=str).decode()


def granian_config() -> dict[str, Any]:
    """Granian's logging configuration (``log_dictconfig``): its own lines as JSON on standard
    error, like ours (its default is plain text on standard output)."""
    handler = {"formatter": "json", "class": "logging.StreamHandler", "stream": "ext://sys.stderr"}
    return {
        "formatters": {"json": {"()": "eventcal.logs.JsonFormatter"}},
        "handlers": {"json": handler},
        "loggers": {
            "_granian": {"handlers": ["json"], "level": "INFO", "propagate": False},
            "granian.access": {"handlers": ["json"], "level": "INFO", "propagate": False},
        },
    }


def configure(level: str, *, access_log: bool = True) -> None:
    """JSON lines on standard error for the ``eventcal`` loggers (and granian's)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger(ACCESS).setLevel(logging.INFO if access_log else logging.WARNING)
    # No line shows a thread or process, so records need not look them up (one per request).
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False

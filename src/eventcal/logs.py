"""Structured logs: one JSON object per line, each carrying the request id of the request that
logged it (a context variable set by the router)."""

from __future__ import annotations

import logging
import sys
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


class JsonFormatter(logging.Formatter):
    """``{"ts", "level", "logger", "message", "request_id", ...extra fields, "exception"}``."""

    def format(self, record: logging.LogRecord) -> str:
        line = getattr(record, "json_line", None)
        if line is not None:
            return str(line)
        data: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
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
            "ts": datetime.now(UTC).isoformat(timespec="milliseconds"),
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
        "ts": datetime.now(UTC).isoformat(timespec="milliseconds"),
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

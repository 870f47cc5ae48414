"""Structured logs: one JSON object per line, each carrying the request id of the request that
logged it (a context variable set by the router)."""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
import time
import traceback
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, TextIO

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


class JsonLines(logging.StreamHandler):  # type: ignore[type-arg]
    """The stream handler of :func:`configure`: access lines are written in batches.

    A line per request was a ``write`` system call per request (and a flush). Access lines
    wait in a list instead, written together by the event loop at most :data:`BATCH_SECONDS`
    after the first of them, or at once before they would pass :data:`BATCH_BYTES`. Any
    other line (a warning, an error) is written at once, after the access lines waiting, so
    lines keep their order. Outside an event loop every line is written at once.
    :meth:`flush` (at the end of the lifespan, and by ``logging.shutdown`` at exit) writes
    what waits."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__(stream)
        self._waiting: list[str] = []
        self._bytes = 0
        self._timer: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        """The loop of the timer set, and its thread."""
        self._thread = 0

    def emit(self, record: logging.LogRecord) -> None:
        line = getattr(record, "json_line", None)
        if line is not None:
            self.batch(str(line))
            return
        try:
            text = self.format(record)
        except Exception:
            self.handleError(record)
            return
        with self.lock:  # type: ignore[union-attr]
            self._add(text)
            self._write_waiting()

    def batch(self, line: str) -> None:
        """Write an access line soon (see the class)."""
        with self.lock:  # type: ignore[union-attr]
            self._add(line)
            timer_loop = self._loop
            if timer_loop is not None:
                # A timer is set. The line waits for it when it is this thread's loop's, still
                # open (asking for the running loop would cost a ``getpid`` system call);
                # another thread's loop may be gone: then the lines are written now.
                if self._thread != threading.get_ident() or timer_loop.is_closed():
                    self._write_waiting()
                return
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                self._write_waiting()
                return
            self._loop, self._thread = loop, threading.get_ident()
            self._timer = loop.call_later(BATCH_SECONDS, self.flush)

    def flush(self) -> None:
        with self.lock:  # type: ignore[union-attr]
            self._write_waiting()

    def _add(self, line: str) -> None:
        size = (len(line) if line.isascii() else len(line.encode())) + 1
        if self._bytes + size > BATCH_BYTES:
            self._write_waiting()
        self._waiting.append(line)
        self._bytes += size

    def _write_waiting(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = self._loop = None
        if not self._waiting:
            return
        text = "\n".join(self._waiting) + "\n"
        self._waiting.clear()
        self._bytes = 0
        try:
            self.stream.write(text)
            self.stream.flush()
        except Exception:
            # As ``logging`` does: a broken stream must not break the request (the text is
            # lost, like a line ``StreamHandler`` fails to write).
            self.handleError(logging.makeLogRecord({"msg": text}))


BATCH_SECONDS = 0.05
"""The longest an access line waits before it is written."""
BATCH_BYTES = 4096
"""The most written at once (``PIPE_BUF``): a ``write`` of up to as many bytes to a pipe is
not interleaved with another process's (workers share their standard error), so lines stay
whole. A longer line is written alone, as it was before batching."""


_access = logging.getLogger(ACCESS)
_configured: list[JsonLines] = []
"""The handler :func:`configure` installed last."""


def access_writer() -> JsonLines | None:
    """The handler an access line may go to directly (without a ``LogRecord``): when the lines
    go only to the handler of :func:`configure` (no other handler, such as a test's, nor
    filter would see the record), else None."""
    handlers = logging.root.handlers
    if not _configured or len(handlers) != 1 or handlers[0] is not _configured[0]:
        return None
    handler = _configured[0]
    access = _access
    if access.handlers or access.filters or logging.root.filters or handler.filters:
        return None
    if handler.level > logging.INFO or not access.propagate or access.disabled:
        return None
    return handler


def flush() -> None:
    """Write what the root logger's handlers keep (the access lines waiting)."""
    for handler in logging.root.handlers:
        handler.flush()


def configure(level: str, *, access_log: bool = True) -> None:
    """JSON lines on standard error for the ``eventcal`` loggers (and granian's)."""
    handler = JsonLines(sys.stderr)
    handler.setFormatter(JsonFormatter())
    _configured[:] = [handler]
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger(ACCESS).setLevel(logging.INFO if access_log else logging.WARNING)
    # No line shows a thread or process, so records need not look them up (one per request).
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False

"""Access lines are written in batches by the event loop (one ``write`` for many requests),
in order with the other lines, and never lost: at the end of the lifespan, before any other
line, outside a loop, or when a batch is full they are written at once."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import multiprocessing
from collections.abc import Iterator

import orjson
import pytest
from starlette.testclient import TestClient

from eventcal import logs
from eventcal.app import create_app
from eventcal.config import Settings
from eventcal.http.headers import request_id
from tests.conftest import NS


class Stream(io.StringIO):
    """Counts the writes."""

    writes = 0

    def write(self, text: str) -> int:
        self.writes += 1
        return super().write(text)


def record(message: str) -> logging.LogRecord:
    return logging.makeLogRecord({"name": "eventcal", "levelno": 30, "msg": message})


@pytest.fixture
def handler() -> JsonLinesAndStream:
    stream = Stream()
    handler = logs.JsonLines(stream)
    handler.setFormatter(logs.JsonFormatter())
    return handler, stream


JsonLinesAndStream = tuple[logs.JsonLines, Stream]


def test_lines_wait_for_the_loop_and_keep_their_order(handler: JsonLinesAndStream) -> None:
    lines, stream = handler

    async def run() -> None:
        for n in range(3):
            lines.batch(f"access {n}")
        assert stream.getvalue() == ""  # before: one write per line, at once
        lines.emit(record("a warning"))  # written at once, after the lines waiting
        text = stream.getvalue().splitlines()
        assert text[:3] == ["access 0", "access 1", "access 2"]
        assert orjson.loads(text[3])["message"] == "a warning"
        lines.batch("access 3")
        lines.batch("access 4")
        await asyncio.sleep(logs.BATCH_SECONDS * 3)
        assert stream.getvalue().splitlines()[4:] == ["access 3", "access 4"]

    asyncio.run(run())
    assert stream.writes == 2


class Pipe(Stream):
    """Remembers each write."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def write(self, text: str) -> int:
        self.texts.append(text)
        return super().write(text)


def test_a_write_stays_within_what_a_pipe_writes_whole() -> None:
    """Workers share standard error: a write of up to ``PIPE_BUF`` bytes to a pipe is never
    interleaved with another's, so batches stay within it (a longer line goes alone)."""
    pipe = Pipe()
    lines = logs.JsonLines(pipe)
    sent = [f"line {n} " + "é" * (n % 300) for n in range(400)] + ["x" * 5000, "last"]

    async def run() -> None:
        for line in sent:
            lines.batch(line)
        lines.flush()

    asyncio.run(run())
    assert pipe.getvalue().splitlines() == sent
    assert all(text.endswith("\n") for text in pipe.texts)
    assert max(len(t.encode()) for t in pipe.texts if "x" * 5000 not in t) <= logs.BATCH_BYTES
    assert "x" * 5000 + "\n" in pipe.texts
    assert len(pipe.texts) < len(sent) / 4


def test_outside_a_loop_lines_are_written_at_once(handler: JsonLinesAndStream) -> None:
    lines, stream = handler
    lines.batch("a")
    assert stream.getvalue() == "a\n"


def test_a_line_of_a_closed_loop_is_not_kept(handler: JsonLinesAndStream) -> None:
    """A loop that ended with lines waiting (its timer never ran): the next line of any
    loop writes them."""
    lines, stream = handler

    async def one(line: str) -> None:
        lines.batch(line)

    asyncio.run(one("first"))
    assert stream.getvalue() == ""
    asyncio.run(one("second"))
    assert stream.getvalue() == "first\nsecond\n"


@contextlib.contextmanager
def configured(stream: Stream) -> Iterator[logs.JsonLines]:
    """``logs.configure`` writing to ``stream`` (in the test itself: pytest adds its own
    handlers to the root logger for each phase of a test); the logging of before restored."""
    root, access = logging.getLogger(), logging.getLogger(logs.ACCESS)
    saved = root.handlers[:], root.level, access.level
    with contextlib.redirect_stderr(stream):
        logs.configure("WARNING")  # the access lines only (not the test client's)
    try:
        yield root.handlers[0]  # type: ignore[misc]
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
        access.setLevel(saved[2])


def test_access_lines_of_a_server_are_written_by_the_end_of_its_lifespan(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Workers end without the interpreter's exit handlers: the lifespan's end writes the
    lines still waiting (here all of them: the loop's timer would run in a minute). The
    lines are made without a ``LogRecord`` and read as before."""
    stream = Stream()
    monkeypatch.setattr(logs, "BATCH_SECONDS", 60)
    with configured(stream) as lines, TestClient(create_app(settings)) as client:
        assert logs.access_writer() is lines
        client.get(f"{NS}/events?per_page=2&password=x", headers={"X-Request-Id": "r-1"})
        client.get(f"{NS}/events/999999")
        assert stream.getvalue() == ""
    ok, missing = (orjson.loads(line) for line in stream.getvalue().splitlines())
    assert (ok["logger"], ok["message"], ok["request_id"]) == (logs.ACCESS, "request", "r-1")
    assert (ok["path"], ok["status"]) == (f"{NS}/events", 200)
    assert ok["query"] == "per_page=2&password=[redacted]"
    assert (missing["status"], missing["code"]) == (404, "rest-event-not-found")


def test_lines_go_through_logging_when_another_handler_listens() -> None:
    with configured(Stream()) as lines:
        assert logs.access_writer() is lines
        logging.getLogger().addHandler(logging.Handler())
        assert logs.access_writer() is None


def _child_id(queue: multiprocessing.Queue[str]) -> None:
    queue.put(request_id(None))


def test_request_ids_differ_in_a_forked_worker() -> None:
    context = multiprocessing.get_context("fork")
    queue: multiprocessing.Queue[str] = context.Queue()
    child = context.Process(target=_child_id, args=(queue,))
    child.start()
    theirs = queue.get(timeout=30)
    child.join()
    mine = request_id(None)
    assert mine != theirs
    assert len(mine) == len(theirs) == 32
    assert int(mine, 16) >= 0

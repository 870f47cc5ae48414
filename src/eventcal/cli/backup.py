"""``eventcal export FILE`` and ``eventcal import FILE``: backups and moves between databases.

``FILE`` is a path (``.gz``: compressed), or ``-`` for standard output / input. The format is
described in :mod:`eventcal.storage.backup`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gzip
import os
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from eventcal.cli.database import CREATES, open_database
from eventcal.config import Settings
from eventcal.storage import backup as backup_service
from eventcal.storage.db import StorageError


def register(commands: Any) -> None:
    export = commands.add_parser("export", help="write all the data to a file (JSON Lines)")
    export.add_argument("file", help="path (.gz: compressed), or - for standard output")
    export.add_argument(
        "--with-secrets",
        action="store_true",
        help="include the users' application passwords (hashed); without, they cannot log in "
        "after an import until given a password",
    )
    export.set_defaults(handler=run_export)
    load = commands.add_parser(
        "import", help="add the data of an export file (rows with the same ids are replaced)"
    )
    load.add_argument("file", help="path (.gz: compressed), or - for standard input")
    load.set_defaults(handler=run_import, database=CREATES)


def run_export(args: argparse.Namespace, settings: Settings) -> int:
    progress = TerminalProgress.for_stream(sys.stderr)

    async def export(out: backup_service.Sink) -> dict[str, int]:
        async with open_database(settings) as database:
            return await backup_service.export_data(
                database,
                out,
                now=datetime.now(UTC),
                with_secrets=args.with_secrets,
                progress=progress,
            )

    try:
        with _output(args.file) as out:
            counts = asyncio.run(export(out))
    except (backup_service.BackupError, StorageError, OSError) as exc:
        return _fail(str(exc), progress)
    progress.close()
    summary = f"exported {_describe(counts)}"
    print(summary, file=sys.stderr if args.file == "-" else sys.stdout)
    return 0


def run_import(args: argparse.Namespace, settings: Settings) -> int:
    progress = TerminalProgress.for_stream(sys.stderr)

    async def load(lines: Iterable[bytes]) -> dict[str, int]:
        async with open_database(settings) as database:
            return await backup_service.import_data(database, lines, progress=progress)

    try:
        with _input(args.file) as lines:
            counts = asyncio.run(load(lines))
    except (backup_service.BackupError, StorageError, OSError) as exc:
        return _fail(str(exc), progress)
    progress.close()
    print(f"imported {_describe(counts)}")
    return 0


def _fail(message: str, progress: TerminalProgress | None = None) -> int:
    if progress is not None:
        progress.close()
    print(f"eventcal: {message}", file=sys.stderr)
    return 1


def _describe(counts: dict[str, int]) -> str:
    rows = ", ".join(f"{name} {n:,}" for name, n in counts.items())
    return f"{sum(counts.values()):,} rows ({rows})"


@contextlib.contextmanager
def _output(name: str) -> Iterator[backup_service.Sink]:
    """Standard output, or a new file (mode 0600) that replaces ``name`` only once complete."""
    if name == "-":
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
        return
    target = Path(name)
    fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as raw:
            if target.suffix == ".gz":
                with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6) as compressed:
                    yield compressed
            else:
                yield raw
            raw.flush()
            os.fsync(raw.fileno())
        Path(temporary).replace(target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


@contextlib.contextmanager
def _input(name: str) -> Iterator[Iterable[bytes]]:
    if name == "-":
        yield sys.stdin.buffer
    elif name.endswith(".gz"):
        with gzip.open(name, "rb") as compressed:
            yield compressed
    else:
        with Path(name).open("rb") as raw:
            yield raw


class TerminalProgress:
    """Rows done per table and their rate, one line rewritten in place, on a terminal only."""

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream
        self.table: str | None = None
        self.started = 0.0
        self.shown = 0.0
        self.line = ""

    @classmethod
    def for_stream(cls, stream: TextIO) -> TerminalProgress:
        return cls(stream if stream.isatty() else None)

    def __call__(self, table: str, done: int, total: int) -> None:
        if self.stream is None:
            return
        now = time.monotonic()
        if table != self.table:
            self._end_line()
            self.table, self.started = table, now
        elif done < total and now - self.shown < 0.2:
            return
        self.shown = now
        rate = done / (now - self.started) if now > self.started else 0.0
        percent = 100 * done // total if total else 100
        self.line = f"{table:<16} {done:>11,} / {total:<11,} {percent:>3}%  {rate:>9,.0f} rows/s"
        self.stream.write("\r" + self.line)
        self.stream.flush()

    def _end_line(self) -> None:
        if self.stream is not None and self.line:
            self.stream.write("\n")
            self.stream.flush()
            self.line = ""

    def close(self) -> None:
        self._end_line()

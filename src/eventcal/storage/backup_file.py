"""The export file (format version 1): UTF-8 text, one JSON object per line, and reading it.

* line 1, the header: ``{"format": "eventcal-export", "version": 1, "revision": "0004",
  "exported_at": "2026-11-22T04:46:00+00:00", "eventcal": "0.1.0", "with_secrets": false,
  "tables": {"post": 12, "app_user": 2, …}}``: the schema revision, and the tables that follow,
  in order, with their row counts (a file with fewer rows is truncated);
* then one line per row, ``{"table": "event", "row": {"id": 7, "title": "…", …}}`` with every
  column; tables in foreign-key order (:data:`TABLES`), each in primary-key order.

Values: ``*_at`` columns are ISO 8601 instants with their offset (UTC), ``*_local`` columns
naive ISO 8601 wall-clock times, booleans are booleans, bytes (``media_file.data``, an uploaded
file) base64 text, everything else is as stored (``storage.backup_values``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import orjson
import sqlalchemy as sa

from eventcal.storage import bulk
from eventcal.storage.backup_values import decode_row
from eventcal.storage.tables import (
    app_password,
    app_user,
    event,
    event_organizer,
    event_term,
    media,
    media_file,
    organizer,
    post,
    term,
    translation,
    venue,
)

FORMAT = "eventcal-export"
FORMAT_VERSION = 1
TABLES = (
    post,
    app_user,
    app_password,
    media,
    media_file,
    venue,
    organizer,
    term,
    event,
    event_organizer,
    event_term,
    translation,
)
"""What an export holds, in an order that satisfies the foreign keys (``parent_id`` aside:
a parent stored after its child is linked once the table is in)."""
BATCH_ROWS = 1000
"""Rows per statement on import (``execute_many``)."""
BLOB_TABLES = {media_file.name: 8}
"""Tables of large rows (a file's bytes, up to the upload limit each), read and written this
many rows at a time, so memory stays bounded by a few files."""


class BackupError(Exception):
    """An export or import that cannot go on; the message says why (and where in the file)."""


@dataclass(frozen=True, slots=True)
class Header:
    revision: str
    with_secrets: bool
    tables: dict[str, int]
    """The tables that follow, in order, and their row counts."""


def read_header(line: bytes | None) -> Header:
    """The header line, checked: an eventcal export of a schema this code can import."""
    if line is None:
        raise BackupError("the file is empty")
    try:
        header = orjson.loads(line)
    except orjson.JSONDecodeError:
        header = None
    if type(header) is not dict or header.get("format") != FORMAT:
        raise BackupError("line 1: not an eventcal export (no header)")
    version = header.get("version")
    if type(version) is not int or version > FORMAT_VERSION or version < 1:
        raise BackupError(
            f"line 1: format version {version!r}; this eventcal reads version {FORMAT_VERSION}"
        )
    revision = header.get("revision")
    known = bulk.known_revisions()
    if type(revision) is not str or revision not in known:
        raise BackupError(
            f"line 1: the file is from schema revision {revision!r}, newer than this eventcal "
            f"({known[0]}): import it with the eventcal that wrote it, or a newer one"
        )
    tables = header.get("tables")
    order = [str(t.name) for t in TABLES]
    if (
        type(tables) is not dict
        or any(name not in order or type(n) is not int or n < 0 for name, n in tables.items())
        or [name for name in order if name in tables] != list(tables)
    ):
        raise BackupError(f'line 1: "tables" must list tables of {order}, in that order')
    return Header(revision, header.get("with_secrets") is True, tables)


@dataclass(slots=True)
class Batch:
    table: sa.Table
    rows: list[dict[str, Any]]
    first_line: int
    last_line: int

    @property
    def name(self) -> str:
        return str(self.table.name)

    def where(self) -> str:
        return f"lines {self.first_line}-{self.last_line} ({self.name})"


class Reader:
    """Rows of a file, checked and grouped into batches of one table."""

    def __init__(self, header: Header, lines: Iterator[tuple[int, bytes]]) -> None:
        self.header = header
        self.lines = lines
        self.read: dict[str, int] = dict.fromkeys(header.tables, 0)
        self.last_line = 1

    def batches(self) -> Iterator[Batch]:
        order = list(self.header.tables)
        position = 0
        batch: Batch | None = None
        for number, line in self.lines:
            self.last_line = number
            name, values = self._parse(number, line)
            if name not in self.header.tables or order.index(name) < position:
                raise BackupError(
                    f"line {number}: rows of {name!r} here: the file's tables must follow "
                    f"the header's order {order}"
                )
            while order[position] != name:
                self._check_count(order[position], number)
                position += 1
            self.read[name] += 1
            if self.read[name] > self.header.tables[name]:
                raise BackupError(
                    f"line {number}: more rows of {name} than the header announces "
                    f"({self.header.tables[name]})"
                )
            tbl = bulk.table(name)
            try:
                row = decode_row(tbl, values)
            except ValueError as exc:
                raise BackupError(f"line {number}: {exc}") from None
            limit = BLOB_TABLES.get(name, BATCH_ROWS)
            if batch is None or batch.table is not tbl or len(batch.rows) >= limit:
                if batch is not None:
                    yield batch
                batch = Batch(tbl, [], number, number)
            batch.rows.append(row)
            batch.last_line = number
        if batch is not None:
            yield batch

    @staticmethod
    def _parse(number: int, line: bytes) -> tuple[Any, Any]:
        try:
            item = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            raise BackupError(f"line {number}: not JSON ({exc})") from None
        if (
            type(item) is not dict
            or item.keys() != {"table", "row"}
            or type(item["table"]) is not str
        ):
            raise BackupError(f'line {number}: expected {{"table": …, "row": {{…}}}}')
        return item["table"], item["row"]

    def _check_count(self, name: str, number: int) -> None:
        if self.read[name] != self.header.tables[name]:
            raise BackupError(
                f"line {number}: {self.read[name]} rows of {name}, the header announces "
                f"{self.header.tables[name]}"
            )

    def missing(self) -> dict[str, int]:
        """Rows the header announces that the file did not hold (a truncated file)."""
        return {
            name: total - self.read[name]
            for name, total in self.header.tables.items()
            if self.read[name] != total
        }

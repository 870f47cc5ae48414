"""How each column's values are written to an export file and read back from one.

Instants (``*_at``) are ISO 8601 with their offset (UTC), wall-clock times (``*_local``) naive
ISO 8601, booleans booleans, bytes (media files) base64 text; everything else as stored.
Reading checks every value against its column's type and length, so a damaged file is refused
with the table and column it broke.
"""

from __future__ import annotations

import base64
import binascii
import functools
from collections.abc import Callable
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from eventcal.storage import bulk
from eventcal.storage.db import as_local, as_utc

INT32 = 2**31
"""Integer columns are 32-bit on PostgreSQL: a larger id in a file is refused, not truncated."""

Codec = Callable[[Any], Any]


def _nullable(codec: Codec) -> Codec:
    return lambda value: None if value is None else codec(value)


def _encoder(column: sa.Column[Any]) -> Codec | None:
    """How a stored value is written (None: as it is)."""
    kind = column.type
    if isinstance(kind, sa.Boolean):
        return _nullable(bool)
    if isinstance(kind, sa.DateTime):
        return _nullable(as_utc if kind.timezone else as_local)
    if isinstance(kind, sa.LargeBinary):
        return _nullable(lambda value: base64.b64encode(bytes(value)).decode("ascii"))
    return None


@functools.lru_cache(maxsize=32)
def _encoders(name: str) -> tuple[tuple[str, Codec | None], ...]:
    return tuple((str(c.name), _encoder(c)) for c in bulk.table(name).columns)


def encode_row(tbl: sa.Table, row: Any) -> dict[str, Any]:
    """A stored row as JSON-ready values (orjson writes datetimes as ISO 8601)."""
    return {
        name: row[name] if codec is None else codec(row[name])
        for name, codec in _encoders(tbl.name)
    }


def _boolean(value: Any) -> bool:
    if type(value) is not bool:
        raise ValueError("expected true or false")
    return value


def _integer(value: Any) -> int:
    if type(value) is not int or not -INT32 <= value < INT32:
        raise ValueError("expected a 32-bit integer")
    return value


def _float(value: Any) -> float:
    if type(value) not in (int, float):
        raise ValueError("expected a number")
    return float(value)


def _text(length: int | None) -> Codec:
    def decode(value: Any) -> str:
        if type(value) is not str:
            raise ValueError("expected a string")
        if length is not None and len(value) > length:
            raise ValueError(f"longer than {length} characters")
        return value

    return decode


def _binary(value: Any) -> bytes:
    if type(value) is not str:
        raise ValueError("expected base64 text")
    try:
        return base64.b64decode(value, validate=True)
    except binascii.Error:
        raise ValueError("expected base64 text") from None


def _instant(value: Any) -> datetime:
    moment = _datetime(value)
    if moment.tzinfo is None:
        raise ValueError("expected an ISO 8601 date-time with an offset")
    return moment


def _wall_clock(value: Any) -> datetime:
    moment = _datetime(value)
    if moment.tzinfo is not None:
        raise ValueError("expected an ISO 8601 date-time without an offset")
    return moment


def _datetime(value: Any) -> datetime:
    if type(value) is not str:
        raise ValueError("expected an ISO 8601 date-time string")
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise ValueError("expected an ISO 8601 date-time string") from None


def _decoder(column: sa.Column[Any]) -> Codec:
    """How a value read from a file is checked and turned into a parameter."""
    kind = column.type
    codec: Codec
    if isinstance(kind, sa.Boolean):
        codec = _boolean
    elif isinstance(kind, sa.DateTime):
        codec = _instant if kind.timezone else _wall_clock
    elif isinstance(kind, sa.Integer):
        codec = _integer
    elif isinstance(kind, sa.Float):
        codec = _float
    elif isinstance(kind, sa.String):
        codec = _text(kind.length)
    elif isinstance(kind, sa.LargeBinary):
        codec = _binary
    else:  # pragma: no cover - a test checks every exported column has a decoder
        raise TypeError(f"no decoder for {column.table.name}.{column.name} ({kind})")
    if column.nullable:
        return _nullable(codec)

    def required(value: Any) -> Any:
        if value is None:
            raise ValueError("must not be null")
        return codec(value)

    return required


@functools.lru_cache(maxsize=32)
def _decoders(name: str) -> tuple[tuple[str, Codec], ...]:
    return tuple((str(c.name), _decoder(c)) for c in bulk.table(name).columns)


def decode_row(tbl: sa.Table, values: Any) -> dict[str, Any]:
    """A row read from a file, checked against the table (every column, nothing else)."""
    if type(values) is not dict:
        raise ValueError('"row" is not an object')
    decoders = _decoders(tbl.name)
    if len(values) != len(decoders) or any(name not in values for name, _ in decoders):
        expected = {name for name, _ in decoders}
        missing = sorted(expected - values.keys())
        unknown = sorted(values.keys() - expected)
        raise ValueError(f"columns of {tbl.name} missing: {missing}, unknown: {unknown}")
    row = {}
    for name, codec in decoders:
        try:
            row[name] = codec(values[name])
        except ValueError as exc:
            raise ValueError(f"{tbl.name}.{name}: {exc}") from None
    return row

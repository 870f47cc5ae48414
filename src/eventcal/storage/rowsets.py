"""Many rows in one statement: a parameter holding a list of rows, read as a table.

``INSERT … SELECT`` from such a source writes a whole set of rows with one statement. On SQLite
this is much cheaper than running a one-row statement per row (``execute_many``) inside the
write request's savepoint: every statement then copies each page it changes to the savepoint's
journal again, the inner pages of every index included (a two-year daily series: 730
statements, ~95 ms; one statement, ~35 ms on 114,524 events; bench/README.md, issue 15).

SQLite reads the rows with ``json_each`` and ``json_extract``; PostgreSQL with
``jsonb_array_elements`` and a cast per column. The parameter's value is a :class:`Rows`, which
each connection encodes as a JSON array (``db._sqlite_value``, ``db._pg_value``).

Dates and times are written by orjson itself, in C (ISO 8601 with a ``T``, an aware one with its
offset, whole seconds), and on SQLite a date-time column's value is read through ``datetime()``,
which gives the form SQLite stores (``YYYY-MM-DD HH:MM:SS``, in UTC for an aware value): no
Python call per value (a two-year daily series binds ~3,650 of them: 2.9 ms of formatting in
Python, 0.1 ms in C). orjson writes an offset in whole minutes: pass aware values in UTC (an
instant of a zone's local mean time, before ~1900, would lose its seconds).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.elements import ColumnElement
from sqlalchemy.sql.functions import FunctionElement


@dataclass(frozen=True, slots=True)
class Rows:
    """The value of a :func:`rows_of` parameter: one sequence of values per row, in the order
    of the columns given to :func:`rows_of`."""

    rows: Sequence[Sequence[Any]]


class _elements(FunctionElement[Any]):  # noqa: N801 - reads like a SQL function in statements
    """The rows of a JSON array parameter, one per element (its ``value``)."""

    name = "elements"
    inherit_cache = True


@compiles(_elements, "sqlite")
def _elements_sqlite(element: _elements, compiler: Any, **kw: Any) -> str:
    return f"json_each({compiler.process(element.clauses, **kw)})"


@compiles(_elements, "postgresql")
def _elements_postgresql(element: _elements, compiler: Any, **kw: Any) -> str:
    return f"jsonb_array_elements(CAST({compiler.process(element.clauses, **kw)} AS JSONB))"


class _item(ColumnElement[Any]):  # noqa: N801 - reads like a SQL function in statements
    """Item ``index`` of a row (a JSON array), as a value of ``type_``."""

    inherit_cache = True

    def __init__(self, row: ColumnElement[Any], index: int, type_: Any) -> None:
        self.row = row
        self.index = index
        self.type = type_


@compiles(_item, "sqlite")
def _item_sqlite(element: _item, compiler: Any, **kw: Any) -> str:
    value = f"json_extract({compiler.process(element.row, **kw)}, '$[{int(element.index)}]')"
    return f"datetime({value})" if isinstance(element.type, sa.DateTime) else value


@compiles(_item, "postgresql")
def _item_postgresql(element: _item, compiler: Any, **kw: Any) -> str:
    row = compiler.process(element.row, **kw)
    type_ = compiler.dialect.type_compiler_instance.process(element.type)
    return f"CAST(({row} ->> {int(element.index)}) AS {type_})"


def rows_of(name: str, columns: Sequence[sa.Column[Any]]) -> tuple[Any, list[Any]]:
    """A source of rows bound as parameter ``name`` (a :class:`Rows` of values for
    ``columns``, in that order) and one labelled value per column, to select from it."""
    source = _elements(sa.bindparam(name, type_=sa.String)).table_valued("value").alias(name)
    return source, [_item(source.c.value, i, c.type).label(c.name) for i, c in enumerate(columns)]


__all__ = ["Rows", "rows_of"]

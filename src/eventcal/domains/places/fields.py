"""Fields venues and organizers declare alike."""

from __future__ import annotations

from typing import Any

from eventcal.http.args import Parser
from eventcal.resources import parsers
from eventcal.resources.spec import Field
from eventcal.resources.text import clean_line


def _line(value: Any) -> str:
    return clean_line(str(value))


def line_field(
    name: str, description: str, parse: Parser | None = None, *, translated: bool = False
) -> Field:
    """A one-line text field stored in its own column, cleaned to one line (an address, a phone
    number, a website); by default any text up to 1,000 characters."""
    return Field(
        name,
        description,
        parse or parsers.text(name, max_length=1000),
        column=name,
        store=_line,
        translated=translated,
        type="string",
        default=None,
    )

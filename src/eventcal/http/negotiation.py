"""The request's language: ``translation_language``, then a ``/de/…`` path segment, then
``Accept-Language``, then the site's default."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from eventcal.context import NAMESPACE
from eventcal.i18n import LANGUAGES, negotiate, normalize_language

LANGUAGE_SEGMENT = re.compile(
    "^/(" + "|".join(LANGUAGES) + ")(?=/" + re.escape(NAMESPACE) + "(/|$))", re.IGNORECASE
)


@dataclass(slots=True)
class Negotiated:
    """The request's language, as far as it is known (errors are rendered in it)."""

    language: str
    segment: str = ""
    """The language path segment the request came in with (``/de/cal/events/v1/…``)."""
    header: str | None = None
    """The language ``Accept-Language`` chose, if any."""

    @classmethod
    def start(cls, path: str, accept: str | None, default: str) -> tuple[Negotiated, str]:
        """What the path and the header say, and the path without its language segment."""
        segment = LANGUAGE_SEGMENT.match(path)
        negotiated = cls(
            language=default,
            segment=segment.group(1).lower() if segment else "",
            header=negotiate(accept) if accept else None,
        )
        return negotiated, path[segment.end() :] if segment else path

    def choose(self, raw: Mapping[str, Any], default: str) -> str:
        """Parameter, then path segment, then ``Accept-Language``, then the site default. An
        invalid parameter chooses nothing (its parser reports it)."""
        value = raw.get("translation_language")
        chosen = normalize_language(value) if isinstance(value, str) and value.strip() else None
        self.language = chosen or self.segment or self.header or default
        return self.language

    def headers(self) -> dict[str, str]:
        return {"Content-Language": self.language, "Vary": "Accept-Language"}

"""Message translation (gettext catalogs in ``i18n/locales/<lang>/LC_MESSAGES/eventcal.mo``).

Error messages are message ids with named placeholders; they are translated when a response is
built, in the request's language, and formatted after translation.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "de", "es")
"""The languages of content and messages (``translation_language``)."""
LOCALES = Path(__file__).parent / "locales"
DOMAIN = "eventcal"


@cache
def _catalog(language: str) -> gettext.NullTranslations:
    return gettext.translation(DOMAIN, LOCALES, languages=[language], fallback=True)


def translate(message: str, language: str = "en", **args: Any) -> str:
    """The message in ``language`` (English when no translation exists), formatted with args."""
    text = _catalog(language).gettext(message) if language != "en" else message
    if not args:
        return text
    try:
        return text.format(**args)
    except (KeyError, IndexError, ValueError):
        return message.format(**args)


def normalize_language(value: str) -> str | None:
    """``de``, ``DE``, ``de-DE``, ``de_AT`` → ``de``; None for anything not in LANGUAGES.

    Region and script subtags are dropped (a ``de-AT`` client reads German); the primary subtag
    must be one of ours.
    """
    primary = value.strip().replace("_", "-").split("-", 1)[0].lower()
    return primary if primary in LANGUAGES else None


MAX_ACCEPT_LANGUAGE = 1024


def negotiate(header: str) -> str | None:
    """The best of LANGUAGES for an ``Accept-Language`` header (RFC 9110 §12.5.4), or None.

    Highest weight wins, earlier entries win ties; ``*`` and unknown languages choose nothing,
    so the caller falls back to the site's default.
    """
    best: tuple[float, int, str] | None = None
    for position, entry in enumerate(header[:MAX_ACCEPT_LANGUAGE].split(",")):
        tag, _, params = entry.strip().partition(";")
        code = normalize_language(tag) if tag.strip() != "*" else None
        if code is None:
            continue
        weight = 1.0
        for param in params.split(";"):
            key, _, number = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(number)
                except ValueError:
                    weight = 0.0
        if not 0.0 < weight <= 1.0:
            continue
        if best is None or weight > best[0]:
            best = (weight, position, code)
    return None if best is None else best[2]

"""Languages: negotiation, and message translation with gettext catalogs.

Error messages are message ids (English) with named placeholders; they are translated when a
response is built, in the request's language, and formatted after translation. The catalogs are
``locales/<lang>/LC_MESSAGES/eventcal.po`` (see :mod:`eventcal.i18n.catalogs`).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from eventcal.i18n import catalogs

LANGUAGES = ("en", "de", "es")
"""The languages of content and messages (``translation_language``)."""


def N_(message: str) -> str:  # noqa: N802 (the gettext convention)
    """Mark a message id for the catalogs where it is defined; it is translated when a
    response is built (``translate``)."""
    return message


@cache
def _catalog(language: str) -> dict[str, str]:
    return catalogs.load(language)


def translate(message: str, language: str = "en", **args: Any) -> str:
    """The message in ``language`` (English when no translation exists), formatted with args."""
    text = message
    if language != catalogs.SOURCE_LANGUAGE:
        text = _catalog(language).get(message, message)
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

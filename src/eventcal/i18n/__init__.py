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

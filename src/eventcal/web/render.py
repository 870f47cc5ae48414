"""Templates and words: one Jinja2 environment (autoescaping on, templates from the package),
interface text from the gettext catalogs (``_`` in templates; ``make messages`` extracts it),
month and weekday names and dates from Babel's locale data."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, time
from functools import cache, lru_cache
from typing import Any, Literal

from babel import Locale
from babel.core import get_global
from babel.dates import format_date, format_time, get_day_names
from jinja2 import Environment, PackageLoader, select_autoescape

from eventcal.i18n import translate

TEMPLATES = "templates"


@cache
def environment() -> Environment:
    """Built once per process: templates are compiled on first use and kept."""
    env = Environment(
        loader=PackageLoader("eventcal.web", TEMPLATES),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
    )
    env.policies["json.dumps_kwargs"] = {"sort_keys": False, "ensure_ascii": True}
    return env


@cache
def _locale(language: str) -> Locale:
    return Locale.parse(language)


@lru_cache(maxsize=4096)
def _date(day: date, pattern: str, language: str) -> str:
    return format_date(day, pattern, locale=_locale(language))


@lru_cache(maxsize=4096)
def _time(hour: int, minute: int, language: str) -> str:
    return format_time(time(hour, minute), "short", locale=_locale(language))


class Words:
    """A language's text for templates: ``_`` (catalogs) and dates (Babel, each distinct
    value formatted once per process: a month page shows the same few hundred)."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.locale = _locale(language)

    def gettext(self, message: str, **args: Any) -> str:
        return translate(message, self.language, **args)

    def month_year(self, day: date) -> str:
        return _date(day, "LLLL y", self.language)

    def long_date(self, day: date) -> str:
        return _date(day, "full", self.language)

    def medium_date(self, day: date) -> str:
        return _date(day, "medium", self.language)

    def day_number(self, day: date) -> str:
        return _date(day, "d", self.language)

    def time(self, moment: datetime) -> str:
        return _time(moment.hour, moment.minute, self.language)

    def open_graph_locale(self, code: str) -> str:
        """``de_DE``: Open Graph's ``language_TERRITORY`` (the language's likely territory)."""
        likely = str(get_global("likely_subtags").get(code, code)).split("_")
        territory = next((part for part in likely[1:] if part.isupper()), "")
        return f"{likely[0]}_{territory}" if territory else likely[0]

    def language_name(self, code: str) -> str:
        """A language's name in that language (``Deutsch``), for the language switch."""
        name = _locale(code).get_display_name(code) or code
        return name[:1].upper() + name[1:]

    def weekdays(self, width: Literal["abbreviated", "wide"] = "abbreviated") -> list[str]:
        """Monday first, in the language (``wide`` for full names)."""
        names = get_day_names(width, locale=self.locale)
        return [str(names[i]) for i in range(7)]


@cache
def words(language: str) -> Words:
    return Words(language)


def render(name: str, language: str, context: dict[str, Any]) -> str:
    env = environment()
    said = words(language)
    gettext: Callable[..., str] = said.gettext
    return env.get_template(name).render(_=gettext, words=said, language=language, **context)

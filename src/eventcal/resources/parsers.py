"""Parsers and arguments shared by several collections (primitive ones are in
:mod:`eventcal.http.args`)."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Any

from eventcal.http.args import (
    Arg,
    Invalid,
    as_int,
    because,
    non_empty_string,
    positive_int,
    string,
)
from eventcal.http.request import RequestState
from eventcal.i18n import LANGUAGES, N_, normalize_language
from eventcal.resources import dates as date_service
from eventcal.resources.images import is_http_url
from eventcal.resources.pagination import clamp_per_page
from eventcal.storage import queries as q

MAX_TEXT_CHARS = 1_000_000
"""The most ``EVENTCAL_MAX_TEXT_CHARS`` may allow (the site's setting is checked per request)."""


def translation_language(value: Any, state: RequestState) -> str:
    """``en``, ``de`` or ``es``, any case, region subtags dropped (``de-AT`` is ``de``); ``""`` is
    as if absent. The router has already chosen the request's language from it."""
    if isinstance(value, str):
        if not value.strip():
            return state.language
        language = normalize_language(value)
        if language is not None:
            return language
    raise Invalid(
        "{param} is not one of {values}.",
        param="translation_language",
        values="en, de, and es",
    )


TRANSLATION_LANGUAGE = Arg(
    "translation_language",
    "The language of content and messages: en, de or es (any case; a region such as de-AT "
    "reads as de). Without it, a language path segment (/de/cal/events/v1/…) or the "
    "Accept-Language header chooses; otherwise the site's default language. Text fields "
    "without a translation fall back to the default language. Writes with a language other "
    "than the default store that language's text.",
    translation_language,
    type="string",
    enum=LANGUAGES,
)


def time_value(value: Any, state: RequestState) -> Any:
    """A date-time the original's ``strtotime`` would read; the raw value is kept (services
    interpret it in the right time zone)."""
    _no_nul(value)
    if date_service.parse_time(value, state.site.zone, state.now) is None:
        raise _unreadable(value)
    return value


def _unreadable(value: Any) -> Invalid:
    return because(date_service.UNREADABLE, value=date_service.shown(value))


def _no_nul(value: Any) -> None:
    """The date parser reads NUL as a space; a date holding one is refused like any string."""
    if isinstance(value, str) and "\x00" in value:
        raise Invalid(N_("{param} must not contain NUL characters."))


def site_time(value: Any, state: RequestState) -> datetime:
    """A date-time read in the site's zone (naive, site-local)."""
    _no_nul(value)
    parsed = date_service.parse_time(value, state.site.zone, state.now)
    if parsed is None:
        raise _unreadable(value)
    if not date_service.storable(parsed):
        raise Invalid(date_service.OUT_OF_RANGE)
    return parsed


def utc_time(value: Any, state: RequestState) -> datetime:
    """A date-time read as UTC (naive UTC wall-clock)."""
    parsed = date_service.parse_time(value, UTC, state.now)
    if parsed is None:
        raise _unreadable(value)
    if not date_service.storable(parsed):
        raise Invalid(date_service.OUT_OF_RANGE)
    return parsed


def url_or_empty(value: Any, state: RequestState) -> str:
    """``""`` or an absolute http(s) URL (other schemes are refused: see DEVIATIONS)."""
    if not isinstance(value, str):
        raise Invalid()
    url = value.strip()
    if url and not is_http_url(url):
        raise Invalid()
    return url


async def user_id(value: Any, state: RequestState) -> int:
    number = as_int(value)
    if (
        number is None
        or number <= 0
        or await state.conn.first(q.USER_BY_ID, {"id": number}) is None
    ):
        raise Invalid()
    return number


def number(value: Any, state: RequestState) -> float:
    if isinstance(value, bool):
        raise Invalid()
    try:
        result = float(value)
    except (TypeError, ValueError):
        raise Invalid() from None
    if not math.isfinite(result):
        raise Invalid()
    return result


def latitude(value: Any, state: RequestState) -> float:
    result = number(value, state)
    if not -90 <= result <= 90:
        raise Invalid()
    return result


def longitude(value: Any, state: RequestState) -> float:
    result = number(value, state)
    if not -180 <= result <= 180:
        raise Invalid()
    return result


_password = string("password", max_length=255, allow_empty=False)


def password(value: Any, state: RequestState) -> str:
    return str(_password(value, state))


def password_arg(label: str) -> Arg:
    """A read's (or an event write's) ``password`` of a password-protected item."""
    return Arg("password", f"The {label} password", password, type="string")


def per_page(value: Any, state: RequestState) -> int:
    return clamp_per_page(positive_int(value, state))


_search = non_empty_string("search", max_length=200)


def search(value: Any, state: RequestState) -> str:
    return str(_search(value, state))


def text(name: str, *, max_length: int | None = None) -> Any:
    """A text field that may be cleared with ``""``; numbers are taken as their text
    (DEVIATIONS #14: natural JSON is accepted where unambiguous). Without ``max_length`` the
    site's ``max_text_chars`` (``EVENTCAL_MAX_TEXT_CHARS``) limits it."""
    as_string = string(name, max_length=max_length or MAX_TEXT_CHARS)

    def parse(value: Any, state: RequestState) -> str:
        if isinstance(value, int | float) and not isinstance(value, bool):
            value = str(value)
        result = str(as_string(value, state))
        return within_site_limit(name, result, state) if max_length is None else result

    return parse


def long_string(name: str) -> Any:
    """A string (no numbers) of at most the site's ``max_text_chars``: descriptions."""
    as_string = string(name, max_length=MAX_TEXT_CHARS)

    def parse(value: Any, state: RequestState) -> str:
        return within_site_limit(name, str(as_string(value, state)), state)

    return parse


def within_site_limit(name: str, value: str, state: RequestState) -> str:
    if len(value) > state.site.max_text_chars:
        raise Invalid(
            "{param} is longer than {max} characters.", param=name, max=state.site.max_text_chars
        )
    return value


def page_args(plural: str) -> tuple[Arg, Arg]:
    """``page`` and ``per_page`` of an archive."""
    return (
        Arg("page", "The archive page to return", positive_int, type="integer", default=1),
        Arg(
            "per_page",
            f"The number of {plural} to return on each page",
            per_page,
            type="integer",
            default=lambda state: state.site.posts_per_page,
        ),
    )


def _ignored(value: Any, state: RequestState) -> None:
    """Path parameters come from the path only; a body or query value of the same name is
    ignored (DEVIATIONS #3)."""
    return


def path_arg(name: str, description: str, type_name: str) -> Arg:
    """A path parameter (``{id}``, ``{slug}``), listed by the index and the OpenAPI document."""
    return Arg(
        name,
        description,
        _ignored,
        type=type_name,
        required=True,
        location="path",
        show_default=False,
    )


def path_id(state: RequestState) -> int:
    """The ``{id}`` path parameter (digits); ids beyond the id space name nothing."""
    text = state.path_params["id"]
    return int(text) if len(text) <= 10 else 0

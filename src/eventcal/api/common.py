"""Parsers and arguments shared by several collections."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from eventcal.errors import ApiError, InvalidParams, MissingParams
from eventcal.http.args import (
    MAX_TERMS,
    Arg,
    Invalid,
    Parser,
    as_int,
    check_count,
    csv_items,
    non_empty_string,
    parse_args,
    positive_int,
    string,
    type_error,
)
from eventcal.http.conditional import matches_revision
from eventcal.http.request import RequestState
from eventcal.i18n import LANGUAGES, N_, normalize_language
from eventcal.permissions import Actor
from eventcal.services import dates as date_service
from eventcal.services import linked as linked_service
from eventcal.services import media as media_service
from eventcal.services import posts
from eventcal.services import users as user_service
from eventcal.services.cost import normalise_cost_input
from eventcal.services.linked import MAX_LINKED, LinkedItem, parse_linked
from eventcal.services.media import ImageRef
from eventcal.services.pagination import clamp_per_page
from eventcal.services.terms import TermValue, split_term_values
from eventcal.storage.db import Row
from eventcal.timezones import canonical_timezone_name

POST_STATUSES = ("publish", "future", "draft", "pending", "private", "trash")


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


def translatable(parse: Parser, *, create: bool) -> Parser:
    """A text that must not be empty, except in an update in another language than the site's
    default: there ``""`` removes that language's text (the default shows again)."""
    if create:
        return parse

    def parse_translatable(value: Any, state: RequestState) -> Any:
        if value == "" and state.language != state.site.default_language:
            return ""
        return parse(value, state)

    return parse_translatable


def require_unchanged(state: RequestState, row: Row) -> None:
    """``If-Match``: a write applies only to the revision the client read; otherwise 412 and
    nothing changes. Checked after the permission checks, before anything is written."""
    header = state.if_match
    if header is not None and not matches_revision(header, int(row["revision"])):
        raise ApiError(
            "rest_precondition_failed",
            "The item has changed since it was read: read it again and reapply the change.",
            412,
            data={"revision": int(row["revision"])},
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
        raise Invalid()
    return value


def _no_nul(value: Any) -> None:
    """The date parser reads NUL as a space; a date holding one is refused like any string."""
    if isinstance(value, str) and "\x00" in value:
        raise Invalid(N_("{param} must not contain NUL characters."))


def site_time(value: Any, state: RequestState) -> datetime:
    """A date-time read in the site's zone (naive, site-local)."""
    _no_nul(value)
    parsed = date_service.parse_time(value, state.site.zone, state.now)
    if parsed is None:
        raise Invalid()
    return parsed


def utc_time(value: Any, state: RequestState) -> datetime:
    """A date-time read as UTC (naive UTC wall-clock)."""
    parsed = date_service.parse_time(value, UTC, state.now)
    if parsed is None:
        raise Invalid()
    return parsed


def timezone_or_empty(value: Any, state: RequestState) -> str:
    if not isinstance(value, str):
        raise Invalid()
    if value.strip() == "":
        return ""
    canonical = canonical_timezone_name(value)
    if canonical is None:
        raise Invalid()
    return canonical


def post_status(value: Any, state: RequestState) -> str:
    if not isinstance(value, str) or value not in POST_STATUSES:
        raise Invalid()
    return value


def url_or_empty(value: Any, state: RequestState) -> str:
    """``""`` or an absolute http(s) URL (other schemes are refused: see DEVIATIONS)."""
    if not isinstance(value, str):
        raise Invalid()
    url = value.strip()
    if url and not media_service.is_http_url(url):
        raise Invalid()
    return url


async def user_id(value: Any, state: RequestState) -> int:
    number = as_int(value)
    if number is None or number <= 0 or not await user_service.user_exists(state.conn, number):
        raise Invalid()
    return number


async def image(value: Any, state: RequestState) -> ImageRef:
    ref = await media_service.resolve_image(state.conn, value, state.actor)
    if ref is None:
        raise Invalid()
    return ref


def cost(value: Any, state: RequestState) -> list[str]:
    values = normalise_cost_input(value)
    if values is None:
        raise Invalid()
    return values


def term_values(value: Any, state: RequestState) -> list[TermValue]:
    """Categories/tags of a write: ids, slugs or names; ``""``/``[]`` means none."""
    values = split_term_values(value)
    if values is None:
        raise Invalid()
    check_count(values, MAX_TERMS)
    return values


def linked(kind: str, *, allow_csv: bool, inline_args: Sequence[Arg]) -> Parser:
    """Venue/organizer links of a write: ids must exist; inline objects are validated with the
    collection's own create parameters (spec events §4.3)."""

    async def parse(value: Any, state: RequestState) -> list[LinkedItem]:
        if isinstance(value, list) or (allow_csv and isinstance(value, str)):
            check_count(csv_items(value) or [], MAX_LINKED)
        items = parse_linked(value, allow_csv=allow_csv)
        if items is None:
            raise Invalid()
        if await linked_service.missing_ids(state.conn, kind, items):
            raise Invalid()
        parsed: list[LinkedItem] = []
        for item in items:
            if item.data is None:
                parsed.append(item)
                continue
            try:
                params = await parse_args(inline_args, item.data, state)
            except (InvalidParams, MissingParams):
                raise Invalid() from None
            parsed.append(LinkedItem(data={name: params[name] for name in params.sent}))
        return parsed

    return parse


def status_list(value: Any, state: RequestState) -> list[str]:
    """Archive ``status``: one status, a list or CSV; callers who cannot edit may ask for
    ``publish`` only."""
    items = csv_items(value)
    if not items or not all(isinstance(i, str) for i in items):
        raise Invalid()
    statuses = list(dict.fromkeys(items))
    if not posts.status_request_allowed(state.actor, statuses):
        raise Invalid()
    return statuses


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


_password = string("password", max_length=255, allow_empty=False)


def password(value: Any, state: RequestState) -> str:
    return str(_password(value, state))


async def existing_event(value: Any, state: RequestState) -> int:
    """The id of an existing event, in any status (``post_parent``, ``event``, ``post``)."""
    from eventcal.services import events as event_service

    number = positive_int(value, state)
    if await event_service.find_event(state.conn, number) is None:
        raise Invalid()
    return number


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


def forbidden(actor: Actor) -> ApiError:
    """401 for anonymous callers, 403 for authenticated ones (the original's rule)."""
    return posts.forbidden(actor)


def per_page(value: Any, state: RequestState) -> int:
    return clamp_per_page(positive_int(value, state))


_search = non_empty_string("search", max_length=200)


def search(value: Any, state: RequestState) -> str:
    return str(_search(value, state))


def text(name: str, *, max_length: int = 65_535) -> Parser:
    """A text field that may be cleared with ``""``; numbers are taken as their text
    (DEVIATIONS #14: natural JSON is accepted where unambiguous)."""
    as_string = string(name, max_length=max_length)

    def parse(value: Any, state: RequestState) -> str:
        if isinstance(value, int | float) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str):
            raise type_error(name, "string")
        return str(as_string(value, state))

    return parse


PASSWORD_ARG = Arg("password", "The password of a password-protected item", password, type="string")


def post_password_arg(label: str) -> Arg:
    return Arg(
        "post_password",
        f"A password that protects the {label}'s content (never returned; empty removes it)",
        string("post_password", max_length=255),
        type="string",
        location="body",
    )

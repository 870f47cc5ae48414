"""Archive bodies: ``rest_url``/``next_rest_url``/``previous_rest_url``, totals and headers."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from eventcal.http.request import RequestState
from eventcal.http.responses import Reply
from eventcal.services.pagination import Page


def _url(base: str, params: list[tuple[str, str]]) -> str:
    return f"{base}?{urlencode(params)}" if params else base


def link_params(page: Page, state: RequestState) -> list[tuple[str, str]]:
    """The page's filters, plus the language when the request named it as a parameter (the
    path segment, if any, is in the base URL already)."""
    sent = state.query.get("translation_language")
    if isinstance(sent, str) and sent.strip():
        return [*page.link_params, ("translation_language", state.language)]
    return list(page.link_params)


def archive_reply(page: Page, key: str, state: RequestState) -> Reply:
    """The events/venues/organizers archive body (key order of the original) and headers.

    Links carry every filter of the request (DEVIATIONS #9), URL-encoded; the previous link of
    page 2 has no ``page`` parameter, as in the original.
    """
    base_url = f"{state.urls.rest}/{key}/"
    params = link_params(page, state)
    without_page = [(k, v) for k, v in params if k != "page"]
    body: dict[str, Any] = {key: page.items, "rest_url": _url(base_url, params)}
    if page.has_next:
        body["next_rest_url"] = _url(base_url, [*without_page, ("page", str(page.page + 1))])
    if page.has_previous:
        previous = without_page if page.page == 2 else [*without_page, ("page", str(page.page - 1))]
        body["previous_rest_url"] = _url(base_url, previous)
    body["total"] = page.total
    body["total_pages"] = page.total_pages
    return Reply(body, 200, total_headers(page))


def total_headers(page: Page) -> dict[str, str]:
    return {"X-TEC-Total": str(page.total), "X-TEC-TotalPages": str(page.total_pages)}

"""Archive bodies: ``rest_url``/``next_rest_url``/``previous_rest_url``, totals and headers.

Posts and terms answer with different key orders (as the original does); both carry every filter
of the request in their links (DEVIATIONS #9), URL-encoded, and the previous link of page 2 has no
``page`` parameter. (A post archive page past the end is a 404, so its links are only built for
pages that exist.)
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from eventcal.http.request import RequestState
from eventcal.http.responses import Reply
from eventcal.resources.pagination import Page

if TYPE_CHECKING:
    from eventcal.resources.spec import Resource


def _url(base: str, params: list[tuple[str, str]]) -> str:
    """``base?params``, encoded as ``urlencode`` does (each pair once per process: a page's
    three links repeat its filters, and so do the requests of a listing)."""
    return f"{base}?{'&'.join([_pair(name, value) for name, value in params])}" if params else base


@lru_cache(maxsize=1024)
def _pair(name: str, value: str) -> str:
    return urlencode(((name, value),))


def link_params(page: Page, state: RequestState) -> list[tuple[str, str]]:
    """The page's filters, plus the language when the request named it as a parameter (the
    path segment, if any, is in the base URL already)."""
    sent = state.query.get("translation_language")
    if isinstance(sent, str) and sent.strip():
        return [*page.link_params, ("translation_language", state.language)]
    return list(page.link_params)


def _links(page: Page, path: str, state: RequestState) -> dict[str, str]:
    """``rest_url`` and, where they exist, ``next_rest_url`` and ``previous_rest_url``."""
    base_url = f"{state.urls.rest}/{path}/"
    params = link_params(page, state)
    without_page = [(k, v) for k, v in params if k != "page"]
    links = {"rest_url": _url(base_url, params)}
    if page.page < page.total_pages:
        links["next_rest_url"] = _url(base_url, [*without_page, ("page", str(page.page + 1))])
    if page.page > 1:
        previous = without_page if page.page == 2 else [*without_page, ("page", str(page.page - 1))]
        links["previous_rest_url"] = _url(base_url, previous)
    return links


def total_headers(page: Page) -> dict[str, str]:
    return {"X-TEC-Total": str(page.total), "X-TEC-TotalPages": str(page.total_pages)}


def post_archive(page: Page, key: str, state: RequestState, path: str | None = None) -> Reply:
    """The events/venues/organizers archive body, in the original's key order; ``path`` is the
    listing's own route when it is not ``key`` (a series' occurrences)."""
    links = _links(page, path or key, state)
    body: dict[str, Any] = {key: page.items, "rest_url": links["rest_url"]}
    for name in ("next_rest_url", "previous_rest_url"):
        if name in links:
            body[name] = links[name]
    body["total"] = page.total
    body["total_pages"] = page.total_pages
    return Reply(body, 200, total_headers(page))


def term_archive(page: Page, key: str, state: RequestState, path: str | None = None) -> Reply:
    """The categories/tags archive body: its own key order."""
    links = _links(page, path or key, state)
    body: dict[str, Any] = {
        "rest_url": links["rest_url"],
        "total": page.total,
        "total_pages": page.total_pages,
        key: page.items,
    }
    for name in ("next_rest_url", "previous_rest_url"):
        if name in links:
            body[name] = links[name]
    return Reply(body, 200, total_headers(page))


def _sent(query: dict[str, Any], names: set[str]) -> list[tuple[str, str]]:
    """The request's parameters among ``names``, as sent."""
    pairs: list[tuple[str, str]] = []
    for name, value in query.items():
        if name not in names:
            continue
        if isinstance(value, str):
            pairs.append((name, value))
        elif isinstance(value, list):
            pairs += [(f"{name}[]", v) for v in value if isinstance(v, str)]
    return pairs


def format_links(resource: Resource, state: RequestState) -> dict[str, str]:
    """The listing's URLs in the collection's other formats (``ical_url``, ``webcal_url``),
    from the filters as the client sent them: a subscription without dates keeps the
    listing's rolling window instead of the dates of the day it was made."""
    links: dict[str, str] = {}
    names = {a.name for a in resource.listing.args} - {"page", "per_page"}
    params = _sent(state.query, names | {"translation_language"})
    for found in resource.formats:
        url = _url(f"{state.urls.rest}/{resource.collection}.{found.extension}", params)
        for key, scheme in found.list_keys:
            links[key] = f"{scheme}:{url.partition(':')[2]}" if scheme else url
    return links

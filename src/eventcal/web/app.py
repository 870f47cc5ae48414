"""The calendar pages as an ASGI app beside the namespace router.

A page is read in one read transaction, as a visitor, and built once per data version: built
pages share the router's response cache (same keys' rules, same version check), carry an
``ETag`` and answer ``If-None-Match`` with 304. Every page announces the API (``Link`` with
``rel="https://api.w.org/"``, ``X-TEC-API-VERSION``, ``X-TEC-API-ROOT``, ``X-TEC-API-ORIGIN``)
and runs under a strict Content-Security-Policy (no script at all; styles from our own file);
embeds may be framed by the origins of ``EVENTCAL_EMBED_ORIGINS`` only.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from starlette.requests import Request
from starlette.types import Receive, Scope, Send

from eventcal.context import Call
from eventcal.errors import ApiError
from eventcal.http.body import invalid_utf8_names, parse_query
from eventcal.http.conditional import Built, entity_tag, none_match
from eventcal.http.errors import database_error, error_body
from eventcal.http.responses import Outgoing, head_or_get
from eventcal.http.router import Runtime
from eventcal.i18n import LANGUAGES, N_, negotiate, normalize_language
from eventcal.permissions import ANONYMOUS
from eventcal.storage.db import DatabaseUnavailable
from eventcal.timezones import to_local
from eventcal.web import static
from eventcal.web.links import Links, alternates
from eventcal.web.page import page_headers, render_page
from eventcal.web.request import (
    ITEM_REDIRECT,
    PAGE_PATH,
    PageProblem,
    PageRequest,
    bad_value,
    parse,
)
from eventcal.web.views import VIEWS, MenuCache, Page, Shared

log = logging.getLogger("eventcal.web")

SERVER_ERROR = N_("The server could not complete the request. The error was logged.")
HTML_TYPE = "text/html; charset=utf-8"
XML_TYPE = "application/xml; charset=utf-8"


class Pages:
    """ASGI app for ``[/de|/es]/calendar/…`` and the items' ``/event|venue|organizer/{slug}/``."""

    def __init__(self, runtime: Runtime, embed_origins: Sequence[str] = ()) -> None:
        self.runtime = runtime
        self.embed_origins = tuple(embed_origins)
        self.default_language = runtime.site.default_language
        self.menus = MenuCache()

    def handles(self, path: str) -> bool:
        return bool(PAGE_PATH.match(path) or ITEM_REDIRECT.match(path))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        response = await self.respond(request)
        await response(scope, receive, send)

    async def respond(self, request: Request) -> Outgoing:
        path = request.scope["path"]
        query = parse_query(request.scope.get("query_string", b""))
        language, segment = self._language(path, query, request.headers.get("accept-language"))
        page: PageRequest | None = None
        base = ""
        try:
            base = self.runtime.urls_for(request).base
            links = Links(base, segment, default_language=self.default_language)
            if request.method not in ("GET", "HEAD"):
                raise PageProblem(
                    "page_method", N_("Pages are only read."), 405, headers={"Allow": "GET, HEAD"}
                )
            broken = invalid_utf8_names(request.scope.get("query_string", b""))
            if broken:
                raise bad_value(broken[0])
            wanted = query.get("translation_language")
            if wanted is not None and not (isinstance(wanted, str) and normalize_language(wanted)):
                raise bad_value("translation_language")
            redirect = ITEM_REDIRECT.match(path)
            if redirect is not None:
                return self._redirect(links, redirect["kind"], redirect["slug"])
            page = parse(path, query)
            assert page is not None
            feed_language = "" if language == self.default_language else language
            links = Links(base, segment, page.embed, self.default_language, feed_language)
            if page.kind == "static":
                return static.serve(*page.static)
            built = await self._built(request, page, links, language)
        except ApiError as error:
            built = self._problem(error, language, page, Links(base, segment))
        except DatabaseUnavailable as exc:
            log.warning("database unavailable: %s", exc)
            built = self._problem(database_error(exc), language, page, Links(base, segment))
        except Exception:
            log.exception("unhandled error on the page %s", path)
            failed = ApiError("page_error", SERVER_ERROR, 500)
            built = self._problem(failed, language, page, Links(base, segment))
        head = request.method == "HEAD"
        conditional = request.headers.get("if-none-match")
        if built.etag and none_match(conditional, built.etag):
            keep = ("ETag", "Cache-Control", "Vary", "Content-Language", "Link")
            return Outgoing(304, {k: v for k, v in built.headers.items() if k in keep}, b"")
        return head_or_get(built.status, dict(built.headers), built.body, head=head)

    def _language(self, path: str, query: dict[str, Any], accept: str | None) -> tuple[str, str]:
        """``translation_language``, then the path's prefix, then ``Accept-Language``; and
        the prefix the page's links carry (the parameter's language, so that the next page
        keeps it, else the path's)."""
        found = PAGE_PATH.match(path) or ITEM_REDIRECT.match(path)
        segment = (found["lang"] or "").lower() if found else ""
        wanted = query.get("translation_language")
        chosen = normalize_language(wanted) if isinstance(wanted, str) else None
        if chosen:
            segment = chosen
        if segment == self.default_language:
            segment = ""
        header = negotiate(accept) if accept else None
        return chosen or segment or header or self.default_language, segment

    def _redirect(self, links: Links, kind: str, slug: str) -> Outgoing:
        target = {"event": links.event, "venue": links.venue, "organizer": links.organizer}
        location = target[kind.lower()](slug)
        headers = {"Location": location, "Cache-Control": "public, max-age=3600"}
        return Outgoing(301, page_headers(headers, (), embed=False), b"")

    async def _built(
        self, request: Request, page: PageRequest, links: Links, language: str
    ) -> Built:
        runtime = self.runtime
        now = runtime.clock()
        key = (
            "page",
            request.scope["path"],
            request.scope.get("query_string", b""),
            language,
            links.base,
            to_local(now, runtime.site.zone).date(),
        )
        version = await runtime.database.current_version()
        cached = runtime.cache.get(key, version)
        if cached is not None:
            return cached
        # Items are built once per process and revision, as the JSON listings build them (the
        # item cache applies the change log up to ``version`` first: never older than it).
        items = runtime.items
        await items.sync(runtime.database, version)
        urls = runtime.urls_for(request, links.segment)
        async with runtime.database.read() as conn:
            call = Call(conn, ANONYMOUS, runtime.site, urls, now, runtime.registry, language)
            call.items, call.items_epoch = items, items.epoch
            shown: Page = await VIEWS[page.kind](call, page, links, Shared(self.menus, version))
        built = self._finish(shown, page, links, language, request)
        if shown.cacheable:
            runtime.cache.put(key, version, built)
        return built

    def _finish(
        self, shown: Page, page: PageRequest, links: Links, language: str, request: Request
    ) -> Built:
        is_xml = shown.template.endswith(".xml")
        context = self._chrome(shown, page, links, language, request)
        zone = self.runtime.site.timezone_name
        body = render_page(shown.template, language, context, zone).encode()
        headers = {
            "Content-Type": XML_TYPE if is_xml else HTML_TYPE,
            **self._discovery(links, shown.api_root),
            "Content-Language": language,
            "Vary": "Accept-Language",
            "Cache-Control": "public, no-cache",
        }
        etag = entity_tag(body)
        headers["ETag"] = etag
        return Built(200, page_headers(headers, self.embed_origins, embed=page.embed), body, etag)

    def _chrome(
        self, shown: Page, page: PageRequest, links: Links, language: str, request: Request
    ) -> dict[str, Any]:
        """What every page's frame shows: language links, canonical URL, the API's URL."""
        # The language is the alternates' prefix: a ``translation_language`` would override it.
        query = "&".join(
            part
            for part in request.scope.get("query_string", b"").decode("latin-1").split("&")
            if part and part.split("=", 1)[0] != "translation_language"
        )
        tail = request.scope["path"]
        found = PAGE_PATH.match(tail)
        if found is not None and found["lang"]:
            tail = tail[len(found["lang"]) + 1 :]
        here = tail + (f"?{query}" if query else "")
        return {
            **shown.context,
            "links": links,
            "page": page,
            "page_title": shown.title,
            "canonical": shown.canonical,
            "alternates": (
                [(code, shown.alternates[code]) for code in LANGUAGES]
                if shown.alternates
                else alternates(links, here)
            ),
            "languages": LANGUAGES,
            "api_root": shown.api_root,
            "stylesheet": links.static("calendar.css", static.version()),
        }

    def _discovery(self, links: Links, api_root: str) -> dict[str, str]:
        return {
            "Link": f'<{links.rest}/>; rel="https://api.w.org/"',
            "X-TEC-API-VERSION": "v1",
            "X-TEC-API-ROOT": api_root,
            "X-TEC-API-ORIGIN": links.home,
        }

    def _problem(
        self,
        error: ApiError,
        language: str,
        page: PageRequest | None,
        links: Links,
    ) -> Built:
        """A friendly HTML page for a bad value (400), a missing page (404), a database
        outage (503): in the page's language, never JSON."""
        body_json = error_body(error, language)
        params = body_json["data"].get("params")
        details = list(params.values()) if isinstance(params, dict) else []
        context = {
            "status": error.status,
            "message": body_json["message"],
            "details": details,
            "links": links,
            "page": page,
            "page_title": "",
            "canonical": "",
            "alternates": [],
            "languages": LANGUAGES,
            "api_root": "",
            "stylesheet": links.static("calendar.css", static.version()),
        }
        body = render_page("problem.html", language, context).encode()
        headers = {
            "Content-Type": HTML_TYPE,
            **self._discovery(links, f"{links.rest}/"),
            "Content-Language": language,
            "Vary": "Accept-Language",
            "Cache-Control": "no-store",
            **error.headers,
        }
        embed = page is not None and page.embed
        return Built(error.status, page_headers(headers, self.embed_origins, embed=embed), body, "")

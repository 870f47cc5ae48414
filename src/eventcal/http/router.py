"""The namespace router: matching, the original's generic REST behaviour, one transaction per
write request, and the response.

Generic behaviour (spec README §9): trailing slashes ignored, case-insensitive paths, 404
``rest_no_route`` for unknown paths *and* unregistered methods, HEAD as GET without a body,
OPTIONS describing the route, ``_method``/``X-HTTP-Method-Override`` on POST, ``_fields``,
``_envelope``, and an ``Allow`` header listing what the caller may do on the route.
"""

from __future__ import annotations

import functools
import logging
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from starlette.requests import Request
from starlette.types import Receive, Scope, Send

from eventcal import logs
from eventcal.context import NAMESPACE, Site, Urls
from eventcal.errors import ApiError
from eventcal.http.access import ERROR_CODE, USER, log_access
from eventcal.http.args import Arg, Params, parse_args
from eventcal.http.auth import LogIn, authenticate
from eventcal.http.body import invalid_utf8_names, not_utf8, parse_query
from eventcal.http.client import Network
from eventcal.http.conditional import ResponseCache
from eventcal.http.errors import database_error, error_body, internal_error_body, no_route
from eventcal.http.headers import (
    NO_CACHE_HEADERS,
    PUBLIC_CACHE_CONTROL,
    base_url,
    finish_headers,
)
from eventcal.http.headers import request_id as new_request_id
from eventcal.http.negotiation import Negotiated
from eventcal.http.reading import BodyLimits
from eventcal.http.request import Matched, RequestState
from eventcal.http.responses import (
    Outgoing,
    Reply,
    build,
    enveloped_error,
    json_response,
    send,
)
from eventcal.http.writing import serve_change
from eventcal.permissions import ANONYMOUS, Actor
from eventcal.storage.db import Database, DatabaseUnavailable
from eventcal.storage.itemcache import ItemCache, Reads
from eventcal.timezones import to_local

log = logging.getLogger("eventcal.api")

PREFIX = "/" + NAMESPACE
MATCHES_KEPT = 1024
"""Paths whose route :meth:`Router.match` remembers (the least recently used forgotten)."""
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
OVERRIDABLE = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})

Handler = Callable[[RequestState, Params], Awaitable[Reply]]
Prepare = Callable[[dict[str, Any], Actor], Awaitable[dict[str, Any]]]


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One handler group of a route (the original groups POST, PUT and PATCH)."""

    methods: tuple[str, ...]
    handler: Handler
    args: tuple[Arg, ...] = ()
    allowed: Callable[[Actor], bool] = lambda actor: True
    """Type-level permission: decides the ``Allow`` header (per-item checks are in handlers)."""
    summary: str = ""
    responses: dict[int, str] = field(default_factory=dict)
    response_schema: Any = None
    """OpenAPI schema of the success body (a dict, or None for no body)."""
    success_status: int = 200
    writes: bool = False
    cacheable: bool | None = None
    """Its GET responses depend only on the request, the data and the site's date, so they may
    be served from the response cache while the data version is unchanged, or longer with
    ``reports_reads`` (default: GET endpoints; a reply can still opt out with
    ``Reply.cacheable``)."""
    reports_reads: bool = False
    """Its handler names everything its response is built from (``Call.reads``), so an
    anonymous response stays cached until something it read changes, not only while the data
    version stays (``http/conditional.py``): the generic list and item reads."""
    tag: str = ""
    """The OpenAPI tag grouping the operation (its collection)."""
    accepts_files: bool = False
    """Takes file parts in a multipart body (``RequestState.files``); elsewhere a file part
    is refused (400), never silently dropped."""
    prepare: Prepare | None = None
    """Work on a write's parameters before its transaction opens (an upload is validated and
    resized there): ``(parameters, caller) → parameters``."""
    max_body_bytes: int | None = None
    """The largest body it reads, whatever the content type (default: the settings' limit
    for the body's content type, or ``EVENTCAL_MAX_UPLOAD_BYTES`` with ``accepts_files``)."""
    media_type: str | None = None
    """The type of its success body when it is not JSON (``text/calendar``): for OpenAPI."""

    def __post_init__(self) -> None:
        if self.cacheable is None:
            object.__setattr__(self, "cacheable", self.methods == ("GET",))


@dataclass(frozen=True, slots=True)
class Route:
    """A path of the namespace and its endpoints, in the original's registration order."""

    pattern: str
    """The original's route regex relative to the namespace, e.g. ``/events/(?P<id>\\d+)``."""
    endpoints: tuple[Endpoint, ...]
    doc_path: str
    """The OpenAPI path, e.g. ``/events/{id}``."""
    regex: re.Pattern[str] = field(init=False)
    anonymous_allow: str = field(init=False, compare=False)
    """:meth:`allow` for anonymous callers (asked on every request; they are all alike)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "regex", re.compile(f"^{self.pattern}$", re.IGNORECASE))
        object.__setattr__(self, "anonymous_allow", self._allow(ANONYMOUS))

    @property
    def methods(self) -> list[str]:
        return [m for e in self.endpoints for m in e.methods]

    @property
    def has_variables(self) -> bool:
        return "(?P<" in self.pattern

    def endpoint_for(self, method: str) -> Endpoint | None:
        for endpoint in self.endpoints:
            if method in endpoint.methods:
                return endpoint
        return None

    def allow(self, actor: Actor) -> str:
        return self.anonymous_allow if actor.is_anonymous else self._allow(actor)

    def _allow(self, actor: Actor) -> str:
        return ", ".join(m for e in self.endpoints if e.allowed(actor) for m in e.methods)

    def describe(self, state: RequestState) -> dict[str, Any]:
        """The route as the index and OPTIONS show it."""
        data: dict[str, Any] = {
            "namespace": NAMESPACE,
            "methods": self.methods,
            "endpoints": [
                {
                    "methods": list(e.methods),
                    "args": {a.name: a.index_entry(state) for a in e.args} or [],
                }
                for e in self.endpoints
            ],
        }
        if not self.has_variables:
            path = self.pattern.replace("\\", "")  # an escaped dot (``/events\.ics``)
            data["_links"] = {"self": [{"href": f"{state.urls.rest}{path}"}]}
        return data


async def _anonymous_only(login: str, password: str, address: str) -> Actor:
    return ANONYMOUS


@dataclass(slots=True)
class Runtime:
    """What the router needs from the application (built once by the app factory)."""

    database: Database
    site: Site
    public_url: str | None
    clock: Callable[[], datetime] = lambda: datetime.now(UTC)
    limits: BodyLimits = field(default_factory=BodyLimits)
    idempotency_ttl: timedelta = timedelta(hours=24)
    """How long the first response to an ``Idempotency-Key`` is replayed."""
    cache: ResponseCache = field(default_factory=lambda: ResponseCache(32 * 1024 * 1024))
    items: ItemCache = field(default_factory=lambda: ItemCache(0))
    """Built items, kept fresh by the change log (``storage/itemcache.py``)."""
    log_in: LogIn = _anonymous_only
    """Checks HTTP Basic credentials (the accounts domain's, with its brute-force limits)."""
    trusted_proxies: tuple[Network, ...] = ()
    registry: Any = None
    """Every collection (handed to services in each call; the router does not look at it)."""

    _urls: dict[tuple[str, str], Urls] = field(default_factory=dict)

    def urls_for(self, request: Request, segment: str = "") -> Urls:
        """URLs from the public URL (or the request's), with the request's language segment."""
        base = self.public_url or base_url(request.scope)
        urls = self._urls.get((base, segment))
        if urls is None:
            if len(self._urls) > 64:
                self._urls.clear()
            urls = self._urls[(base, segment)] = Urls.build(base, segment)
        return urls


class Router:
    """ASGI app serving the ``cal/events/v1`` namespace."""

    def __init__(self, routes: Sequence[Route], runtime: Runtime) -> None:
        self.routes = tuple(routes)
        self.runtime = runtime
        self._remembered = functools.lru_cache(maxsize=MATCHES_KEPT)(self._first_match)
        """:meth:`_first_match` of the paths matched lately."""

    def match(self, relative: str) -> tuple[Route, dict[str, str]] | None:
        # A client's long path is not worth keeping.
        find = self._remembered if len(relative) <= 200 else self._first_match
        found = find(relative)
        return None if found is None else (found[0], found[1].groupdict())

    def _first_match(self, relative: str) -> tuple[Route, re.Match[str]] | None:
        """The first route whose regex matches (they are tried in registration order)."""
        return next(((r, m) for r in self.routes if (m := r.regex.match(relative))), None)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        started = time.perf_counter()
        rid = new_request_id(request.headers.get("x-request-id"))
        token = logs.request_id.set(rid)
        try:
            response = await self.respond(request)
            response.headers["X-Request-Id"] = rid
            finish_headers(response.headers, request.headers.get("origin"))
            await response(scope, receive, send)
            log_access(request, response.status, started, self.runtime.trusted_proxies)
        finally:
            logs.request_id.reset(token)

    async def respond(self, request: Request) -> Outgoing:
        """The response to a request, errors included, in the request's language."""
        default = self.runtime.site.default_language
        query = parse_query(request.scope.get("query_string", b""))
        envelope = "_envelope" in query
        negotiated, path = Negotiated.start(
            request.scope["path"], request.headers.get("accept-language"), default
        )
        negotiated.choose(query, default)
        try:
            response = await self._dispatch(request, path, query, envelope, negotiated)
        except ApiError as exc:
            request.scope[ERROR_CODE] = exc.code
            return _error_response(exc, envelope, negotiated)
        except DatabaseUnavailable as exc:
            log.warning("database unavailable: %s", exc)
            error = database_error(exc)
            request.scope[ERROR_CODE] = error.code
            return _error_response(error, envelope, negotiated)
        except Exception:
            log.exception("unhandled error on %s %s", request.method, request.scope["path"])
            request.scope[ERROR_CODE] = "internal_server_error"
            body = internal_error_body(negotiated.language)
            return json_response(body, 500, negotiated.headers())
        response.headers.update(negotiated.headers())
        return response

    async def _dispatch(
        self,
        request: Request,
        path: str,
        query: dict[str, Any],
        envelope: bool,
        negotiated: Negotiated,
    ) -> Outgoing:
        matched = await self._match(request, path, query, negotiated)
        if matched.method == "OPTIONS":
            async with self.runtime.database.read() as conn:
                state = matched.state(query, conn, negotiated.language)
                body = matched.route.describe(state)
            built = build(Reply(body), matched.headers, envelope, None, tagged=False)
            return send(built, None, head=False)
        head = matched.method == "HEAD"
        endpoint = matched.route.endpoint_for("GET" if head else matched.method)
        if endpoint is None:
            del matched.headers["Allow"]
            raise _add_headers(no_route(), matched.headers)
        names = invalid_utf8_names(request.scope.get("query_string", b""))
        if names:
            raise _add_headers(not_utf8(names), matched.headers)
        try:
            return await self._serve(
                request, matched, endpoint, query, envelope=envelope, negotiated=negotiated
            )
        except ApiError as exc:
            raise _add_headers(exc, matched.headers) from None

    async def _match(
        self, request: Request, path: str, query: dict[str, Any], negotiated: Negotiated
    ) -> Matched:
        """The route, the method (after overrides), the caller and the base headers."""
        method = request.method.upper()
        if method == "POST":
            override = query.get("_method") or request.headers.get("x-http-method-override")
            if isinstance(override, str) and override.upper() in OVERRIDABLE:
                method = override.upper()
        lowered = path.lower().rstrip("/")
        if not (lowered == PREFIX or lowered.startswith(PREFIX + "/")):
            raise no_route()
        found = self.match(path.rstrip("/")[len(PREFIX) :])
        runtime = self.runtime
        actor = await authenticate(request, runtime.log_in, runtime.trusted_proxies)
        request.scope[USER] = actor.login
        headers = dict(NO_CACHE_HEADERS) if not actor.is_anonymous else {}
        if found is None:
            raise _add_headers(no_route(), headers)
        route, path_params = found
        headers["Allow"] = route.allow(actor)
        urls = runtime.urls_for(request, negotiated.segment)
        now = runtime.clock()
        site = runtime.site
        return Matched(
            route, path_params, method, actor, site, urls, now, headers, runtime.registry
        )

    async def _serve(
        self,
        request: Request,
        matched: Matched,
        endpoint: Endpoint,
        query: dict[str, Any],
        *,
        envelope: bool,
        negotiated: Negotiated,
    ) -> Outgoing:
        """Run a reading endpoint (or answer from the response cache) and build the response."""
        if matched.method not in ("GET", "HEAD"):
            return await serve_change(
                self.runtime,
                request,
                matched,
                endpoint,
                query,
                envelope=envelope,
                negotiated=negotiated,
            )
        runtime = self.runtime
        head = matched.method == "HEAD"
        conditional = request.headers.get("if-none-match")
        key: tuple[Any, ...] | None = None
        version = 0
        items = runtime.items
        if endpoint.cacheable:
            # The version is read before any data, so a body is never older than it; the
            # change log up to it is applied before the cache is asked.
            version = await runtime.database.current_version()
            await items.sync(runtime.database, version)
            if runtime.cache.max_bytes:
                key = _cache_key(request, matched, negotiated.language, runtime.site)
                cached = runtime.cache.get(key, version)
                if cached is not None:
                    return send(cached, conditional, head=head)
        database = runtime.database
        context = database.transaction() if endpoint.writes else database.read()
        async with context as conn:
            state = matched.state(query, conn, negotiated.language)
            call = state.call
            if endpoint.cacheable and not endpoint.writes:
                call.items, call.items_epoch = items, items.epoch
                if (
                    key is not None
                    and endpoint.reports_reads
                    and matched.actor.is_anonymous
                    and items.enabled
                ):
                    call.reads = Reads(items.epoch)
            params = await parse_args(endpoint.args, query, state)
            reply = await endpoint.handler(state, params)
        if matched.actor.is_anonymous:
            matched.headers["Cache-Control"] = PUBLIC_CACHE_CONTROL
        built = build(reply, matched.headers, envelope, query.get("_fields"), tagged=True)
        if key is not None and reply.cacheable and built.status == 200:
            runtime.cache.put(key, version, built, call.reads)
        return send(built, conditional, head=head)


def _error_response(error: ApiError, envelope: bool, negotiated: Negotiated) -> Outgoing:
    body = error_body(error, negotiated.language)
    if envelope:
        wrapped = enveloped_error(body, error.status, error.headers)
        return json_response(wrapped, 200, negotiated.headers())
    return json_response(body, error.status, {**error.headers, **negotiated.headers()})


def _cache_key(request: Request, matched: Matched, language: str, site: Site) -> tuple[Any, ...]:
    """What a cached GET response depends on besides the data."""
    return (
        matched.route.pattern,
        request.scope["path"],
        request.scope.get("query_string", b""),
        language,
        matched.urls.rest,
        matched.actor.user_id,
        to_local(matched.now, site.zone).date(),
    )


def _add_headers(error: ApiError, headers: dict[str, str]) -> ApiError:
    error.headers = {**headers, **error.headers}
    return error

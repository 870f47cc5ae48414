"""The namespace router: matching, the original's generic REST behaviour, one transaction per
write request, and the response.

Generic behaviour (spec README §9): trailing slashes ignored, case-insensitive paths, 404
``rest_no_route`` for unknown paths *and* unregistered methods, HEAD as GET without a body,
OPTIONS describing the route, ``_method``/``X-HTTP-Method-Override`` on POST, ``_fields``,
``_envelope``, and an ``Allow`` header listing what the caller may do on the route.
"""

from __future__ import annotations

import base64
import binascii
import functools
import logging
import re
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import orjson
from starlette.requests import Request
from starlette.types import Receive, Scope, Send

from eventcal import logs
from eventcal.api.args import Arg, Params, parse_args
from eventcal.api.caching import Built, ResponseCache, entity_tag, none_match
from eventcal.api.client import client_address
from eventcal.api.errors import error_body, internal_error_body, no_route
from eventcal.api.params import (
    BodyError,
    invalid_utf8_names,
    is_form_type,
    is_json_type,
    merge_sources,
    parse_json_body,
    parse_query,
    php_pairs_to_dict,
)
from eventcal.api.request import RequestState
from eventcal.errors import ApiError, InvalidParams, ParamError, ServiceUnavailable
from eventcal.i18n import LANGUAGES, N_, negotiate, normalize_language
from eventcal.services import users as user_service
from eventcal.services.context import NAMESPACE, Site, Urls
from eventcal.services.permissions import ANONYMOUS, Actor
from eventcal.services.throttle import DEFAULT_POLICY, LoginPolicy
from eventcal.storage.db import Database, DatabaseUnavailable
from eventcal.timezones import to_local

log = logging.getLogger("eventcal.api")
access_log = logging.getLogger(logs.ACCESS)

PREFIX = "/" + NAMESPACE
LANGUAGE_SEGMENT = re.compile(
    "^/(" + "|".join(LANGUAGES) + ")(?=/" + re.escape(NAMESPACE) + "(/|$))", re.IGNORECASE
)
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
OVERRIDABLE = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})
JSON_TYPE = "application/json; charset=UTF-8"
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    # A JSON API is never a page: no framing, no active content, no referrer from it.
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
}
BASE_HEADERS = {
    **SECURITY_HEADERS,
    # The original does not expose X-TEC-Total* or ETag: browsers on other origins could not
    # read the totals, nor send If-Match/If-None-Match without these in the allowed headers.
    "Access-Control-Expose-Headers": (
        "X-WP-Total, X-WP-TotalPages, Link, X-TEC-Total, X-TEC-TotalPages, ETag"
    ),
    "Access-Control-Allow-Headers": (
        "Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type, "
        "If-Match, If-None-Match, X-HTTP-Method-Override"
    ),
}
CORS_METHODS = "OPTIONS, GET, POST, PUT, PATCH, DELETE"
_ORIGIN = re.compile(r"null|[A-Za-z][A-Za-z0-9+.-]*://[A-Za-z0-9.\-\[\]:]+", re.ASCII)
"""``Origin`` values echoed by CORS: ``null`` or ``scheme://host[:port]`` (nothing else)."""
ENVELOPE_HEADERS = ("Allow", "X-TEC-Total", "X-TEC-TotalPages", "Location", "Retry-After")
PUBLIC_CACHE_CONTROL = "public, no-cache"
"""Anonymous reads: any cache may keep them but must revalidate (``ETag``) before reuse."""
NO_CACHE_HEADERS = {
    "Expires": "Wed, 11 Jan 1984 05:00:00 GMT",
    "Cache-Control": "no-cache, must-revalidate, max-age=0, no-store, private",
}


@dataclass(slots=True)
class Reply:
    """What a handler returns."""

    body: Any
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    cacheable: bool = True
    """False when the body depends on the present moment beyond the site's date (relative date
    filters, "upcoming" filters): such responses are not kept in the response cache."""
    revision: int | None = None
    """The revision of the one item the body shows (its ``ETag`` then names it: If-Match)."""


Handler = Callable[[RequestState, Params], Awaitable[Reply]]


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
    be served from the response cache while the data version is unchanged (default: GET
    endpoints; a reply can still opt out with ``Reply.cacheable``)."""

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

    def __post_init__(self) -> None:
        object.__setattr__(self, "regex", re.compile(f"^{self.pattern}$", re.IGNORECASE))

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
        return ", ".join(m for e in self.endpoints if e.allowed(actor) for m in e.methods)

    def describe(self, state: RequestState, urls: Urls) -> dict[str, Any]:
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
            data["_links"] = {"self": [{"href": f"{urls.rest}{self.pattern}"}]}
        return data


class BodyTooLarge(ApiError):
    status = 413


@dataclass(slots=True)
class Services:
    """What the router needs from the application."""

    database: Database
    site: Site
    public_url: str | None
    clock: Callable[[], datetime] = lambda: datetime.now(UTC)
    max_body_bytes: int = 1_048_576
    cache: ResponseCache = field(default_factory=lambda: ResponseCache(32 * 1024 * 1024))
    login_policy: LoginPolicy = DEFAULT_POLICY
    """Brute-force protection of HTTP Basic logins."""

    _urls: dict[tuple[str, str], Urls] = field(default_factory=dict)

    def urls_for(self, request: Request, segment: str = "") -> Urls:
        """URLs from the public URL (or the request's), with the request's language segment."""
        base = self.public_url or _base_url(request.scope)
        urls = self._urls.get((base, segment))
        if urls is None:
            if len(self._urls) > 64:
                self._urls.clear()
            urls = self._urls[(base, segment)] = Urls.build(base, segment)
        return urls


@dataclass(slots=True)
class Negotiated:
    """The request's language, as far as it is known (errors are rendered in it)."""

    language: str
    segment: str = ""
    """The language path segment the request came in with (``/de/cal/events/v1/…``)."""
    header: str | None = None
    """The language ``Accept-Language`` chose, if any."""

    def choose(self, raw: Mapping[str, Any], default: str) -> str:
        """Parameter, then path segment, then ``Accept-Language``, then the site default. An
        invalid parameter chooses nothing (its parser reports it)."""
        value = raw.get("translation_language")
        chosen = normalize_language(value) if isinstance(value, str) and value.strip() else None
        self.language = chosen or self.segment or self.header or default
        return self.language

    def headers(self) -> dict[str, str]:
        return {"Content-Language": self.language, "Vary": "Accept-Language"}


class Router:
    """ASGI app serving the ``cal/events/v1`` namespace."""

    def __init__(self, routes: Sequence[Route], services: Services) -> None:
        self.routes = tuple(routes)
        self.services = services

    def match(self, relative: str) -> tuple[Route, dict[str, str]] | None:
        for route in self.routes:
            found = route.regex.match(relative)
            if found:
                return route, found.groupdict()
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        started = time.perf_counter()
        rid = _request_id(request.headers.get("x-request-id"))
        token = logs.request_id.set(rid)
        try:
            response = await self.respond(request)
            response.headers["X-Request-Id"] = rid
            _finish_headers(response.headers, request.headers.get("origin"))
            await response(scope, receive, send)
            if access_log.isEnabledFor(logging.INFO):
                method, path, status = request.method, request.scope["path"], response.status
                ms = round((time.perf_counter() - started) * 1000, 2)
                line = logs.access_line(method, path, status, ms)
                access_log.info(
                    "request",
                    extra={
                        "method": method,
                        "path": path,
                        "status": status,
                        "ms": ms,
                        "json_line": line,
                    },
                )
        finally:
            logs.request_id.reset(token)

    async def respond(self, request: Request) -> Outgoing:
        default = self.services.site.default_language
        query = parse_query(request.scope.get("query_string", b""))
        envelope = "_envelope" in query
        path = request.scope["path"]
        segment = LANGUAGE_SEGMENT.match(path)
        accept = request.headers.get("accept-language")
        negotiated = Negotiated(
            language=default,
            segment=segment.group(1).lower() if segment else "",
            header=negotiate(accept) if accept else None,
        )
        if segment:
            path = path[segment.end() :]
        negotiated.choose(query, default)
        try:
            response = await self._dispatch(request, path, query, envelope, negotiated)
        except ApiError as exc:
            body = error_body(exc, negotiated.language)
            if envelope:
                inner = {k: v for k, v in exc.headers.items() if k in ENVELOPE_HEADERS}
                return _json_response(
                    {"body": body, "status": exc.status, "headers": inner},
                    200,
                    negotiated.headers(),
                )
            return _json_response(body, exc.status, {**exc.headers, **negotiated.headers()})
        except DatabaseUnavailable:
            log.exception("database unavailable")
            error = ServiceUnavailable(
                "db_unavailable",
                "The database is unavailable. Try again shortly.",
                headers={"Retry-After": "5"},
            )
            return _json_response(
                error_body(error, negotiated.language),
                503,
                {**error.headers, **negotiated.headers()},
            )
        except Exception:
            log.exception("unhandled error on %s %s", request.method, request.scope["path"])
            return _json_response(
                internal_error_body(negotiated.language), 500, negotiated.headers()
            )
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
        services = self.services
        method = request.method.upper()
        if method == "POST":
            override = query.get("_method") or request.headers.get("x-http-method-override")
            if isinstance(override, str) and override.upper() in OVERRIDABLE:
                method = override.upper()

        lowered = path.lower().rstrip("/")
        if not (lowered == PREFIX or lowered.startswith(PREFIX + "/")):
            raise no_route()
        matched = self.match(path.rstrip("/")[len(PREFIX) :])

        actor = await self._authenticate(request)
        headers = dict(NO_CACHE_HEADERS) if not actor.is_anonymous else {}
        if matched is None:
            raise _add_headers(no_route(), headers)
        route, path_params = matched
        urls = services.urls_for(request, negotiated.segment)
        now = services.clock()
        headers["Allow"] = route.allow(actor)

        if method == "OPTIONS":
            async with services.database.read() as conn:
                state = self._state(
                    method=method,
                    path_params=path_params,
                    raw=query,
                    actor=actor,
                    urls=urls,
                    now=now,
                    conn=conn,
                    language=negotiated.language,
                )
                body = route.describe(state, urls)
            return self._finish(Reply(body), headers, envelope, None, head=False)

        head = method == "HEAD"
        endpoint = route.endpoint_for("GET" if head else method)
        if endpoint is None:
            del headers["Allow"]
            raise _add_headers(no_route(), headers)
        not_utf8 = invalid_utf8_names(request.scope.get("query_string", b""))
        if not_utf8:
            raise _add_headers(_not_utf8(not_utf8), headers)
        reading = method in ("GET", "HEAD")
        conditional = request.headers.get("if-none-match") if reading else None
        key: tuple[Any, ...] | None = None
        version = 0
        try:
            raw = query
            if method in BODY_METHODS:
                raw = merge_sources(*await self._read_body(request), query)
                negotiated.choose(raw, services.site.default_language)
            database = services.database
            if reading and endpoint.cacheable:
                # The version is read before any data, so a body is never older than it.
                version = await database.current_version()
                key = (
                    route.pattern,
                    path,
                    request.scope.get("query_string", b""),
                    negotiated.language,
                    urls.rest,
                    actor.user_id,
                    to_local(now, services.site.zone).date(),
                )
                cached = services.cache.get(key, version)
                if cached is not None:
                    return _send(cached, conditional, head=head)
            context = database.transaction() if endpoint.writes else database.read()
            async with context as conn:
                state = self._state(
                    method=method,
                    path_params=path_params,
                    raw=raw,
                    actor=actor,
                    urls=urls,
                    now=now,
                    conn=conn,
                    language=negotiated.language,
                )
                if not reading:
                    state.if_match = request.headers.get("if-match")
                params = await parse_args(endpoint.args, raw, state)
                reply = await endpoint.handler(state, params)
        except ApiError as exc:
            raise _add_headers(exc, headers) from None
        if reading and actor.is_anonymous:
            headers["Cache-Control"] = PUBLIC_CACHE_CONTROL
        built = _build(
            reply,
            headers,
            envelope,
            query.get("_fields"),
            tagged=reading or reply.revision is not None,
        )
        if key is not None and reply.cacheable and built.status == 200:
            services.cache.put(key, version, built)
        return _send(built, conditional, head=head)

    def _state(
        self,
        *,
        method: str,
        path_params: dict[str, str],
        raw: dict[str, Any],
        actor: Actor,
        urls: Urls,
        now: datetime,
        conn: Any,
        language: str,
    ) -> RequestState:
        return RequestState(
            method=method,
            path_params=path_params,
            query=raw,
            actor=actor,
            site=self.services.site,
            urls=urls,
            now=now,
            conn=conn,
            language=language,
        )

    def _finish(
        self, reply: Reply, headers: dict[str, str], envelope: bool, fields: Any, *, head: bool
    ) -> Outgoing:
        return _send(_build(reply, headers, envelope, fields, tagged=False), None, head=head)

    async def _authenticate(self, request: Request) -> Actor:
        header = request.headers.get("authorization")
        if not header or header[:6].lower() != "basic ":
            return ANONYMOUS
        try:
            decoded = base64.b64decode(header[6:].strip(), validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            return ANONYMOUS
        login, sep, password = decoded.partition(":")
        if not sep:
            return ANONYMOUS
        policy = self.services.login_policy
        user = await user_service.log_in(
            self.services.database,
            login,
            password,
            address=client_address(request, policy.trusted_proxies),
            now=self.services.clock(),
            policy=policy,
        )
        return user.actor()

    async def _read_body(self, request: Request) -> tuple[dict[str, Any], dict[str, Any]]:
        """(JSON params, form params) of the body; 413 beyond the size limit."""
        limit = self.services.max_body_bytes
        declared = request.headers.get("content-length")
        if declared and declared.isascii() and declared.isdigit() and int(declared) > limit:
            raise _too_large(limit)
        content_type = request.headers.get("content-type", "")
        if content_type.lower().startswith("multipart/form-data"):
            async with request.form(max_files=10, max_fields=1000) as form:
                pairs = [(k, v) for k, v in form.multi_items() if isinstance(v, str)]
            return {}, php_pairs_to_dict(pairs)
        chunks: list[bytes] = []
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise _too_large(limit)
            chunks.append(chunk)
        body = b"".join(chunks)
        if is_json_type(content_type):
            try:
                return parse_json_body(body), {}
            except BodyError as exc:
                error = ApiError(
                    "rest_invalid_json",
                    "Invalid JSON body passed.",
                    400,
                    data={"json_error_code": 4, "json_error_message": "Syntax error"},
                )
                raise error from exc
        if is_form_type(content_type):
            not_utf8 = invalid_utf8_names(body)
            if not_utf8:
                raise _not_utf8(not_utf8)
            return {}, parse_query(body)
        return {}, {}


_SAFE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")


def _request_id(given: str | None) -> str:
    """The client's ``X-Request-Id`` when it is a plain token (a load balancer's), else new."""
    if given and _SAFE_REQUEST_ID.match(given):
        return given
    return uuid.uuid4().hex


def _too_large(limit: int) -> ApiError:
    return BodyTooLarge(
        "rest_request_too_large",
        "The request body is larger than {limit} bytes.",
        413,
        limit=limit,
    )


def _not_utf8(names: Sequence[str]) -> InvalidParams:
    return InvalidParams({name: ParamError(N_("{param} is not valid UTF-8.")) for name in names})


def _finish_headers(headers: dict[str, str], origin: str | None) -> None:
    """What every response carries, 304 and errors included: the security headers, and CORS
    as WordPress sends it (``rest_send_cors_headers``): the caller's ``Origin`` echoed with the
    methods and credentials allowed, and ``Vary: Origin`` so that caches keep them apart."""
    for name, value in BASE_HEADERS.items():
        headers.setdefault(name, value)
    vary = headers.get("Vary")
    headers["Vary"] = f"{vary}, Origin" if vary else "Origin"
    if origin and _ORIGIN.fullmatch(origin):
        headers["Access-Control-Allow-Origin"] = origin
        headers["Access-Control-Allow-Methods"] = CORS_METHODS
        headers["Access-Control-Allow-Credentials"] = "true"


def _add_headers(error: ApiError, headers: dict[str, str]) -> ApiError:
    error.headers = {**headers, **error.headers}
    return error


class Outgoing:
    """A response ready to send: status, headers (``dict``, so callers may add some) and body.
    Sent as two ASGI messages with headers encoded once, which is all a JSON API needs."""

    __slots__ = ("body", "headers", "status")

    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    @property
    def status_code(self) -> int:
        return self.status

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        raw = [(b"content-length", str(len(self.body)).encode())]
        raw.extend((_header_name(k), v.encode("latin-1")) for k, v in self.headers.items())
        await send({"type": "http.response.start", "status": self.status, "headers": raw})
        await send({"type": "http.response.body", "body": self.body})


@functools.lru_cache(maxsize=256)
def _header_name(name: str) -> bytes:
    """A header name as sent (lower case, encoded): our responses use a dozen names."""
    return name.lower().encode("latin-1")


def _json_response(
    body: Any, status: int, headers: dict[str, str], *, head: bool = False
) -> Outgoing:
    content = b"" if head else orjson.dumps(body)
    return Outgoing(status, {**BASE_HEADERS, "Content-Type": JSON_TYPE, **headers}, content)


def _base_url(scope: Scope) -> str:
    """``scheme://host[:port]`` of the request (its ``Host`` header, else the server address)."""
    host = ""
    for name, value in scope.get("headers", ()):
        if name == b"host":
            host = value.decode("latin-1")
            break
    if not host:
        server = scope.get("server")
        host = f"{server[0]}:{server[1]}" if server else "localhost"
    return f"{scope.get('scheme', 'http')}://{host}{scope.get('root_path', '')}".rstrip("/")


def _build(
    reply: Reply, headers: dict[str, str], envelope: bool, fields: Any, *, tagged: bool
) -> Built:
    """The response of a handler's reply: ``_fields`` and ``_envelope`` applied, JSON encoded,
    and (for reads that succeeded) its entity tag."""
    body = reply.body
    if fields is not None and 200 <= reply.status < 300:
        body = filter_fields(body, fields)
    all_headers = {**headers, **reply.headers}
    status = reply.status
    if envelope:
        envelope_headers = {"Allow": headers.get("Allow", ""), **reply.headers}
        body = {"body": body, "status": reply.status, "headers": envelope_headers}
        status = 200
    content = orjson.dumps(body)
    etag = entity_tag(content, reply.revision) if tagged and 200 <= status < 300 else ""
    if etag:
        all_headers["ETag"] = etag
    return Built(status, all_headers, content, etag)


NOT_MODIFIED_HEADERS = ("ETag", "Cache-Control", "Expires", "Vary", "Content-Language")


def _send(built: Built, conditional: str | None, *, head: bool) -> Outgoing:
    """The response for a built body: 304 when ``If-None-Match`` names it."""
    if built.etag and none_match(conditional, built.etag):
        kept = {k: v for k, v in built.headers.items() if k in NOT_MODIFIED_HEADERS}
        return Outgoing(304, kept, b"")
    headers = {**BASE_HEADERS, "Content-Type": JSON_TYPE, **built.headers}
    return Outgoing(built.status, headers, b"" if head else built.body)


def filter_fields(body: Any, fields: Any) -> Any:
    """``_fields=a,b,c.d``: keep only the listed keys (dot paths select nested keys)."""
    names = [
        f.strip()
        for f in (fields if isinstance(fields, list) else str(fields).split(","))
        if str(f).strip()
    ]
    if not names:
        return body
    if isinstance(body, list):
        return [filter_fields(item, names) for item in body]
    if not isinstance(body, dict):
        return body
    result: dict[str, Any] = {}
    for name in names:
        head, _, rest = str(name).partition(".")
        if head not in body:
            continue
        if not rest:
            result[head] = body[head]
        elif isinstance(body[head], dict):
            nested = filter_fields(body[head], [rest])
            existing = result.get(head)
            result[head] = {**existing, **nested} if isinstance(existing, dict) else nested
    return result

"""Headers every response carries: security headers, CORS as WordPress sends it, the request id,
and the cache-control rules of the original; the base URL a request's ``Host`` header names."""

from __future__ import annotations

import functools
import random
import re

from starlette.types import Scope

from eventcal.errors import ApiError

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
        "X-WP-Total, X-WP-TotalPages, Link, X-TEC-Total, X-TEC-TotalPages, ETag, "
        "Idempotent-Replayed"
    ),
    "Access-Control-Allow-Headers": (
        "Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type, "
        "If-Match, If-None-Match, X-HTTP-Method-Override, Idempotency-Key"
    ),
}
CORS_METHODS = "OPTIONS, GET, POST, PUT, PATCH, DELETE"
_ORIGIN = re.compile(r"null|[A-Za-z][A-Za-z0-9+.-]*://[A-Za-z0-9.\-\[\]:]+", re.ASCII)
"""``Origin`` values echoed by CORS: ``null`` or ``scheme://host[:port]`` (nothing else)."""

PUBLIC_CACHE_CONTROL = "public, no-cache"
"""Anonymous reads: any cache may keep them but must revalidate (``ETag``) before reuse."""
NO_CACHE_HEADERS = {
    "Expires": "Wed, 11 Jan 1984 05:00:00 GMT",
    "Cache-Control": "no-cache, must-revalidate, max-age=0, no-store, private",
}
"""What the original sends to authenticated callers."""


def finish_headers(headers: dict[str, str], origin: str | None) -> None:
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


_HOST = re.compile(
    r"(?:[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,251}[A-Za-z0-9_.])?|\[[0-9A-Fa-f:.]{2,45}\])"
    r"(?::[0-9]{1,5})?",
    re.ASCII,
)
"""``host[:port]``: a DNS name (underscores allowed, as container names have them), an IPv4
address or a bracketed IPv6 address, at most 253 characters before the port."""


@functools.lru_cache(maxsize=64)
def valid_host(host: str) -> bool:
    """A ``Host`` header the service may build its URLs from (it is echoed in every link)."""
    return len(host) <= 261 and _HOST.fullmatch(host) is not None


_SAFE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")


def request_id(given: str | None) -> str:
    """The client's ``X-Request-Id`` when it is a plain token (a load balancer's), else new."""
    if given and _SAFE_REQUEST_ID.match(given):
        return given
    # 128 random bits as 32 hex digits, like a UUID4's hex without building a UUID. From the
    # process's generator, seeded from the system's randomness (again in a forked worker):
    # ``os.urandom`` was a system call per request, and an id need not be secret.
    return f"{random.getrandbits(128):032x}"


def base_url(scope: Scope) -> str:
    """``scheme://host[:port]`` of the request (its ``Host`` header, else the server address).

    The header is the client's to write and ends up in every link of the answer, so it must
    be a plain ``host[:port]`` (400 otherwise); ``EVENTCAL_PUBLIC_URL`` avoids reading it."""
    host = ""
    for name, value in scope.get("headers", ()):
        if name == b"host":
            host = value.decode("latin-1")
            if host and not valid_host(host):
                raise ApiError(
                    "rest_invalid_host",
                    "The Host header is not a valid host name (host or host:port).",
                    400,
                )
            break
    if not host:
        server = scope.get("server")
        host = f"{server[0]}:{server[1]}" if server else "localhost"
    return f"{scope.get('scheme', 'http')}://{host}{scope.get('root_path', '')}".rstrip("/")

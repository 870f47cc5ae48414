"""The interactive API reference: Swagger UI over our OpenAPI document (``GET {ns}/doc/ui``).

Swagger UI's files come from a Python package (swagger-ui-bundle-v2), so ``make serve`` needs
nothing but Python, and they are served by us under a path naming their version: browsers
keep them for a year, and an upgrade changes their URLs. Our own two files (the script that
starts Swagger UI, and a small stylesheet) are named by a hash of their content. The page runs
under a Content-Security-Policy without inline scripts or styles. Unknown paths under the page
answer the namespace's ``rest_no_route`` 404, like any unknown route.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import logging
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import PurePosixPath
from urllib.parse import urlsplit

import orjson
from starlette.types import Receive, Scope, Send

from eventcal.context import NAMESPACE
from eventcal.http.errors import error_body, internal_error_body, no_route
from eventcal.http.headers import SECURITY_HEADERS
from eventcal.i18n import LANGUAGES, negotiate

log = logging.getLogger("eventcal.http")

_PATH = re.compile(
    "^(?:/(" + "|".join(LANGUAGES) + "))?/" + re.escape(NAMESPACE) + "/doc/ui(/.*)?$",
    re.IGNORECASE,
)
"""``[/de]/cal/events/v1/doc/ui[/…]``: the page (with or without a trailing slash) and its files."""

VENDOR_FILES = frozenset(
    {"swagger-ui-bundle.js", "swagger-ui.css", "favicon-32x32.png", "favicon-16x16.png"}
)
"""The files of the Swagger UI distribution that the page uses (nothing else is served)."""
OWN_FILES = frozenset({"doc-ui.js", "doc-ui.css"})
"""Our files beside this module in ``static/``."""
CONTENT_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".png": "image/png",
}
ASSET_CACHE_CONTROL = "public, max-age=31536000, immutable"
"""Asset URLs change with their content (version or hash in the path), so they never go stale."""


@dataclass(frozen=True, slots=True)
class Asset:
    """A file as served: its body, the body gzipped (text only), its type."""

    body: bytes
    gzipped: bytes | None
    content_type: str


@cache
def _vendor_dir() -> tuple[str, resources.abc.Traversable]:
    """``("swagger-ui-5.31.0", its folder)``: the package holds one version."""
    vendor = resources.files("swagger_ui_bundle") / "vendor"
    (folder,) = (entry for entry in vendor.iterdir() if entry.name.startswith("swagger-ui-"))
    return folder.name, folder


def _own_dir() -> resources.abc.Traversable:
    return resources.files("eventcal.http") / "static"


@cache
def own_version() -> str:
    """``eventcal-<hash>``: names the current content of our files."""
    digest = hashlib.sha256()
    for name in sorted(OWN_FILES):
        digest.update((_own_dir() / name).read_bytes())
    return "eventcal-" + digest.hexdigest()[:12]


def asset_folders() -> dict[str, tuple[resources.abc.Traversable, frozenset[str]]]:
    """The asset folders as named in URLs, with the files each one serves."""
    vendor_name, vendor = _vendor_dir()
    return {vendor_name: (vendor, VENDOR_FILES), own_version(): (_own_dir(), OWN_FILES)}


def page_csp(public_url: str | None) -> str:
    """The page's policy: scripts, styles and images only from us (images also ``data:``, which
    Swagger UI's stylesheet uses for its icons); requests only to us, or to the configured public
    URL where "Try it out" sends them; no framing, no ``<base>``, forms only to us."""
    connect = "'self'"
    if public_url:
        parts = urlsplit(public_url)
        if parts.scheme and parts.netloc:
            connect += f" {parts.scheme}://{parts.netloc}"
    return (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        f"connect-src {connect}; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )


@cache
def page(trailing_slash: bool) -> bytes:
    """The HTML page. Its URLs are relative, so the page works under any language segment or
    proxy prefix: ``…/doc/ui`` fetches ``…/doc`` and ``…/doc/ui/assets/…``."""
    here = "" if trailing_slash else "ui/"
    up = "../../" if trailing_slash else "../"
    vendor = f"{here}assets/{_vendor_dir()[0]}"
    own = f"{here}assets/{own_version()}"
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>eventcal REST API reference</title>
<link rel="icon" type="image/png" sizes="32x32" href="{vendor}/favicon-32x32.png">
<link rel="icon" type="image/png" sizes="16x16" href="{vendor}/favicon-16x16.png">
<link rel="stylesheet" href="{vendor}/swagger-ui.css">
<link rel="stylesheet" href="{own}/doc-ui.css">
<script src="{vendor}/swagger-ui-bundle.js" defer></script>
<script src="{own}/doc-ui.js" defer></script>
</head>
<body>
<main id="swagger-ui" data-spec-url="{up}doc"></main>
</body>
</html>
""".encode()


@cache
def _load(folder_name: str, name: str) -> Asset:
    folder, _ = asset_folders()[folder_name]
    body = (folder / name).read_bytes()
    content_type = CONTENT_TYPES[PurePosixPath(name).suffix]
    compressible = content_type.startswith("text/")
    gzipped = gzip.compress(body, mtime=0) if compressible else None
    if gzipped is not None and len(gzipped) >= len(body):
        gzipped = None
    return Asset(body, gzipped, content_type)


async def load_asset(folder_name: str, name: str) -> Asset | None:
    """The asset at ``assets/<folder_name>/<name>``, or None. Read and compressed once per
    process, off the event loop (the Swagger UI bundle is 1.5 MB)."""
    known = asset_folders().get(folder_name)
    if known is None or name not in known[1]:
        return None
    return await asyncio.to_thread(_load, folder_name, name)


class DocsUi:
    """ASGI handler of ``[/{lang}]/cal/events/v1/doc/ui`` and everything below it."""

    def __init__(self, *, default_language: str, public_url: str | None) -> None:
        self.default_language = default_language
        self.csp = page_csp(public_url)
        asset_folders()  # a missing package fails here, at start-up, not on the first visit

    @staticmethod
    def handles(path: str) -> bool:
        return _PATH.match(path) is not None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = _PATH.match(scope["path"])
        assert found is not None, "dispatched only when handles() said so"
        segment = found.group(1)
        try:
            status, headers, body = await self._respond(
                scope, segment, (found.group(2) or "").lower()
            )
        except Exception:
            log.exception("unhandled error on %s %s", scope["method"], scope["path"])
            language = self._language(scope, segment)
            status, headers = 500, _json_headers(language)
            body = orjson.dumps(internal_error_body(language))
        await _send(send, status, headers, body, head=scope["method"].upper() == "HEAD")

    async def _respond(
        self, scope: Scope, segment: str | None, rest: str
    ) -> tuple[int, dict[str, str], bytes]:
        """Status, headers and body for ``rest``, the lower-cased path after ``doc/ui``."""
        if scope["method"].upper() in ("GET", "HEAD"):
            if rest in ("", "/"):
                headers = {
                    "Content-Type": "text/html; charset=utf-8",
                    "Cache-Control": "no-cache",
                    "Content-Security-Policy": self.csp,
                }
                return 200, headers, page(rest == "/")
            parts = rest.split("/")
            if len(parts) == 4 and parts[1] == "assets":
                asset = await load_asset(parts[2], parts[3])
                if asset is not None:
                    return 200, *_asset_response(asset, _accepts_gzip(scope))
        # The namespace's 404, in the language of the segment or of Accept-Language.
        language = self._language(scope, segment)
        return 404, _json_headers(language), orjson.dumps(error_body(no_route(), language))

    def _language(self, scope: Scope, segment: str | None) -> str:
        accept = _header(scope, b"accept-language")
        return (
            (segment.lower() if segment else None)
            or (negotiate(accept) if accept else None)
            or self.default_language
        )


def _json_headers(language: str) -> dict[str, str]:
    return {
        "Content-Type": "application/json; charset=UTF-8",
        "Cache-Control": "no-store",
        "Content-Language": language,
        "Vary": "Accept-Language",
    }


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _accepts_gzip(scope: Scope) -> bool:
    """Whether ``Accept-Encoding`` names gzip with a weight above 0."""
    for item in (_header(scope, b"accept-encoding") or "").split(","):
        coding, *params = item.split(";")
        if coding.strip().lower() != "gzip":
            continue
        weight = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        return weight > 0
    return False


def _asset_response(asset: Asset, gzip_ok: bool) -> tuple[dict[str, str], bytes]:
    headers = {"Content-Type": asset.content_type, "Cache-Control": ASSET_CACHE_CONTROL}
    if asset.gzipped is None:
        return headers, asset.body
    headers["Vary"] = "Accept-Encoding"
    if not gzip_ok:
        return headers, asset.body
    headers["Content-Encoding"] = "gzip"
    return headers, asset.gzipped


async def _send(
    send: Send, status: int, headers: dict[str, str], body: bytes, *, head: bool
) -> None:
    """Send a response with the namespace's security headers (``headers`` may override them:
    the page has its own Content-Security-Policy)."""
    merged = {**SECURITY_HEADERS, **headers, "Content-Length": str(len(body))}
    raw = [(name.lower().encode(), value.encode("latin-1")) for name, value in merged.items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": b"" if head else body})

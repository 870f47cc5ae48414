"""The pages' own files (``static/``), served under a path naming a hash of their content, so
browsers keep them for a year and a change of content changes their URL."""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources

from eventcal.http.responses import Outgoing
from eventcal.web.page import page_headers

FILES = {"calendar.css": "text/css; charset=utf-8"}
IMMUTABLE = "public, max-age=31536000, immutable"


@cache
def _content(name: str) -> bytes:
    return (resources.files("eventcal.web") / "static" / name).read_bytes()


@cache
def version() -> str:
    digest = hashlib.sha256()
    for name in sorted(FILES):
        digest.update(_content(name))
    return digest.hexdigest()[:12]


def serve(wanted_version: str, name: str) -> Outgoing:
    """The file, or a plain 404 (an old version's URL names content we no longer have)."""
    if name not in FILES or wanted_version != version():
        return Outgoing(404, page_headers({"Content-Type": "text/plain"}, (), embed=False), b"")
    headers = {"Content-Type": FILES[name], "Cache-Control": IMMUTABLE}
    return Outgoing(200, page_headers(headers, (), embed=False), _content(name))

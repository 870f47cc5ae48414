"""Featured images: a media id, or an absolute http(s) URL stored as given.

The original downloads an image URL into its media library while validating the request; that
is a request-forgery hole, so we never fetch anything (DEVIATIONS). A URL that is already a
media item's URL is linked to that item.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from eventcal.http.args import digits
from eventcal.permissions import Actor, Cap
from eventcal.storage import queries as q
from eventcal.storage.db import Connection

IMAGE_EXTENSIONS = {
    "jpg",
    "jpeg",
    "png",
    "gif",
    "webp",
    "avif",
    "bmp",
    "svg",
    "ico",
    "heic",
    "tif",
    "tiff",
}
MAX_URL_LENGTH = 2048


@dataclass(frozen=True, slots=True)
class ImageRef:
    """What an item's ``image`` points at; both None means no image."""

    image_id: int | None = None
    image_url: str | None = None


NO_IMAGE = ImageRef()


def is_http_url(value: str) -> bool:
    """An absolute http(s) URL with a host (the only links the API stores)."""
    if len(value) > MAX_URL_LENGTH or any(c.isspace() for c in value):
        return False
    try:
        parts = urlsplit(value)
        port_ok = parts.port is None or 0 < parts.port < 65536
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname) and port_ok


def _is_image(row: Any) -> bool:
    mime = str(row["mime_type"] or "")
    return mime.startswith("image/") or str(row["extension"]).lower() in IMAGE_EXTENSIONS


async def resolve_image(conn: Connection, value: Any, actor: Actor) -> ImageRef | None:
    """The image a client's ``image`` value names, or None when the value is not acceptable."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        value = value.strip()
        if value == "":
            return NO_IMAGE
        if value.isascii() and value.isdigit():
            value = digits(value)
            if value is None:
                return None
    if isinstance(value, int):
        if value <= 0 or value > 2**31 - 1:
            return None
        row = await conn.first(q.MEDIA_BY_ID, {"id": value})
        return ImageRef(image_id=value) if row is not None and _is_image(row) else None
    if isinstance(value, str) and is_http_url(value):
        if not actor.can(Cap.UPLOAD_FILES):
            return None
        row = await conn.first(q.MEDIA_BY_URL, {"url": value})
        if row is not None:
            return ImageRef(image_id=int(row["id"]))
        return ImageRef(image_url=value)
    return None

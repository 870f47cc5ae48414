"""Pieces of a post's JSON that every post collection shows the same way: its dates, author,
public URL and featured image (field formats as the original sends them)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import tzinfo
from typing import Any

import orjson

from eventcal.context import Urls
from eventcal.resources.dates import ZERO_DATE, format_datetime
from eventcal.storage.db import Row, as_utc
from eventcal.timezones import to_local

PRETTY_URL_STATUSES = ("publish", "private")


def author_string(author_id: int | None) -> str:
    """``author`` is a string in the original's JSON."""
    return str(author_id) if author_id else "0"


def post_dates(row: Row, site_zone: tzinfo) -> tuple[str, str, str, str]:
    """``date``, ``date_utc``, ``modified``, ``modified_utc`` (a floating draft's UTC dates are
    zero, as WordPress shows them)."""
    published = as_utc(row["published_at"])
    modified = as_utc(row["modified_at"])
    date_utc = ZERO_DATE if row["date_floating"] else format_datetime(published)
    return (
        format_datetime(to_local(published, site_zone)),
        date_utc,
        format_datetime(to_local(modified, site_zone)),
        ZERO_DATE if row["date_floating"] else format_datetime(modified),
    )


def publication(row: Row, site_zone: tzinfo, url: str) -> dict[str, Any]:
    """The keys every post shows in the same order: author, status, dates, public URL."""
    date, date_utc, modified, modified_utc = post_dates(row, site_zone)
    return {
        "author": author_string(row["author_id"]),
        "status": row["status"],
        "date": date,
        "date_utc": date_utc,
        "modified": modified,
        "modified_utc": modified_utc,
        "url": url,
    }


def post_url(urls: Urls, kind: str, wp_type: str, row: Row) -> str:
    """Public page of an item: pretty for published/private items with a slug."""
    slug = row["slug"]
    if slug and row["status"] in PRETTY_URL_STATUSES:
        return f"{urls.home}/{kind}/{slug}/"
    return f"{urls.home}/?post_type={wp_type}&p={row['id']}"


def image_json(row: Row, media: Mapping[int, Row]) -> dict[str, Any] | bool:
    """``false`` or ``{url, id, extension, width, height, filesize, sizes}`` without empty
    values."""
    image_id = row["image_id"]
    if image_id:
        item = media.get(image_id)
        if item is not None:
            data: dict[str, Any] = {"url": item["url"], "id": item["id"]}
            for key in ("extension", "width", "height", "filesize"):
                if item[key]:
                    data[key] = item[key]
            if item["sizes"]:
                data["sizes"] = orjson.loads(item["sizes"])
            return data
    url = row["image_url"]
    if url:
        data = {"url": url}
        extension = _extension(url)
        if extension:
            data["extension"] = extension
        return data
    return False


def _extension(url: str) -> str:
    path = url.split("?", 1)[0].split("#", 1)[0]
    name = path.rsplit("/", 1)[-1]
    if "." not in name:
        return ""
    extension = name.rsplit(".", 1)[-1].lower()
    return extension if extension.isalnum() and len(extension) <= 5 else ""

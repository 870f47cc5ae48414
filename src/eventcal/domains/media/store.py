"""Storing uploads: the item's row, its files' bytes (one row per size) and their URLs.

Each file is served at ``{base}/uploads/{hash}/{name}``: ``hash`` is a digest of the item's id
and the file's bytes, so a URL names one content for ever (served as immutable) and two items
with the same bytes still own their files apart (deleting one leaves the other's).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson
import sqlalchemy as sa

from eventcal.domains.media.images import Processed
from eventcal.storage import queries as q
from eventcal.storage.db import Connection, Database
from eventcal.storage.tables import media, media_file

FILES_PATH = "/uploads/"
"""Where files are served, under the public URL (outside the API's namespace)."""
HASH_LENGTH = 32
FULL = "full"

_INSERT_FILE = sa.insert(media_file)
_FILE_BY_HASH = sa.select(media_file.c.name, media_file.c.mime_type, media_file.c.data).where(
    media_file.c.hash == sa.bindparam("hash")
)


@dataclass(frozen=True, slots=True)
class StoredFile:
    """A file as served."""

    name: str
    mime_type: str
    data: bytes
    etag: str


def file_hash(media_id: int, data: bytes) -> str:
    digest = hashlib.sha256(f"{media_id}:".encode())
    digest.update(data)
    return digest.hexdigest()[:HASH_LENGTH]


def file_url(base: str, digest: str, name: str) -> str:
    return f"{base}{FILES_PATH}{digest}/{name}"


def row_values(
    media_id: int, processed: Processed, base: str, now: datetime
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The item's column values (its URL, size details) and its files' rows."""
    files = [(FULL, processed.name, processed.mime_type, processed.file)]
    files.extend(
        (size, rendition.file_name(processed.name), rendition.mime_type, rendition.data)
        for size, rendition in processed.sizes.items()
    )
    rows = [
        {
            "media_id": media_id,
            "size": size,
            "hash": file_hash(media_id, data),
            "name": name,
            "mime_type": mime,
            "data": data,
        }
        for size, name, mime, data in files
    ]
    urls = {str(r["size"]): file_url(base, str(r["hash"]), str(r["name"])) for r in rows}
    sizes = {
        size: {
            "width": rendition.width,
            "height": rendition.height,
            "mime-type": rendition.mime_type,
            "filesize": rendition.filesize,
            "url": urls[size],
        }
        for size, rendition in processed.sizes.items()
    }
    values = {
        "url": urls[FULL],
        "mime_type": processed.mime_type,
        "extension": processed.extension,
        "width": processed.width,
        "height": processed.height,
        "filesize": processed.filesize,
        "file_name": processed.name,
        "sizes": orjson.dumps(sizes).decode(),
        "created_at": now,
        "modified_at": now,
    }
    return values, rows


async def insert(conn: Connection, values: dict[str, Any], files: list[dict[str, Any]]) -> None:
    """The item's row, then its files (one statement for all)."""
    await conn.execute(q.insert_row(media, tuple(sorted(values))), q.row_values(values))
    await conn.execute_many(_INSERT_FILE, files)


def sizes_of(row: Any) -> dict[str, Any]:
    """The item's renditions as shown (``{}`` for an item without any)."""
    raw = row["sizes"]
    if not raw:
        return {}
    sizes: dict[str, Any] = orjson.loads(raw)
    return sizes


async def file_by_hash(database: Database, digest: str) -> StoredFile | None:
    """The file a URL names (one read by a unique index), or None."""
    async with database.read() as conn:
        row = await conn.first(_FILE_BY_HASH, {"hash": digest})
    if row is None:
        return None
    return StoredFile(str(row["name"]), str(row["mime_type"]), bytes(row["data"]), f'"{digest}"')

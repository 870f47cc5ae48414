"""Helpers of the media library's tests: images made with Pillow, uploads in both forms."""

from __future__ import annotations

import io
from typing import Any
from urllib.parse import urlsplit

from PIL import Image

from tests.conftest import NS, Api

MEDIA = f"{NS}/media"


def image_bytes(width: int = 400, height: int = 300, fmt: str = "PNG", **options: Any) -> bytes:
    mode = "RGB"
    picture = Image.new(mode, (width, height), (200, 30, 30))
    for x in range(0, width, 7):  # some detail, so encoders have work to do
        picture.putpixel((x, (x * 3) % height), (10, 200, 10))
    out = io.BytesIO()
    picture.save(out, fmt, **options)
    return out.getvalue()


def raw_upload(
    api: Api,
    data: bytes,
    *,
    filename: str | None = "poster.png",
    content_type: str = "image/png",
    as_: str | None = "administrator",
    params: dict[str, Any] | None = None,
) -> Any:
    headers = {"Content-Type": content_type}
    if filename is not None:
        headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return api.post(MEDIA, content=data, headers=headers, as_=as_, params=params or {})


def form_upload(
    api: Api,
    data: bytes,
    *,
    filename: str = "poster.png",
    fields: dict[str, str] | None = None,
    as_: str | None = "administrator",
) -> Any:
    files = {"file": (filename, data, "application/octet-stream")}
    return api.post(MEDIA, files=files, data=fields or {}, as_=as_)


def uploaded(api: Api, data: bytes | None = None, **kwargs: Any) -> dict[str, Any]:
    response = raw_upload(api, data if data is not None else image_bytes(), **kwargs)
    assert response.status_code == 201, response.text
    item: dict[str, Any] = response.json()
    return item


def path_of(url: str) -> str:
    return urlsplit(url).path

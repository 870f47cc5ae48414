"""What the HTTP-edge tests share: an event body and the error-shape check."""

from __future__ import annotations

from typing import Any

from eventcal.storage.db import data_version
from tests.conftest import Api

NEW_EVENT = {"title": "New", "start_date": "2027-01-01 10:00", "end_date": "2027-01-01 11:00"}


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    """The original's error shape, with a message, and the status and code expected."""
    assert response.status_code == status, response.text[:300]
    body: dict[str, Any] = response.json()
    assert body["code"] == code, body
    assert isinstance(body["message"], str) and body["message"]
    assert body["data"]["status"] == status
    return body


def version(api: Api) -> int:
    """The data version: it grows with every committed write."""

    async def read() -> int:
        async with api.database.read() as conn:
            return await data_version(conn)

    return api.run(read)


def multipart(*parts: bytes, boundary: bytes = b"XyZ") -> bytes:
    """A multipart body from raw parts (each with its headers), framed by ``boundary``."""
    body = b"".join(b"--" + boundary + b"\r\n" + part + b"\r\n" for part in parts)
    return body + b"--" + boundary + b"--\r\n"


def field(name: str, value: str) -> bytes:
    return f'Content-Disposition: form-data; name="{name}"\r\n\r\n{value}'.encode()

"""Reading a request's body: streamed, bounded in bytes and in time, whatever its content type.

Every byte is counted as it arrives, so a body without ``Content-Length`` (chunked) meets the
same limit as one that declares its length, and a multipart body is parsed while it streams
(never spooled whole, never to disk). A body that does not arrive within the read timeout is
answered 408, so slow senders cannot hold a worker's requests indefinitely.

Each refusal is a 4xx in the error shape that says why: no input reaches the handlers in a form
they were not written for (a file where no file is taken, a JSON body labelled as text).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import orjson
from starlette.requests import Request

from eventcal.errors import ApiError
from eventcal.http.args import digits
from eventcal.http.body import (
    BodyError,
    invalid_utf8_names,
    is_form_type,
    is_json_type,
    not_utf8,
    parse_json_body,
    parse_query,
    too_large,
)
from eventcal.http.multipart import Upload, parse_multipart, split_content_type

RAW_FILE = "file"
"""The part name a body sent as a file is given (an endpoint that takes files reads the bytes
of ``Content-Type: image/png`` the way it reads a multipart ``file`` field)."""


@dataclass(frozen=True, slots=True)
class BodyLimits:
    """How much of a body the router reads, and for how long (from the settings)."""

    max_bytes: int = 1_048_576
    """JSON, form and any other content type."""
    max_multipart_bytes: int = 2_097_152
    """``multipart/form-data`` (framing and part headers take room of their own)."""
    max_upload_bytes: int = 16_777_216
    """Any body sent to an endpoint that takes files (``Endpoint.accepts_files``)."""
    max_parts: int = 1000
    """Parts of a multipart body (fields and files)."""
    read_timeout: float = 30.0
    """Seconds the whole body may take to arrive."""


@dataclass(slots=True)
class Body:
    """What a body holds: parameters by source, and uploaded files by part name."""

    json: dict[str, Any] = field(default_factory=dict)
    form: dict[str, Any] = field(default_factory=dict)
    files: dict[str, Upload] = field(default_factory=dict)


def request_timeout(seconds: float) -> ApiError:
    return ApiError(
        "rest_request_timeout",
        "The request body did not arrive within {seconds} seconds.",
        408,
        headers={"Connection": "close"},
        seconds=_number(seconds),
    )


def incomplete_body() -> ApiError:
    return ApiError(
        "rest_incomplete_body",
        "The request body ended before it was complete.",
        400,
        headers={"Connection": "close"},
    )


def wrong_content_type(content_type: str) -> ApiError:
    return ApiError(
        "rest_invalid_content_type",
        "The body is a JSON object but its Content-Type is {content_type}: "
        "send JSON as application/json.",
        415,
        content_type=content_type or "(none)",
    )


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


async def read_body(
    request: Request,
    limits: BodyLimits,
    *,
    max_bytes: int | None = None,
    accepts_files: bool = False,
) -> Body:
    """The body's parameters and files, read within the limits.

    ``max_bytes`` is the endpoint's own limit (for every content type) when it has one; else
    the settings' limit for the content type, or for uploads when the endpoint takes files.
    Raises 413 beyond the size limit, 408 past the read timeout, 400/415 for a body that is
    not what its content type says.
    """
    content_type = request.headers.get("content-type", "")
    media_type, options = split_content_type(content_type)
    multipart = media_type == "multipart/form-data"
    limit = max_bytes or _default_limit(limits, multipart=multipart, files=accepts_files)
    declared = request.headers.get("content-length")
    if declared and declared.isascii() and declared.isdigit() and digits(declared, limit) is None:
        raise too_large(limit)
    try:
        async with asyncio.timeout(limits.read_timeout):
            chunks = _chunks(request, limit)
            if multipart:
                fields, files = await parse_multipart(
                    chunks, options, max_parts=limits.max_parts, accepts_files=accepts_files
                )
                parsed = Body(form=fields, files=files)
            else:
                data = b"".join([chunk async for chunk in chunks])
                if accepts_files and _is_file_type(content_type):
                    disposition = request.headers.get("content-disposition", "")
                    upload = Upload(RAW_FILE, "", media_type, data, disposition)
                    return Body(files={RAW_FILE: upload})
                parsed = _parse_simple(data, content_type)
    except TimeoutError:
        raise request_timeout(limits.read_timeout) from None
    return parsed


def _is_file_type(content_type: str) -> bool:
    """A body that is a file itself (``image/png``…), not parameters."""
    return bool(content_type) and not is_json_type(content_type) and not is_form_type(content_type)


def _default_limit(limits: BodyLimits, *, multipart: bool, files: bool) -> int:
    if files:
        return limits.max_upload_bytes
    return limits.max_multipart_bytes if multipart else limits.max_bytes


def _parse_simple(body: bytes, content_type: str) -> Body:
    """A JSON, form or other body (read whole: at most the size limit)."""
    if is_json_type(content_type):
        try:
            return Body(json=parse_json_body(body))
        except BodyError as exc:
            error = ApiError(
                "rest_invalid_json",
                "Invalid JSON body passed.",
                400,
                data={"json_error_code": 4, "json_error_message": "Syntax error"},
            )
            raise error from exc
    if _is_json_object(body):
        # WordPress reads such a body as nothing ("Missing parameter(s): title…"), which
        # hides the real mistake (curl -d sends form-urlencoded): say what is wrong.
        raise wrong_content_type(content_type.split(";", 1)[0].strip()[:100])
    if is_form_type(content_type):
        names = invalid_utf8_names(body)
        if names:
            raise not_utf8(names)
        return Body(form=parse_query(body))
    return Body()


def _is_json_object(body: bytes) -> bool:
    stripped = body.strip()
    if not (stripped.startswith(b"{") and stripped.endswith(b"}")):
        return False
    try:
        return isinstance(orjson.loads(stripped), dict)
    except orjson.JSONDecodeError:
        return False


async def _chunks(request: Request, limit: int) -> AsyncIterator[bytes]:
    """The body's chunks as they arrive, counted against ``limit`` (413 past it)."""
    size = 0
    receive = request.receive
    while True:
        message = await receive()
        if message["type"] != "http.request":
            # The client went away, or the server could not decode the body (bad chunking).
            raise incomplete_body()
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise too_large(limit)
        if chunk:
            yield chunk
        if not message.get("more_body", False):
            return

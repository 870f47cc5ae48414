"""``multipart/form-data`` bodies, parsed as they stream (python-multipart's push parser).

Fields become parameters (PHP bracket names, as in a form body); files are kept only for
endpoints that take them (:attr:`Endpoint.accepts_files`). Anything the framing does not
allow — no boundary, parts outside the boundary, a body that stops before its closing
boundary, a part without a name, too many parts — is a 4xx that says so.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from python_multipart.exceptions import FormParserError
from python_multipart.multipart import MultipartParser, MultipartState, parse_options_header

from eventcal.errors import ApiError
from eventcal.http.body import not_utf8, php_pairs_to_dict

MAX_PART_HEADERS = 8
"""Headers of one part (Content-Disposition, Content-Type and a few more are all a form sends)."""
MAX_PART_HEADER_BYTES = 4096


@dataclass(frozen=True, slots=True)
class Upload:
    """A file part of a multipart body, or a whole body sent as a file (``disposition`` is
    then its ``Content-Disposition`` header, which names the file)."""

    name: str
    filename: str
    content_type: str
    data: bytes
    disposition: str | None = None


def split_content_type(header: str) -> tuple[str, dict[str, str]]:
    """``(media type in lower case, parameters)`` of a ``Content-Type`` header."""
    if ";" not in header:
        return header.strip().lower(), {}
    media_type, options = parse_options_header(header)
    return media_type.decode("latin-1"), {
        k.decode("latin-1").lower(): v.decode("latin-1") for k, v in options.items()
    }


def no_boundary() -> ApiError:
    return ApiError(
        "rest_multipart_no_boundary",
        "A multipart/form-data body needs a boundary in its Content-Type "
        "(multipart/form-data; boundary=…).",
        400,
    )


def malformed() -> ApiError:
    return ApiError(
        "rest_invalid_multipart",
        "The multipart body is malformed: its parts do not follow the boundary given in "
        "its Content-Type, or it ends before its closing boundary.",
        400,
    )


def unnamed_part() -> ApiError:
    return ApiError(
        "rest_invalid_multipart",
        'A part of the multipart body has no name (Content-Disposition: form-data; name="…").',
        400,
    )


def too_many_parts(limit: int) -> ApiError:
    return ApiError(
        "rest_too_many_parts", "The multipart body has more than {limit} parts.", 413, limit=limit
    )


def file_not_accepted(name: str) -> ApiError:
    return ApiError(
        "rest_file_not_accepted",
        'This endpoint takes no files: the part "{name}" is a file.',
        400,
        name=name,
    )


class _Collector:
    """The parser's callbacks: the parts of the body, checked as their headers end."""

    def __init__(self, max_parts: int, accepts_files: bool) -> None:
        self.max_parts = max_parts
        self.accepts_files = accepts_files
        self.parts = 0
        self.fields: list[tuple[bytes, bytes]] = []
        self.files: dict[str, Upload] = {}
        self._header_name = bytearray()
        self._header_value = bytearray()
        self._headers: dict[bytes, bytes] = {}
        self._data: list[bytes] = []
        self._name = b""
        self._filename: str | None = None

    def callbacks(self) -> Any:
        return {
            "on_part_begin": self.part_begin,
            "on_header_field": lambda d, s, e: self._header_name.extend(d[s:e]),
            "on_header_value": lambda d, s, e: self._header_value.extend(d[s:e]),
            "on_header_end": self.header_end,
            "on_headers_finished": self.headers_finished,
            "on_part_data": lambda d, s, e: self._data.append(bytes(d[s:e])),
            "on_part_end": self.part_end,
        }

    def part_begin(self) -> None:
        self.parts += 1
        if self.parts > self.max_parts:
            raise too_many_parts(self.max_parts)
        self._headers = {}
        self._data = []

    def header_end(self) -> None:
        self._headers[bytes(self._header_name).lower()] = bytes(self._header_value)
        self._header_name.clear()
        self._header_value.clear()

    def headers_finished(self) -> None:
        disposition, options = parse_options_header(self._headers.get(b"content-disposition"))
        name = options.get(b"name", b"")
        if disposition != b"form-data" or not name:
            raise unnamed_part()
        self._name = name
        filename = options.get(b"filename")
        self._filename = None if filename is None else _text(filename)
        if self._filename is not None and not self.accepts_files:
            raise file_not_accepted(_text(name))

    def part_end(self) -> None:
        data = b"".join(self._data)
        self._data = []
        if self._filename is None:
            self.fields.append((self._name, data))
            return
        name = _text(self._name)
        content_type = _text(self._headers.get(b"content-type", b"application/octet-stream"))
        self.files[name] = Upload(name, self._filename, content_type, data)

    def decoded_fields(self) -> dict[str, Any]:
        """The fields as parameters; 400 naming those that are not UTF-8."""
        pairs: list[tuple[str, str]] = []
        bad: dict[str, None] = {}
        for raw_name, raw_value in self.fields:
            try:
                pairs.append((raw_name.decode("utf-8"), raw_value.decode("utf-8")))
            except UnicodeDecodeError:
                bad[_text(raw_name).split("[", 1)[0]] = None
        if bad:
            raise not_utf8(list(bad))
        return php_pairs_to_dict(pairs)


def _text(raw: bytes) -> str:
    """Header parameters as text (UTF-8 as browsers send them, else as bytes)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


async def parse_multipart(
    chunks: AsyncIterator[bytes],
    options: dict[str, str],
    *,
    max_parts: int,
    accepts_files: bool,
) -> tuple[dict[str, Any], dict[str, Upload]]:
    """(fields as parameters, files by part name) of a multipart body streamed as ``chunks``.

    An empty body is an empty form (clients send the header on bodiless requests too).
    """
    boundary = options.get("boundary", "")
    if not boundary:
        raise no_boundary()
    collector = _Collector(max_parts, accepts_files)
    try:
        parser = MultipartParser(
            boundary.encode("latin-1", errors="replace"),
            collector.callbacks(),
            max_header_count=MAX_PART_HEADERS,
            max_header_size=MAX_PART_HEADER_BYTES,
        )
    except FormParserError:
        raise malformed() from None
    received = False
    async for chunk in chunks:
        received = True
        try:
            parser.write(chunk)
        except FormParserError:
            raise malformed() from None
    if received and parser.state != MultipartState.END:
        raise malformed()
    return collector.decoded_fields(), collector.files

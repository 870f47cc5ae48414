"""Responses: what handlers return (:class:`Reply`), how a reply becomes bytes (``_fields``,
``_envelope``, JSON, the entity tag) and how bytes are sent (:class:`Outgoing`)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import orjson
from starlette.types import Receive, Scope, Send

from eventcal.http.conditional import Built, entity_tag, none_match
from eventcal.http.headers import BASE_HEADERS

JSON_TYPE = "application/json; charset=UTF-8"
NOT_MODIFIED_HEADERS = ("ETag", "Cache-Control", "Expires", "Vary", "Content-Language")
ENVELOPE_HEADERS = ("Allow", "X-TEC-Total", "X-TEC-TotalPages", "Location", "Retry-After")


@dataclass(slots=True)
class Reply:
    """What a handler returns."""

    body: Any
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    cacheable: bool = True
    """False when the body depends on the present moment beyond the site's date (relative date
    filters, "upcoming" filters): such responses are not kept in the response cache."""
    revision: int | None = None
    """The revision of the one item the body shows (its ``ETag`` then names it: If-Match)."""
    digest: str | None = None
    """The body's ``body_digest`` as encoded, when known already (an item the item cache
    keeps): used for its entity tag unless ``_fields`` or ``_envelope`` change the body."""
    media_type: str | None = None
    """The body is already bytes of this type (an iCalendar feed): sent as it is, without
    ``_fields`` or ``_envelope``, which apply to JSON only."""


class Outgoing:
    """A response ready to send: status, headers (``dict``, so callers may add some) and body.
    Sent as two ASGI messages with headers encoded once, which is all a JSON API needs.

    ``length`` is the ``Content-Length`` to announce when it is not the body's: the body a
    ``GET`` would have had, for the empty body of a ``HEAD`` (RFC 9110 §9.3.2). A 304 announces
    none (a length there must be the 200's, §8.6)."""

    __slots__ = ("body", "headers", "length", "status")

    def __init__(
        self, status: int, headers: dict[str, str], body: bytes, length: int | None = None
    ) -> None:
        self.status = status
        self.headers = headers
        self.body = body
        self.length = length

    @property
    def status_code(self) -> int:
        return self.status

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        length = len(self.body) if self.length is None else self.length
        raw = [(_header_name(k), v.encode("latin-1")) for k, v in self.headers.items()]
        if self.status != 304:
            raw.insert(0, (b"content-length", str(length).encode()))
        await send({"type": "http.response.start", "status": self.status, "headers": raw})
        await send({"type": "http.response.body", "body": self.body})


@functools.lru_cache(maxsize=256)
def _header_name(name: str) -> bytes:
    """A header name as sent (lower case, encoded): our responses use a dozen names."""
    return name.lower().encode("latin-1")


def json_response(body: Any, status: int, headers: dict[str, str]) -> Outgoing:
    """A JSON body with the base headers (errors, health checks)."""
    content = orjson.dumps(body)
    return Outgoing(status, {**BASE_HEADERS, "Content-Type": JSON_TYPE, **headers}, content)


def build(
    reply: Reply, headers: dict[str, str], envelope: bool, fields: Any, *, tagged: bool
) -> Built:
    """The response of a handler's reply: ``_fields`` and ``_envelope`` applied, JSON encoded,
    and (for reads that succeeded) its entity tag."""
    if reply.media_type is not None:
        return _as_is(reply, headers, tagged=tagged)
    body = reply.body
    if fields is not None and 200 <= reply.status < 300:
        body = filter_fields(body, fields)
    all_headers = {**headers, **reply.headers}
    status = reply.status
    if envelope:
        envelope_headers = {"Allow": headers.get("Allow", ""), **reply.headers}
        body = {"body": body, "status": reply.status, "headers": envelope_headers}
        status = 200
    content = orjson.dumps(body)
    digest = reply.digest if body is reply.body else None
    etag = entity_tag(content, reply.revision, digest) if tagged and 200 <= status < 300 else ""
    if etag:
        all_headers["ETag"] = etag
    return Built(status, all_headers, content, etag)


def _as_is(reply: Reply, headers: dict[str, str], *, tagged: bool) -> Built:
    """A body that is bytes already, with its content type (and its entity tag)."""
    content: bytes = reply.body
    all_headers = {**headers, **reply.headers, "Content-Type": str(reply.media_type)}
    ok = 200 <= reply.status < 300
    etag = entity_tag(content, reply.revision) if tagged and ok else ""
    if etag:
        all_headers["ETag"] = etag
    return Built(reply.status, all_headers, content, etag)


def send(built: Built, conditional: str | None, *, head: bool) -> Outgoing:
    """The response for a built body: 304 when ``If-None-Match`` names it."""
    if built.etag and none_match(conditional, built.etag):
        kept = {k: v for k, v in built.headers.items() if k in NOT_MODIFIED_HEADERS}
        return Outgoing(304, kept, b"")
    headers = {**BASE_HEADERS, "Content-Type": JSON_TYPE, **built.headers}
    return head_or_get(built.status, headers, built.body, head=head)


def head_or_get(status: int, headers: dict[str, str], body: bytes, *, head: bool) -> Outgoing:
    """The response to a ``GET``, or to a ``HEAD``: no body, the same headers and length."""
    if head:
        return Outgoing(status, headers, b"", len(body))
    return Outgoing(status, headers, body)


def enveloped_error(body: Any, status: int, headers: dict[str, str]) -> Any:
    """An error body inside ``_envelope``: the status and the headers a client reads."""
    inner = {k: v for k, v in headers.items() if k in ENVELOPE_HEADERS}
    return {"body": body, "status": status, "headers": inner}


def only_encoded(query: dict[str, Any]) -> bool:
    """A reply to a request with these parameters is only encoded (no ``_fields`` picks keys
    from its objects), so parts of its body may be JSON already (``orjson.Fragment``)."""
    return "_fields" not in query


def field_names(fields: Any) -> list[str]:
    """The names of ``_fields``: a comma-separated string, or a list of names (``_fields[]``).
    Any other shape (``_fields[a]=…``, ``_fields[0][0]=…``) names nothing: it is ignored."""
    if isinstance(fields, str):
        items = fields.split(",")
    elif isinstance(fields, list):
        items = [f for f in fields if isinstance(f, str)]
    else:
        return []
    return [name for name in (item.strip() for item in items) if name]


def filter_fields(body: Any, fields: Any) -> Any:
    """``_fields=a,b,c.d``: keep only the listed keys (dot paths select nested keys)."""
    names = field_names(fields)
    if not names:
        return body
    return _filter(body, names)


def _filter(body: Any, names: list[str]) -> Any:
    if isinstance(body, list):
        return [_filter(item, names) for item in body]
    if not isinstance(body, dict):
        return body
    result: dict[str, Any] = {}
    for name in names:
        head, _, rest = name.partition(".")
        if head not in body:
            continue
        if not rest:
            result[head] = body[head]
        elif isinstance(body[head], dict):
            nested = _filter(body[head], [rest])
            existing = result.get(head)
            result[head] = {**existing, **nested} if isinstance(existing, dict) else nested
    return result

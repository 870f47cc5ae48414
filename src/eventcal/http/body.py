"""Request parameters the way the original reads them.

Sources, first wins: JSON body (JSON content types only), form body, query string. Path
parameters are kept apart and never overridden (DEVIATIONS #3). Query strings and form bodies use
PHP bracket notation (``a[]=1``, ``a[0]=1``, ``venue[city]=Paris``, ``o[0][id]=12``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import parse_qsl, unquote_to_bytes

import orjson

from eventcal.errors import ApiError, InvalidParams, ParamError
from eventcal.http.args import NULL, digits
from eventcal.i18n import N_

MAX_PARAMS = 1000
MAX_DEPTH = 8


class BodyError(Exception):
    """The body cannot be read as its content type says."""


def _split_key(key: str) -> list[str] | None:
    """``a[b][]`` → ``["a", "b", ""]``; None when the key is malformed or too deep."""
    bracket = key.find("[")
    if bracket <= 0:
        return [key] if key else None
    parts = [key[:bracket]]
    rest = key[bracket:]
    while rest.startswith("["):
        end = rest.find("]")
        if end < 0:
            # PHP keeps an unterminated bracket as part of the name
            return [key.replace("[", "_")]
        parts.append(rest[1:end])
        rest = rest[end + 1 :]
        if len(parts) > MAX_DEPTH:
            return None
    return parts


def _listify(value: Any) -> Any:
    """Nested PHP arrays with keys 0, 1, 2… (or appended with ``[]``) become lists."""
    if isinstance(value, dict):
        converted = {k: _listify(v) for k, v in value.items()}
        if converted and all(isinstance(k, str) and k.isascii() and k.isdigit() for k in converted):
            return list(converted.values())
        return converted
    return value


def php_pairs_to_dict(pairs: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """Build nested values from ``key=value`` pairs with PHP bracket keys. Later plain keys win,
    as in PHP; ``[]`` appends."""
    result: dict[str, Any] = {}
    for count, (key, value) in enumerate(pairs):
        if count >= MAX_PARAMS:
            break
        parts = _split_key(key)
        if parts is None:
            continue
        node: dict[str, Any] = result
        for depth, part in enumerate(parts):
            name = str(_next_index(node)) if part == "" and depth > 0 else part
            if depth == len(parts) - 1:
                node[name] = value
            else:
                child = node.get(name)
                if not isinstance(child, dict):
                    child = {}
                    node[name] = child
                node = child
    # Only nested values become lists: top-level names stay names, even ``0``.
    return {name: _listify(value) for name, value in result.items()}


def _next_index(node: dict[str, Any]) -> int:
    numbers = [n for n in map(digits, node) if n is not None]
    return max(numbers) + 1 if numbers else 0


def parse_query(raw: bytes | str) -> dict[str, Any]:
    """Query string or urlencoded form body → nested values."""
    if not raw:
        return {}
    text = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw
    return php_pairs_to_dict(parse_qsl(text, keep_blank_values=True, max_num_fields=None))


def invalid_utf8_names(raw: bytes) -> list[str]:
    """Names (before any ``[``) of query or form parameters whose name or value is not UTF-8
    once percent-decoded: they are refused rather than read with replacement characters."""
    if not raw:
        return []
    try:
        unquote_to_bytes(raw.replace(b"+", b" ")).decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        return []  # UTF-8 sequences hold no ASCII byte: the whole is valid, so is every part
    names: dict[str, None] = {}
    for key, value in parse_qsl(
        raw.decode("latin-1"), keep_blank_values=True, encoding="latin-1", max_num_fields=None
    ):
        try:
            key.encode("latin-1").decode("utf-8")
            value.encode("latin-1").decode("utf-8")
        except UnicodeDecodeError:
            name = key.encode("latin-1").decode("utf-8", errors="replace").split("[", 1)[0]
            names[name] = None
    return list(names)


def is_json_type(content_type: str) -> bool:
    media_type = content_type.split(";", 1)[0].strip().lower()
    return media_type == "application/json" or media_type.endswith("+json")


def is_form_type(content_type: str) -> bool:
    media_type = content_type.split(";", 1)[0].strip().lower()
    return media_type == "application/x-www-form-urlencoded"


def parse_json_body(body: bytes) -> dict[str, Any]:
    """A JSON body as parameters: objects give their keys; other JSON values give nothing.

    Raises :class:`BodyError` for malformed JSON (the original's ``rest_invalid_json``).
    """
    if not body.strip():
        return {}
    try:
        value = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise BodyError(str(exc)) from exc
    return value if isinstance(value, dict) else {}


def merge_sources(*sources: dict[str, Any]) -> dict[str, Any]:
    """First source wins for each name; JSON ``null`` counts as absent (WordPress)."""
    merged: dict[str, Any] = {}
    for source in reversed(sources):
        for key, value in source.items():
            if value is None:
                continue
            merged[key] = value
    return merged


def with_nulls(merged: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    """Names the JSON body sent only as ``null`` mapped to :data:`~eventcal.http.args.NULL`:
    absent for every argument but the few that take null as a value (``Arg.nullable``)."""
    for key, value in body.items():
        if value is None:
            merged.setdefault(key, NULL)
    return merged


# --- reading a request's body ----------------------------------------------------------------


class BodyTooLarge(ApiError):
    status = 413


def too_large(limit: int) -> ApiError:
    # The rest of the body is not read: the connection cannot carry another request.
    return BodyTooLarge(
        "rest_request_too_large",
        "The request body is larger than {limit} bytes.",
        413,
        headers={"Connection": "close"},
        limit=limit,
    )


def not_utf8(names: Sequence[str]) -> InvalidParams:
    return InvalidParams({name: ParamError(N_("{param} is not valid UTF-8.")) for name in names})

"""Declarative route arguments: one table per endpoint drives parsing, validation, the index
route's ``args`` and the OpenAPI document.

An :class:`Arg` names a parameter, its JSON-schema description for the index/doc, and a parser.
A parser turns the raw value into the value the handler uses, or raises :class:`Invalid`. Parsers
may be async (they can look things up in the database: validation precedes authorization in the
original, and unknown ids are parameter errors).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence, Sized
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from eventcal.errors import InvalidParams, MissingParams, ParamError
from eventcal.i18n import N_

if TYPE_CHECKING:
    from eventcal.http.request import RequestState

MISSING: Any = object()
NULL: Any = type("Null", (), {"__repr__": lambda self: "NULL", "__bool__": lambda self: False})()
"""A name the body sent as JSON ``null``: absent for every argument but the nullable ones."""
MAX_INT = 2**31 - 1
MAX_STRING = 65_535
MAX_LIST_ITEMS = 500
"""Most items a list of ids may hold (``include``, ``venue``, ``organizer`` filters…)."""
MAX_TERMS = 100
"""Most categories or tags an event write or a ``categories``/``tags`` filter may name."""


class Invalid(Exception):
    """Raised by a parser: the parameter's message and optional ``details`` entry."""

    def __init__(
        self,
        message: str = N_("Invalid parameter."),
        detail: Mapping[str, Any] | None = None,
        *,
        reason: str | None = None,
        **args: Any,
    ) -> None:
        super().__init__(message)
        self.error = ParamError(message, detail, reason=reason, **args)


def because(reason: str, **args: Any) -> Invalid:
    """The original's "Invalid parameter." with ``reason`` (formatted with ``args`` and the
    parameter's name) in ``data.details``."""
    return Invalid(reason=reason, **args)


NOT_AN_ID = N_("{param} must be a whole number from 1 to {max}.")
UNKNOWN_IDS = N_("{param}: nothing has the id {ids}, or you may not see it.")


Parser = Callable[[Any, "RequestState"], Any | Awaitable[Any]]


@dataclass(frozen=True, slots=True)
class Arg:
    """One parameter of an endpoint."""

    name: str
    description: str
    parse: Parser
    type: str | None = None
    """JSON-schema type shown by the index (None for the original's untyped parameters)."""
    required: bool = False
    default: Any = MISSING
    """Value used when the parameter is absent; a callable computes it per request."""
    items: Mapping[str, Any] | None = None
    format: str | None = None
    enum: Sequence[str] | None = None
    location: str = "query"
    """``query``, ``path`` or ``body`` — where the OpenAPI document places it."""
    schema: Mapping[str, Any] | None = None
    """OpenAPI schema of accepted values (defaults from ``type``/``items``/``enum``)."""
    show_default: bool = True
    nullable: bool = False
    """JSON ``null`` is a value the parser gets (as None), not an absent argument."""
    is_async: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_async", inspect.iscoroutinefunction(self.parse))

    def default_value(self, state: RequestState) -> Any:
        return self.default(state) if callable(self.default) else self.default

    def index_entry(self, state: RequestState) -> dict[str, Any]:
        """The parameter as the index route and OPTIONS describe it."""
        entry: dict[str, Any] = {}
        if self.default is not MISSING and self.show_default:
            entry["default"] = self.default_value(state)
        entry["description"] = self.description
        if self.type is not None:
            entry["type"] = self.type
        if self.format is not None:
            entry["format"] = self.format
        if self.items is not None:
            entry["items"] = dict(self.items)
        if self.enum is not None:
            entry["enum"] = list(self.enum)
        entry["required"] = self.required
        return entry


@dataclass(slots=True)
class Params:
    """Parsed parameters of one request."""

    values: dict[str, Any]
    sent: frozenset[str]
    """Names the client sent with a non-null value (not defaults)."""

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    def get(self, name: str, default: Any = None) -> Any:
        return self.values.get(name, default)

    def __contains__(self, name: str) -> bool:
        return name in self.sent


async def parse_args(args: Sequence[Arg], raw: Mapping[str, Any], state: RequestState) -> Params:
    """Required check, then every parser; all failures reported together (spec README §2.4)."""
    missing = [
        a.name
        for a in args
        if a.required and a.location != "path" and raw.get(a.name) in (None, NULL)
    ]
    if missing:
        raise MissingParams(missing)
    values: dict[str, Any] = {}
    sent: set[str] = set()
    errors: dict[str, ParamError] = {}
    for arg in args:
        if arg.location == "path":
            continue
        value = raw.get(arg.name)
        if value is NULL and arg.nullable:
            value = None
        elif value is None or value is NULL:
            if arg.default is not MISSING:
                values[arg.name] = arg.default_value(state)
            continue
        if _holds_nul(value):  # no text anywhere may hold one: PostgreSQL cannot store it
            errors[arg.name] = ParamError(N_("{param} must not contain NUL characters."))
            continue
        try:
            result = arg.parse(value, state)  # None only for a nullable argument sent as null
            if arg.is_async:
                result = await result
        except Invalid as exc:
            errors[arg.name] = exc.error
            continue
        values[arg.name] = result
        sent.add(arg.name)
    if errors:
        raise InvalidParams(errors)
    return Params(values, frozenset(sent))


def _holds_nul(value: Any) -> bool:
    """Whether a value, or any text in its lists and objects (keys included), holds NUL
    (iteratively: however deep the value is nested)."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, dict):
            pending.extend(item)
            pending.extend(item.values())
    return False


# --- parsers ---------------------------------------------------------------------------------


def type_error(name: str, type_name: str) -> Invalid:
    """The original's type failure: a message and a ``rest_invalid_type`` detail."""
    message = f"{name} is not of type {type_name}."
    return Invalid(
        "{param} is not of type {type}.",
        {"code": "rest_invalid_type", "message": message, "data": {"param": name}},
        param=name,
        type=type_name,
    )


def as_int(value: Any) -> int | None:
    """The integer a value is, within the 32-bit range of the database's integer columns, or
    None: every integer a client sends (ids, filters, bodies, indexes) is read here or by
    :func:`digits`, so no text of any length reaches ``int()`` unchecked."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if abs(value) <= MAX_INT else None
    if isinstance(value, float) and value.is_integer():
        return int(value) if abs(value) <= MAX_INT else None
    if isinstance(value, str) and _INTEGRAL.fullmatch(value):
        number = int(float(value)) if "." in value else int(value)
        return number if abs(number) <= MAX_INT else None
    return None


def digits(text: str, maximum: int = MAX_INT) -> int | None:
    """ASCII digits naming a number from 0 to ``maximum`` (an id, an index, a length), else
    None — checked by length before conversion, so thousands of digits cost nothing."""
    if not (text.isascii() and text.isdigit()) or len(text.lstrip("0")) > len(str(maximum)):
        return None
    number = int(text)
    return number if number <= maximum else None


def looks_integral(text: str) -> bool:
    """Whether a text is written as an integer (of any length): one :func:`as_int` refuses is
    then out of range, not a name."""
    return _ANY_INTEGER.fullmatch(text) is not None


_ANY_INTEGER = re.compile(r"\s*[+-]?[0-9]+\s*", re.ASCII)
# An integer, or a decimal equal to one ("3.0"): PHP's is_numeric() plus intval() == value.
_INTEGRAL = re.compile(r"\s*[+-]?[0-9]{1,10}(\.0*)?\s*", re.ASCII)


def positive_int(value: Any, state: RequestState) -> int:
    number = as_int(value)
    if number is None or number <= 0:
        raise because(NOT_AN_ID, max=MAX_INT)
    return number


_TRUE = {"true", "1"}
_FALSE = {"false", "0"}


def as_bool(value: Any) -> bool | None:
    """WordPress ``boolean``: JSON booleans, 1/0 and the strings true/false/1/0."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        lowered = value.strip().lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
    return None


def boolean(name: str) -> Parser:
    def parse(value: Any, state: RequestState) -> bool:
        result = as_bool(value)
        if result is None:
            raise type_error(name, "boolean")
        return result

    return parse


def one_of(name: str, values: Sequence[str]) -> Parser:
    """One of ``values`` (exactly as written)."""
    allowed = frozenset(values)
    listed = ", ".join(values)

    def parse(value: Any, state: RequestState) -> str:
        if not isinstance(value, str) or value not in allowed:
            raise Invalid("{param} is not one of {values}.", param=name, values=listed)
        return value

    return parse


def some_of(name: str, values: Sequence[str]) -> Parser:
    """One or more of ``values``: one value, a list or CSV (a list filter)."""
    one = one_of(name, values)

    def parse(value: Any, state: RequestState) -> list[str]:
        items = csv_items(value)
        if not items:
            raise Invalid()
        return list(dict.fromkeys(str(one(item, state)) for item in items))

    return parse


_TRUTHY = {"1", "yes", "y", "true", "on", "enable", "enabled"}


def truthy(value: Any) -> bool:
    """The plugin's own truthiness (``tribe_is_truthy``)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return value != 0
    if isinstance(value, str):
        return value.strip().lower() in _TRUTHY
    return False


def string(name: str, *, max_length: int = MAX_STRING, allow_empty: bool = True) -> Parser:
    """A string (``"0"`` counts as non-empty, unlike the original: see DEVIATIONS)."""

    def parse(value: Any, state: RequestState) -> str:
        if not isinstance(value, str):
            raise type_error(name, "string")
        if "\x00" in value:
            raise Invalid("{param} must not contain NUL characters.", param=name)
        if len(value) > max_length:
            raise Invalid("{param} is longer than {max} characters.", param=name, max=max_length)
        if not allow_empty and value == "":
            raise Invalid()
        return value

    return parse


def non_empty_string(name: str, *, max_length: int = MAX_STRING) -> Parser:
    return string(name, max_length=max_length, allow_empty=False)


def csv_items(value: Any) -> list[Any] | None:
    """A list, or a CSV string split and trimmed with empty items dropped (spec §2.3)."""
    if isinstance(value, list):
        return value
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return [value]
    return None


def check_count(items: Sized, limit: int) -> None:
    """A list longer than ``limit``: 400 naming the parameter and the limit."""
    if len(items) > limit:
        raise Invalid(N_("{param} has more than {max} items."), max=limit)


def positive_int_list(value: Any, state: RequestState) -> list[int]:
    items = csv_items(value)
    if not items:
        raise Invalid()
    check_count(items, MAX_LIST_ITEMS)
    numbers = []
    for item in items:
        number = as_int(item)
        if number is None or number <= 0:
            raise because(NOT_AN_ID, max=MAX_INT)
        if number not in numbers:
            numbers.append(number)
    return numbers

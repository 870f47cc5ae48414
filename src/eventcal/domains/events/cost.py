"""Event cost: stored as given (one or several price points), shown the original's way.

Writing keeps the values and detects a currency symbol common to all numeric values
(``"15 €"`` → ``€`` postfix, ``"$10"`` → ``$`` prefix). Reading builds ``cost`` (lowest to highest,
``0`` shown as ``Free``, decorated with the symbol) and ``cost_details`` (spec events §1.3).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

import orjson

from eventcal.resources.slugs import sanitize_slug

_NUMBER = re.compile(r"\d[\d.,]*\d|\d")
EN_DASH = "\u2013"
MAX_COST_VALUES = 50
MAX_COST_LENGTH = 200


@dataclass(frozen=True, slots=True)
class StoredCost:
    values: list[str]
    currency_symbol: str
    currency_position: str

    def to_column(self) -> str:
        return orjson.dumps(self.values).decode() if self.values else ""


def normalise_cost_input(value: Any) -> list[str] | None:
    """The list of cost strings from what a client sent, or None when the value is unusable."""
    items = value if isinstance(value, list) else [value]
    if len(items) > MAX_COST_VALUES:
        return None
    result: list[str] = []
    for item in items:
        if isinstance(item, bool) or item is None:
            return None
        if isinstance(item, int | float):
            number = Decimal(str(item))
            if not number.is_finite():
                return None
            text = _format_number(number)
        elif isinstance(item, str):
            text = item.strip()
        else:
            return None
        if len(text) > MAX_COST_LENGTH:
            return None
        if text:
            result.append(text)
    return result


def store_cost(values: list[str]) -> StoredCost:
    """Detect the currency symbol and position common to the numeric values."""
    symbols: set[tuple[str, str]] = set()
    for text in values:
        numbers = list(_NUMBER.finditer(text))
        if not numbers:
            continue
        before = text[: numbers[0].start()].strip()
        after = text[numbers[-1].end() :].strip()
        if before:
            symbols.add((before, "prefix"))
        elif after:
            symbols.add((after, "postfix"))
        else:
            symbols.add(("", ""))
    if len(symbols) == 1:
        symbol, position = symbols.pop()
        if len(symbol) <= 16:
            return StoredCost(values, symbol, position)
    return StoredCost(values, "", "")


def load_cost(column: str) -> list[str]:
    if not column:
        return []
    loaded = orjson.loads(column)
    return [str(v) for v in loaded] if isinstance(loaded, list) else [str(loaded)]


def _parse_number(text: str) -> Decimal | None:
    """``25,55`` → 25.55, ``1,000`` → 1000, ``1.234,5`` → 1234.5."""
    if "," in text and "." in text:
        decimal_sep = "," if text.rfind(",") > text.rfind(".") else "."
        thousands = "." if decimal_sep == "," else ","
        text = text.replace(thousands, "").replace(decimal_sep, ".")
    elif "," in text or "." in text:
        sep = "," if "," in text else "."
        head, _, tail = text.rpartition(sep)
        if text.count(sep) == 1 and len(tail) != 3:
            text = head.replace(sep, "") + "." + tail
        else:
            text = text.replace(sep, "")
    try:
        number = Decimal(text)
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


def _format_number(value: Decimal) -> str:
    if value == value.to_integral_value():
        return str(int(value))
    return format(value.normalize(), "f")


def _numbers(values: list[str]) -> list[Decimal]:
    found: list[Decimal] = []
    for text in values:
        for match in _NUMBER.finditer(text):
            number = _parse_number(match.group(0))
            if number is not None:
                found.append(number)
    return sorted(found)


def cost_values(values: list[str]) -> list[str]:
    """``cost_details.values``: the numbers, ascending, as strings; then non-numeric costs."""
    numbers = [_format_number(n) for n in _numbers(values)]
    texts = sorted({sanitize_slug(v) for v in values if not _NUMBER.search(v)} - {""})
    return numbers + texts


def format_cost(
    values: list[str],
    symbol: str,
    position: str,
    default_symbol: str,
    default_position: str,
) -> str:
    """The ``cost`` string: ``$10``, ``$10 – $20``, ``Free – 30$``, or the text as given."""
    if not values:
        return ""
    numbers = _numbers(values)
    if not numbers:
        return ", ".join(values)
    symbol = symbol or default_symbol
    position = position or default_position

    def decorate(number: Decimal) -> str:
        if number == 0:
            return "Free"
        text = _format_number(number)
        return f"{text}{symbol}" if position == "postfix" else f"{symbol}{text}"

    low, high = numbers[0], numbers[-1]
    if low == high:
        return decorate(low)
    return f"{decorate(low)} {EN_DASH} {decorate(high)}"


def json_ld_price(values: list[str]) -> str:
    """The ``offers.price`` of JSON-LD: ``10``, ``10 – 20``, ``0`` for free text."""
    numbers = _numbers(values)
    if not numbers:
        return "0"
    low, high = _format_number(numbers[0]), _format_number(numbers[-1])
    return low if low == high else f"{low} {EN_DASH} {high}"

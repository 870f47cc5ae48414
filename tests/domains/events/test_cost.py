"""Event cost: input normalisation, symbol detection, ``cost``/``cost_details`` and JSON-LD price
(spec events.md §1.3)."""

from __future__ import annotations

from typing import Any

import pytest

from eventcal.domains.events.cost import (
    EN_DASH,
    MAX_COST_LENGTH,
    MAX_COST_VALUES,
    StoredCost,
    cost_values,
    format_cost,
    json_ld_price,
    load_cost,
    normalise_cost_input,
    store_cost,
)


def _read(sent: Any) -> tuple[str, list[str], str, str]:
    """What a client reads back after writing ``sent``: cost, values, symbol, position."""
    values = normalise_cost_input(sent)
    assert values is not None
    stored = store_cost(values)
    shown = format_cost(
        stored.values, stored.currency_symbol, stored.currency_position, "$", "prefix"
    )
    return shown, cost_values(stored.values), stored.currency_symbol, stored.currency_position


@pytest.mark.parametrize(
    ("sent", "cost", "values", "symbol", "position"),
    [
        ("$10", "$10", ["10"], "$", "prefix"),
        ("10 - 20", f"$10 {EN_DASH} $20", ["10", "20"], "", ""),
        ("$10 - $20", f"$10 {EN_DASH} $20", ["10", "20"], "$", "prefix"),
        ("15 €", "15€", ["15"], "€", "postfix"),
        ("20$", "20$", ["20"], "$", "postfix"),
        (25, "$25", ["25"], "", ""),
        (25.5, "$25.5", ["25.5"], "", ""),
        ("Free", "Free", ["free"], "", ""),
        (["0$", "20$", "30$"], f"Free {EN_DASH} 30$", ["0", "20", "30"], "$", "postfix"),
        ("25,55", "$25.55", ["25.55"], "", ""),
        ("0", "Free", ["0"], "", ""),
        ("$1,234.56", "$1234.56", ["1234.56"], "$", "prefix"),
    ],
)
def test_recorded_costs_round_trip(
    sent: Any, cost: str, values: list[str], symbol: str, position: str
) -> None:
    assert _read(sent) == (cost, values, symbol, position)


# --- normalise_cost_input --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sent", "expected"),
    [
        ("  $10  ", ["$10"]),
        (25, ["25"]),
        (25.0, ["25"]),
        (0.5, ["0.5"]),
        ([" 7 ", "", "  ", "8"], ["7", "8"]),
        ("", []),
        ([], []),
        (["Free", 10], ["Free", "10"]),
    ],
)
def test_normalise_cost_input(sent: Any, expected: list[str]) -> None:
    assert normalise_cost_input(sent) == expected


@pytest.mark.parametrize(
    "sent",
    [
        None,
        True,
        False,
        [True],
        ["10", None],
        {"cost": "10"},
        [["10"]],
        "x" * (MAX_COST_LENGTH + 1),
        ["1"] * (MAX_COST_VALUES + 1),
    ],
)
def test_unusable_cost_input(sent: Any) -> None:
    assert normalise_cost_input(sent) is None


def test_cost_limits_are_inclusive() -> None:
    assert normalise_cost_input("x" * MAX_COST_LENGTH) == ["x" * MAX_COST_LENGTH]
    assert normalise_cost_input(["1"] * MAX_COST_VALUES) == ["1"] * MAX_COST_VALUES


# --- store_cost ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "symbol", "position"),
    [
        (["$10", "$20"], "$", "prefix"),
        (["10€", "20 €"], "€", "postfix"),
        (["$10", "20€"], "", ""),  # values disagree: nothing stored
        (["$10", "20"], "", ""),
        (["Free", "$10"], "$", "prefix"),  # text-only values do not vote
        (["Free"], "", ""),
        ([], "", ""),
    ],
)
def test_store_cost_detects_a_common_symbol(values: list[str], symbol: str, position: str) -> None:
    stored = store_cost(values)
    assert stored == StoredCost(values, symbol, position)


def test_store_cost_ignores_symbols_longer_than_16_characters() -> None:
    stored = store_cost(["10 " + "x" * 17])
    assert (stored.currency_symbol, stored.currency_position) == ("", "")


@pytest.mark.parametrize(
    ("values", "column"),
    [
        (["$10"], '["$10"]'),
        (["0$", "20$"], '["0$","20$"]'),
        ([], ""),
    ],
)
def test_stored_column_round_trips(values: list[str], column: str) -> None:
    assert StoredCost(values, "", "").to_column() == column
    assert load_cost(column) == values


def test_load_cost_reads_a_scalar_column_as_one_value() -> None:
    assert load_cost("23") == ["23"]


# --- cost_values -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (["30$", "0$", "20$"], ["0", "20", "30"]),
        (["1,000"], ["1000"]),
        (["1.234,5"], ["1234.5"]),
        (["10.50"], ["10.5"]),
        (["Free", "Donation"], ["donation", "free"]),
        (["Free", "10"], ["10", "free"]),
        (["Pay what you want"], ["pay-what-you-want"]),
        ([], []),
    ],
)
def test_cost_values(values: list[str], expected: list[str]) -> None:
    assert cost_values(values) == expected


# --- format_cost -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "symbol", "position", "expected"),
    [
        (["23"], "$", "prefix", "$23"),
        (["23"], "", "", "$23"),
        (["23"], "€", "postfix", "23€"),
        (["5", "50", "20"], "", "", f"$5 {EN_DASH} $50"),
        (["0", "0"], "", "", "Free"),
        (["Free", "Donation"], "", "", "Free, Donation"),
        ([], "$", "prefix", ""),
    ],
)
def test_format_cost(values: list[str], symbol: str, position: str, expected: str) -> None:
    assert format_cost(values, symbol, position, "$", "prefix") == expected


def test_format_cost_falls_back_to_the_site_default_symbol_and_position() -> None:
    assert format_cost(["10 - 20"], "", "", "€", "postfix") == f"10€ {EN_DASH} 20€"
    # a stored symbol wins over the site default
    assert format_cost(["£10"], "£", "prefix", "€", "postfix") == "£10"


# --- json_ld_price ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (["$10"], "10"),
        (["10 - 20"], f"10 {EN_DASH} 20"),
        (["0$", "20$", "30$"], f"0 {EN_DASH} 30"),
        (["25,55"], "25.55"),
        (["Free"], "0"),
        ([], "0"),
    ],
)
def test_json_ld_price(values: list[str], expected: str) -> None:
    assert json_ld_price(values) == expected


def test_infinite_and_not_a_number_costs_are_refused_or_shown_as_text() -> None:
    assert normalise_cost_input(float("inf")) is None
    assert normalise_cost_input([1, float("nan")]) is None
    # Read as words, like any other text (they used to crash the formatting of numbers).
    assert cost_values(["Infinity", "NaN", "5"]) == ["5", "infinity", "nan"]
    assert format_cost(["Infinity"], "$", "prefix", "$", "prefix") == "Infinity"

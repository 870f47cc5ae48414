"""Parameter coercion and the declarative argument parser (spec README §2.3–2.4)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

import pytest

from eventcal.errors import InvalidParams, MissingParams
from eventcal.http.args import (
    MAX_INT,
    Arg,
    Invalid,
    Params,
    as_bool,
    as_int,
    boolean,
    csv_items,
    parse_args,
    positive_int,
    positive_int_list,
    truthy,
)

if TYPE_CHECKING:
    from eventcal.http.request import RequestState

# The parsers under test never look at the request state; a bare object stands in for it.
STATE = cast("RequestState", object())


# --- as_int / integer / positive_int ---------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (5, 5),
        (-5, -5),
        (0, 0),
        (5.0, 5),
        ("5", 5),
        (" 5 ", 5),
        ("+5", 5),
        ("-5", -5),
        ("007", 7),
        (MAX_INT, MAX_INT),
        (str(MAX_INT), MAX_INT),
        (-MAX_INT, -MAX_INT),
    ],
)
def test_as_int_accepts_integers(value: Any, expected: int) -> None:
    result = as_int(value)
    assert result == expected
    assert type(result) is int


@pytest.mark.parametrize(
    "value",
    [
        True,
        False,
        5.5,
        float("nan"),
        "1.5",
        "",
        " ",
        "foo",
        "5abc",
        "0x10",
        "1e3",
        "--5",
        None,
        [1],
        {"a": 1},
        MAX_INT + 1,
        str(MAX_INT + 1),
        "12345678901",
        float(MAX_INT + 1),
    ],
)
def test_as_int_rejects_everything_else(value: Any) -> None:
    assert as_int(value) is None


@pytest.mark.parametrize(("value", "expected"), [(1, 1), ("3", 3), (" 3", 3), (2.0, 2)])
def test_positive_int_accepts(value: Any, expected: int) -> None:
    assert positive_int(value, STATE) == expected


@pytest.mark.parametrize("value", [0, -1, "0", "-1", "foo", "1.5", "", True, None, [1]])
def test_positive_int_rejects(value: Any) -> None:
    with pytest.raises(Invalid) as caught:
        positive_int(value, STATE)
    assert caught.value.error.message == "Invalid parameter."


def test_positive_int_accepts_integral_numeric_strings() -> None:
    # Spec §2.3: "numbers or numeric strings equal to a positive integer".
    assert positive_int("3.0", STATE) == 3


# --- booleans and truthiness -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (True, True),
        (False, False),
        (1, True),
        (0, False),
        ("true", True),
        ("TRUE", True),
        ("True", True),
        ("false", False),
        ("FaLsE", False),
        ("1", True),
        ("0", False),
    ],
)
def test_as_bool_accepts(value: Any, expected: bool) -> None:
    assert as_bool(value) is expected


@pytest.mark.parametrize(
    "value", ["yes", "no", "on", "off", "", "t", "2", 2, -1, 1.5, None, [], {}, [True]]
)
def test_as_bool_rejects(value: Any) -> None:
    assert as_bool(value) is None


def test_boolean_parser_reports_a_type_error() -> None:
    parse = boolean("featured")
    assert parse("0", STATE) is False
    with pytest.raises(Invalid) as caught:
        parse("yes", STATE)
    assert caught.value.error.detail is not None
    assert caught.value.error.detail["message"] == "featured is not of type boolean."


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (True, True),
        (False, False),
        (1, True),
        (2, True),
        (-1, True),
        (0.5, True),
        (0, False),
        (0.0, False),
        ("1", True),
        ("yes", True),
        ("Y", True),
        ("TRUE", True),
        ("on", True),
        ("Enable", True),
        ("enabled", True),
        ("false", False),
        ("no", False),
        ("0", False),
        ("", False),
        ("2", False),
        ("off", False),
        (None, False),
        ([], False),
        (["1"], False),
        ({"a": 1}, False),
    ],
)
def test_truthy(value: Any, expected: bool) -> None:
    assert truthy(value) is expected


# --- lists -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("publish, draft", ["publish", "draft"]),
        ("a,,b,", ["a", "b"]),
        ("  single  ", ["single"]),
        ("", []),
        (" , ", []),
        (["x", "y"], ["x", "y"]),
        ([], []),
        (5, [5]),
        (2.5, [2.5]),
    ],
)
def test_csv_items(value: Any, expected: list[Any]) -> None:
    assert csv_items(value) == expected


@pytest.mark.parametrize("value", [True, False, None, {"a": 1}])
def test_csv_items_rejects_non_lists(value: Any) -> None:
    assert csv_items(value) is None


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1,2,3", [1, 2, 3]),
        (" 4 , 5 ", [4, 5]),
        ("3,1,3,1", [3, 1]),  # duplicates dropped, order kept
        ("7", [7]),
        (7, [7]),
        ([1, "2", 3.0], [1, 2, 3]),
        ("1,,2", [1, 2]),
    ],
)
def test_positive_int_list_accepts(value: Any, expected: list[int]) -> None:
    assert positive_int_list(value, STATE) == expected


@pytest.mark.parametrize(
    "value",
    ["", ",", [], "1,0", "1,-1", "1,foo", "1.5", [True], [None], None, {"a": 1}, ["1"] * 501],
)
def test_positive_int_list_rejects(value: Any) -> None:
    with pytest.raises(Invalid):
        positive_int_list(value, STATE)


def test_positive_int_list_accepts_500_items() -> None:
    assert positive_int_list(list(range(1, 501)), STATE) == list(range(1, 501))


# --- parse_args ------------------------------------------------------------------------------


def _run(args: Sequence[Arg], raw: Mapping[str, Any]) -> Params:
    return asyncio.run(parse_args(args, raw, STATE))


def _text(value: Any, state: RequestState) -> str:
    if not isinstance(value, str):
        raise Invalid()
    return value


async def _async_double(value: Any, state: RequestState) -> int:
    await asyncio.sleep(0)
    number = as_int(value)
    if number is None:
        raise Invalid("{param} must be a number.", param="count")
    return number * 2


ARGS = [
    Arg("id", "Path id", positive_int, location="path", required=True),
    Arg("title", "Title", _text, required=True),
    Arg("page", "Page", positive_int, default=1),
    Arg("per_page", "Per page", positive_int, default=lambda state: 10),
    Arg("start_date", "Start", _text, required=True),
    Arg("count", "Count", _async_double),
    Arg("featured", "Featured", boolean("featured")),
]


def test_parse_args_parses_sent_values() -> None:
    params = _run(
        ARGS,
        {"title": "T", "start_date": "tomorrow", "page": "3", "count": "4", "featured": "true"},
    )
    assert params.values == {
        "title": "T",
        "start_date": "tomorrow",
        "page": 3,
        "per_page": 10,
        "count": 8,
        "featured": True,
    }
    assert params.sent == frozenset({"title", "start_date", "page", "count", "featured"})


def test_required_names_are_reported_in_declaration_order() -> None:
    with pytest.raises(MissingParams) as caught:
        _run(ARGS, {"start_date": None, "page": "bad"})
    assert caught.value.names == ["title", "start_date"]
    assert caught.value.code == "rest_missing_callback_param"
    assert caught.value.status == 400


def test_missing_wins_over_invalid() -> None:
    with pytest.raises(MissingParams) as caught:
        _run(ARGS, {"title": "T", "page": "0", "per_page": "x"})
    assert caught.value.names == ["start_date"]


def test_every_invalid_parameter_is_collected() -> None:
    raw = {"title": "T", "start_date": "x", "page": "0", "per_page": "-1", "count": "z"}
    with pytest.raises(InvalidParams) as caught:
        _run(ARGS, raw)
    errors = caught.value.params
    assert list(errors) == ["page", "per_page", "count"]
    assert errors["page"].message == "Invalid parameter."
    assert errors["count"].message == "{param} must be a number."
    assert errors["count"].message_args == {"param": "count"}
    assert caught.value.code == "rest_invalid_param"


def test_null_is_absent_and_defaults_are_not_marked_as_sent() -> None:
    params = _run(ARGS, {"title": "T", "start_date": "x", "page": None, "featured": None})
    assert params["page"] == 1
    assert params["per_page"] == 10
    assert "page" not in params
    assert "per_page" not in params
    assert "featured" not in params
    assert params.get("featured") is None
    assert "featured" not in params.values
    assert "title" in params


def test_falsy_values_count_as_sent() -> None:
    params = _run(ARGS, {"title": "", "start_date": "", "featured": "0", "count": 0})
    assert params["title"] == ""
    assert params["featured"] is False
    assert params["count"] == 0
    assert {"title", "start_date", "featured", "count"} <= params.sent


def test_path_arguments_are_never_read_from_the_raw_values() -> None:
    params = _run(ARGS, {"id": "not a number", "title": "T", "start_date": "x"})
    assert "id" not in params
    assert "id" not in params.values


def test_undeclared_parameters_are_ignored() -> None:
    params = _run(ARGS, {"title": "T", "start_date": "x", "url": "ignored", "force": "1"})
    assert "url" not in params.values
    assert "force" not in params.values


def test_callable_defaults_receive_the_request_state() -> None:
    seen: list[object] = []

    def default(state: RequestState) -> str:
        seen.append(state)
        return "computed"

    params = _run([Arg("x", "X", _text, default=default)], {})
    assert params["x"] == "computed"
    assert seen == [STATE]
    assert params.sent == frozenset()

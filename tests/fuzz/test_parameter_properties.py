"""Properties of request parameter parsing (``api/params.py``) and of every argument parser of
the route tables (``api/args.py``, ``api/common.py``, the collections): whatever arrives, the
outcome is a value or the documented "invalid parameter" error, never another exception."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eventcal.collections import REGISTRY
from eventcal.context import Call, Site, Urls
from eventcal.errors import InvalidParams, MissingParams
from eventcal.http.args import (
    MAX_INT,
    Arg,
    Invalid,
    as_bool,
    as_int,
    csv_items,
    parse_args,
    positive_int_list,
    truthy,
)
from eventcal.http.body import (
    MAX_DEPTH,
    MAX_PARAMS,
    BodyError,
    is_form_type,
    is_json_type,
    merge_sources,
    parse_json_body,
    parse_query,
    php_pairs_to_dict,
)
from eventcal.http.request import RequestState
from eventcal.permissions import ANONYMOUS, Actor, Role
from eventcal.resources.index import route_table
from tests.conftest import Api

HOSTILE_TEXT = st.sampled_from(
    [
        "",
        " ",
        "0",
        "-0",
        "1e308",
        "NaN",
        "Infinity",
        str(2**63),
        str(-(2**63)),
        "9" * 400,
        "1.5",
        "1,2,,3, ",
        "%",
        "_",
        "%_\\",
        "' OR '1'='1",
        '"; DROP TABLE event; --',
        "a\x00b",
        "\x00",
        "\ud800",
        "\U0001f389",
        "١٢٣",
        "tomorrow 9am",
        "2026-02-30",
        "0000-00-00 00:00:00",
        "UTC+14",
        "Europe/Berlin",
        "http://example.org/",
        "javascript:alert(1)",
        "publish,draft",
        "a" * 70_000,
    ]
)
TEXT = st.one_of(st.text(max_size=40), HOSTILE_TEXT)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(),
    TEXT,
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(TEXT, children, max_size=4),
    max_leaves=12,
)
"""What a JSON body or a bracketed query string can deliver for one parameter."""


# --- api/params.py ----------------------------------------------------------------------------


def _depth(value: Any) -> int:
    """Nesting depth of lists and objects (without recursion: values may be deep)."""
    deepest = 0
    stack = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list):
            depth += 1
            children = node.values() if isinstance(node, dict) else node
            stack += [(child, depth) for child in children]
        deepest = max(deepest, depth)
    return deepest


def _leaves(value: Any) -> int:
    if isinstance(value, dict):
        return sum(_leaves(v) for v in value.values())
    if isinstance(value, list):
        return sum(_leaves(v) for v in value)
    return 1


@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_any_query_string_parses_into_bounded_nested_strings(raw: bytes) -> None:
    parsed = parse_query(raw)
    assert all(isinstance(name, str) for name in parsed)
    assert _depth(parsed) <= MAX_DEPTH + 1
    assert _leaves(parsed) <= MAX_PARAMS


BRACKETS = st.text(alphabet="[]a0=&%;", min_size=1, max_size=30)


@given(st.lists(st.tuples(BRACKETS | st.text(max_size=12), st.text(max_size=8)), max_size=30))
def test_any_bracket_keys_build_nested_values(pairs: list[tuple[str, str]]) -> None:
    parsed = php_pairs_to_dict(pairs)
    assert _depth(parsed) <= MAX_DEPTH + 1
    assert _leaves(parsed) <= len(pairs)


def test_too_many_pairs_and_too_deep_keys_are_dropped() -> None:
    deep = "a" + "[x]" * 10_000
    assert parse_query(f"{deep}=1&b=2") == {"b": "2"}
    assert parse_query("a" + "[]" * 50_000 + "=1") == {}
    assert parse_query("a[999999999]=1") == {"a": ["1"]}
    assert len(parse_query("&".join(f"p{i}=1" for i in range(5000)))) == MAX_PARAMS


NAMES = st.text(
    alphabet=st.characters(blacklist_characters="[]", blacklist_categories=["Cs"]),
    min_size=1,
    max_size=8,
)
"""Parameter names as clients use them (no brackets, which would nest)."""
MEMBER_NAMES = NAMES.filter(lambda name: not (name.isascii() and name.isdigit()))
"""Object member names (digits-only names make a list, as in PHP)."""
STRINGS = st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=8)
FORM_VALUES = st.one_of(
    STRINGS,
    st.lists(STRINGS, min_size=1, max_size=4),
    st.dictionaries(MEMBER_NAMES, STRINGS, min_size=1, max_size=3),
    st.lists(st.dictionaries(MEMBER_NAMES, STRINGS, min_size=1, max_size=2), min_size=1),
)


def php_encode(params: dict[str, Any]) -> str:
    """The query string a PHP client sends: ``a[]=…``, ``a[k]=…``, ``a[0][k]=…``."""
    pairs: list[tuple[str, str]] = []
    for name, value in params.items():
        if isinstance(value, str):
            pairs.append((name, value))
        elif isinstance(value, dict):
            pairs += [(f"{name}[{key}]", item) for key, item in value.items()]
        else:
            for index, item in enumerate(value):
                if isinstance(item, str):
                    pairs.append((f"{name}[]", item))
                else:
                    pairs += [(f"{name}[{index}][{k}]", v) for k, v in item.items()]
    return urlencode(pairs)


@given(st.dictionaries(NAMES, FORM_VALUES, max_size=5))
def test_php_bracket_encoding_round_trips(params: dict[str, Any]) -> None:
    encoded = php_encode(params)
    assert parse_query(encoded) == params
    assert parse_query(encoded.encode()) == params


@given(st.binary(max_size=200))
def test_any_json_body_is_parameters_or_a_body_error(body: bytes) -> None:
    try:
        parsed = parse_json_body(body)
    except BodyError:
        return
    assert isinstance(parsed, dict)


def _not_nan(value: Any) -> bool:
    return not (isinstance(value, float) and math.isnan(value))


@given(st.dictionaries(st.text(max_size=10), JSON_VALUES.filter(_not_nan), max_size=6))
def test_json_objects_round_trip(params: dict[str, Any]) -> None:
    try:
        body = orjson.dumps(params)
    except orjson.JSONEncodeError:  # integers beyond 64 bits
        return
    assert parse_json_body(body) == orjson.loads(body)


@pytest.mark.parametrize("depth", [1023, 1025, 10_000, 100_000])
def test_deep_json_is_a_body_error_not_a_recursion_error(depth: int) -> None:
    body = b'{"a":' * depth + b"1" + b"}" * depth
    if depth < 1024:
        assert _depth(parse_json_body(body)) == depth
    else:
        with pytest.raises(BodyError):
            parse_json_body(body)


SOURCE = st.dictionaries(st.sampled_from("abcde"), st.none() | st.integers(0, 3), max_size=5)


@given(st.lists(SOURCE, max_size=4))
def test_merge_sources_first_non_null_value_wins(sources: list[dict[str, Any]]) -> None:
    merged = merge_sources(*sources)
    names = {name for source in sources for name, value in source.items() if value is not None}
    assert set(merged) == names
    for name in names:
        first = next(s[name] for s in sources if s.get(name) is not None)
        assert merged[name] == first


@given(st.text(max_size=60))
def test_content_type_checks_accept_any_header(value: str) -> None:
    assert not (is_json_type(value) and is_form_type(value))


# --- api/args.py ------------------------------------------------------------------------------


@given(JSON_VALUES)
def test_as_int_is_an_int_in_range_or_none(value: Any) -> None:
    number = as_int(value)
    assert number is None or (type(number) is int and abs(number) <= MAX_INT)


@given(st.integers(min_value=-MAX_INT, max_value=MAX_INT))
def test_integers_round_trip_through_text(number: int) -> None:
    assert as_int(number) == number
    assert as_int(str(number)) == number
    assert as_int(f" {number} ") == number
    assert as_int(float(number)) == number


@given(st.integers().filter(lambda n: abs(n) > MAX_INT))
def test_integers_beyond_the_range_are_refused(number: int) -> None:
    assert as_int(number) is None
    assert as_int(str(number)) is None


@given(JSON_VALUES)
def test_booleans_and_truthiness_never_fail(value: Any) -> None:
    assert as_bool(value) in (True, False, None)
    assert truthy(value) in (True, False)


@given(JSON_VALUES)
def test_csv_items_are_trimmed_and_non_empty(value: Any) -> None:
    items = csv_items(value)
    if isinstance(value, str):
        assert items is not None
        assert all(item and item == item.strip() for item in items)


@given(st.lists(st.integers(min_value=1, max_value=MAX_INT), min_size=1, max_size=50))
def test_positive_int_lists_round_trip(numbers: list[int]) -> None:
    expected = list(dict.fromkeys(numbers))
    assert positive_int_list(numbers, STATE) == expected
    assert positive_int_list(", ".join(map(str, numbers)), STATE) == expected


# --- every argument of every route ------------------------------------------------------------


def _state(actor: Actor, conn: Any = None, language: str = "en") -> RequestState:
    return RequestState(
        method="POST",
        path_params={"id": "1", "slug": "jazz-night"},
        query={},
        call=Call(
            conn=conn,
            actor=actor,
            site=Site.build("Europe/Berlin", 10),
            urls=Urls.build("http://127.0.0.1"),
            now=datetime(2026, 11, 22, 4, 46, tzinfo=UTC),
            registry=REGISTRY,
            language=language,
        ),
    )


STATE = _state(ANONYMOUS)
ADMIN = Actor(user_id=1, role=Role.ADMINISTRATOR, login="administrator")
ENDPOINTS = [
    (f"{method} {route.doc_path}", endpoint.args)
    for route in route_table(REGISTRY)
    for endpoint in route.endpoints
    for method in endpoint.methods[:1]
]
SYNC_ARGS = list(
    {
        arg.parse: arg
        for _, args in ENDPOINTS
        for arg in args
        if not arg.is_async and arg.location != "path"
    }.values()
)


@settings(max_examples=600)
@given(
    arg=st.sampled_from(SYNC_ARGS),
    value=JSON_VALUES,
    admin=st.booleans(),
    language=st.sampled_from(["en", "de"]),
)
def test_every_parser_returns_a_value_or_invalid(
    arg: Arg, value: Any, admin: bool, language: str
) -> None:
    """Sync parsers (the async ones look things up: see the next test)."""
    state = _state(ADMIN if admin else ANONYMOUS, language=language)
    try:
        arg.parse(value, state)
    except Invalid as exc:
        error = exc.error
        assert error.message


def test_every_argument_table_parses_or_reports_bad_parameters(api: Api, database_url: str) -> None:
    """The whole table of an endpoint, async parsers included (with a database to look ids up
    in), on any mix of its parameters: parameters or a 400 for the router to answer."""
    examples = 400 if database_url.startswith("sqlite") else 100

    @settings(max_examples=examples)
    @given(data=st.data(), endpoint=st.sampled_from(ENDPOINTS), admin=st.booleans())
    def parse_any(data: st.DataObject, endpoint: tuple[str, tuple[Arg, ...]], admin: bool) -> None:
        args = endpoint[1]
        names = [arg.name for arg in args]
        raw = data.draw(st.dictionaries(st.sampled_from(names), JSON_VALUES, max_size=len(names)))

        async def parse() -> None:
            async with api.database.read() as conn:
                state = _state(ADMIN if admin else ANONYMOUS, conn)
                try:
                    params = await parse_args(args, raw, state)
                except (InvalidParams, MissingParams) as exc:
                    status = exc.status
                    assert status == 400
                    return
                assert params.sent <= set(raw)

        api.run(parse)

    parse_any()

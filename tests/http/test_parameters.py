"""Reading request parameters: PHP bracket notation, JSON bodies, source precedence
(spec README §2.1–2.2)."""

from __future__ import annotations

from typing import Any

import pytest

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


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("status[]=publish&status[]=draft", {"status": ["publish", "draft"]}),
        ("status[0]=publish&status[1]=draft", {"status": ["publish", "draft"]}),
        ("status%5B%5D=publish&status%5B%5D=draft", {"status": ["publish", "draft"]}),
        (
            "venue[venue]=White%20House&venue[city]=Washington",
            {"venue": {"venue": "White House", "city": "Washington"}},
        ),
        (
            "organizer[0][id]=12&organizer[1][organizer]=A",
            {"organizer": [{"id": "12"}, {"organizer": "A"}]},
        ),
        (
            "organizer[][id]=12&organizer[][organizer]=A",
            {"organizer": [{"id": "12"}, {"organizer": "A"}]},
        ),
        ("a[x][]=1&a[x][]=2&a[y]=3", {"a": {"x": ["1", "2"], "y": "3"}}),
        ("a[]=1&a[5]=2&a[]=3", {"a": ["1", "2", "3"]}),  # [] appends after the highest index
        ("a[]=1&a[x]=2", {"a": {"0": "1", "x": "2"}}),  # mixed keys stay an object
        ("title=A+%26+B&empty=&flag", {"title": "A & B", "empty": "", "flag": ""}),
        ("a[]", {"a": [""]}),
    ],
)
def test_php_bracket_notation(query: str, expected: dict[str, Any]) -> None:
    assert parse_query(query) == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("a=1&a=2", {"a": "2"}),
        ("a=1&a[]=2", {"a": ["2"]}),
        ("a[]=1&a=2", {"a": "2"}),
        ("a[x]=1&a[x]=2", {"a": {"x": "2"}}),
    ],
)
def test_later_values_win_like_php(query: str, expected: dict[str, Any]) -> None:
    assert parse_query(query) == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("a[b=1", {"a_b": "1"}),  # PHP: an unterminated bracket becomes "_"
        ("a[b]c=1", {"a": {"b": "1"}}),  # PHP ignores text after the last bracket
        ("=x&b=1", {"b": "1"}),  # no name: dropped
    ],
)
def test_malformed_keys(query: str, expected: dict[str, Any]) -> None:
    assert parse_query(query) == expected


def test_depth_limit_drops_only_the_too_deep_key() -> None:
    deepest = "a" + "[k]" * (MAX_DEPTH - 1)
    too_deep = "b" + "[k]" * MAX_DEPTH
    parsed = parse_query(f"{deepest}=x&{too_deep}=y&c=1")
    assert set(parsed) == {"a", "c"}
    node: Any = parsed["a"]
    for _ in range(MAX_DEPTH - 1):
        node = node["k"]
    assert node == "x"


def test_pairs_beyond_the_limit_are_ignored() -> None:
    pairs = [(f"p{i}", str(i)) for i in range(MAX_PARAMS + 5)]
    parsed = php_pairs_to_dict(pairs)
    assert len(parsed) == MAX_PARAMS
    assert parsed[f"p{MAX_PARAMS - 1}"] == str(MAX_PARAMS - 1)
    assert f"p{MAX_PARAMS}" not in parsed


def test_php_pairs_to_dict_takes_decoded_pairs() -> None:
    pairs = [("venue[city]", "Paris"), ("tags[]", "a,b"), ("tags[]", "c")]
    assert php_pairs_to_dict(pairs) == {"venue": {"city": "Paris"}, "tags": ["a,b", "c"]}


def test_bytes_with_invalid_utf8_do_not_fail() -> None:
    assert parse_query(b"a=%ff&b=ok") == {"a": "\ufffd", "b": "ok"}
    assert parse_query(b"title=caf%C3%A9") == {"title": "café"}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("0=a", {"0": "a"}),
        ("1=x&2=y", {"1": "x", "2": "y"}),
        ("0[x]=1", {"0": {"x": "1"}}),
    ],
)
def test_numeric_top_level_names_are_plain_parameters(query: str, expected: dict[str, Any]) -> None:
    # PHP: $_GET["0"] === "a". Any client can send "?0=a"; it must not crash the request.
    assert parse_query(query) == expected


# --- JSON bodies -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            b'{"title": "A", "venue": {"city": "Paris"}, "tags": [1, 2]}',
            {"title": "A", "venue": {"city": "Paris"}, "tags": [1, 2]},
        ),
        (b'{"a": 1, "a": 2}', {"a": 2}),
        (b'{"a": null}', {"a": None}),
        (b"[1, 2]", {}),
        (b'"text"', {}),
        (b"12", {}),
        (b"null", {}),
        (b"true", {}),
        (b"", {}),
        (b"  \n ", {}),
    ],
)
def test_parse_json_body(body: bytes, expected: dict[str, Any]) -> None:
    assert parse_json_body(body) == expected


@pytest.mark.parametrize("body", [b"{bad", b'{"a": 1,}', b"\xff", b"{'a': 1}", b"NaN", b"1e400"])
def test_malformed_json_raises_body_error(body: bytes) -> None:
    with pytest.raises(BodyError):
        parse_json_body(body)


# --- precedence ------------------------------------------------------------------------------


def test_merge_sources_first_source_wins() -> None:
    json_body = {"title": "from json"}
    form = {"title": "from form", "status": "draft"}
    query = {"title": "from query", "status": "publish", "page": "2"}
    assert merge_sources(json_body, form, query) == {
        "title": "from json",
        "status": "draft",
        "page": "2",
    }


def test_merge_sources_null_counts_as_absent() -> None:
    assert merge_sources({"a": None, "b": None}, {"a": "query"}) == {"a": "query"}


def test_merge_sources_keeps_falsy_values() -> None:
    assert merge_sources({"a": "", "b": 0, "c": False, "d": []}, {"a": "x", "b": 1}) == {
        "a": "",
        "b": 0,
        "c": False,
        "d": [],
    }


@pytest.mark.parametrize(
    ("content_type", "json", "form"),
    [
        ("application/json", True, False),
        ("application/json; charset=UTF-8", True, False),
        ("APPLICATION/JSON", True, False),
        ("application/merge-patch+json", True, False),
        ("text/json", False, False),
        ("application/jsonp", False, False),
        ("application/x-www-form-urlencoded", False, True),
        ("Application/X-WWW-Form-Urlencoded; charset=utf-8", False, True),
        ("multipart/form-data; boundary=xyz", False, False),
        ("text/plain", False, False),
        ("", False, False),
    ],
)
def test_content_types(content_type: str, json: bool, form: bool) -> None:
    assert is_json_type(content_type) is json
    assert is_form_type(content_type) is form

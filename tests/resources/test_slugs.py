"""Slug normalisation like WordPress ``sanitize_title`` (spec README §8) and slug suffixes."""

from __future__ import annotations

import pytest

from eventcal.resources.slugs import (
    MAX_SLUG_LENGTH,
    TRASH_SUFFIX,
    numbered,
    sanitize_slug,
    trashed,
    untrashed,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hello World", "hello-world"),
        ("UPPER case", "upper-case"),
        ("Héllo Wörld", "hello-world"),
        ("Ünïcödé", "unicode"),
        ("Straße", "strasse"),
        ("Ærøskøbing", "aeroskobing"),
        ("Москва", "moskva"),
        ("It's", "its"),
        ("It\u2019s mine", "its-mine"),
        ("\u2018quoted\u2019", "quoted"),
        ('"quoted"', "quoted"),
        ("Rock & Roll", "rock-roll"),
        ("Rock &amp; Roll", "rock-roll"),
        ("foo_bar", "foo_bar"),
        ("Snake_Case", "snake_case"),
        ("a.b", "a-b"),
        ("a/b\\c", "a-b-c"),
        ("100% Pure", "100-pure"),
        ("Hello!!!World", "hello-world"),
        ("multiple   spaces", "multiple-spaces"),
        ("tab\tand\nnewline", "tab-and-newline"),
        ("a--b", "a-b"),
        ("  --Hi--  ", "hi"),
        ("émoji 🎉 party", "emoji-party"),
        ("already-a-slug", "already-a-slug"),
        ("", ""),
        ("   ", ""),
        ("!!!", ""),
    ],
)
def test_sanitize_slug(text: str, expected: str) -> None:
    assert sanitize_slug(text) == expected


def test_sanitize_slug_is_idempotent() -> None:
    once = sanitize_slug("Ça c'est l'Été — 2024!")
    assert once == "ca-cest-lete-2024"
    assert sanitize_slug(once) == once


def test_sanitize_slug_caps_the_length() -> None:
    assert sanitize_slug("a" * 250) == "a" * MAX_SLUG_LENGTH


def test_sanitize_slug_does_not_end_with_a_dash_after_cutting() -> None:
    slug = sanitize_slug("ab-" * 100)
    assert len(slug) <= MAX_SLUG_LENGTH
    assert not slug.endswith("-")
    assert slug.startswith("ab-ab-")


@pytest.mark.parametrize(
    ("base", "number", "expected"),
    [
        ("event", 2, "event-2"),
        ("event", 10, "event-10"),
        ("event-2", 2, "event-2-2"),
    ],
)
def test_numbered(base: str, number: int, expected: str) -> None:
    assert numbered(base, number) == expected


@pytest.mark.parametrize("number", [2, 10, 100])
def test_numbered_shortens_a_long_base_so_the_suffix_fits(number: int) -> None:
    slug = numbered("a" * MAX_SLUG_LENGTH, number)
    assert len(slug) == MAX_SLUG_LENGTH
    assert slug.endswith(f"a-{number}")


def test_numbered_does_not_leave_a_double_dash_after_cutting() -> None:
    base = "a" * (MAX_SLUG_LENGTH - 3) + "-bb"  # the cut lands right after the dash
    assert numbered(base, 10) == "a" * (MAX_SLUG_LENGTH - 3) + "-10"


def test_trashed_and_untrashed() -> None:
    assert trashed("event") == "event__trashed"
    assert untrashed("event__trashed") == "event"
    assert untrashed("event") == "event"


def test_trashed_is_idempotent_and_keeps_empty_slugs_empty() -> None:
    assert trashed("event__trashed") == "event__trashed"
    assert trashed("") == ""


def test_trashed_fits_the_length_limit() -> None:
    slug = trashed("a" * MAX_SLUG_LENGTH)
    assert len(slug) == MAX_SLUG_LENGTH
    assert slug == "a" * (MAX_SLUG_LENGTH - len(TRASH_SUFFIX)) + TRASH_SUFFIX

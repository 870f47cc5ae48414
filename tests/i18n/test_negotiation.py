"""Choosing a language from what clients send."""

from __future__ import annotations

import pytest

from eventcal.i18n import negotiate, normalize_language


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("de", "de"),
        ("DE", "de"),
        (" es ", "es"),
        ("de-AT", "de"),
        ("es_419", "es"),
        ("en-Latn-GB", "en"),
        ("fr", None),
        ("deu", None),
        ("", None),
        ("-de", None),
    ],
)
def test_normalize_language(value: str, expected: str | None) -> None:
    assert normalize_language(value) == expected


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("de", "de"),
        ("fr-CH, fr;q=0.9, es;q=0.8, de;q=0.7", "es"),
        ("de;q=0.5, es;q=0.5", "de"),
        ("es;q=0.4, de;q=0.5", "de"),
        ("de;q=0, en", "en"),
        ("*", None),
        ("fr, it", None),
        ("de;q=2", None),
        ("de;q=nan, es;q=0.1", "es"),
        ("de;q=bogus", None),
        (",,,;;;", None),
        ("x" * 5000 + ", de", None),
    ],
)
def test_negotiate(header: str, expected: str | None) -> None:
    assert negotiate(header) == expected

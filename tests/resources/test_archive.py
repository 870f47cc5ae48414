"""Archive links encode their parameters exactly as ``urlencode`` does (pairs are encoded once
per process and reused)."""

from __future__ import annotations

from urllib.parse import urlencode

from eventcal.resources.archive import _url

PAIRS = [
    ("start_date", "2026-11-24 00:00:00"),
    ("search", "Café & Bar = 100% +1"),
    ("categories[]", "jazz/blues"),
    ("tags[]", ""),
    ("page", "2"),
]


def test_links_are_encoded_as_urlencode_does() -> None:
    base = "http://example.test/wp-json/tribe/events/v1/events/"
    for _ in range(2):  # the second time from the encoded pairs kept
        assert _url(base, PAIRS) == f"{base}?{urlencode(PAIRS)}"
        assert _url(base, PAIRS[::-1]) == f"{base}?{urlencode(PAIRS[::-1])}"
    assert _url(base, []) == base

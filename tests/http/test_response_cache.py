"""The response cache counts what its entries hold (issue 14, item 4): keys (long query
strings are the client's to choose) and per-entry overhead, not only the bodies."""

from __future__ import annotations

import tracemalloc

import orjson

from eventcal.http.conditional import MAX_KEY_BYTES, Built, ResponseCache
from tests import factories
from tests.conftest import NS, Api


def test_distinct_long_keys_stay_within_the_bound() -> None:
    bound = 1024 * 1024
    cache = ResponseCache(max_bytes=bound)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(3000):
            query = f"search={i}&".encode() + b"x" * 3000
            body = orjson.dumps({"events": [], "total": 0})
            cache.put(
                ("/events", "/cal/events/v1/events", query, "en"), 1, Built(200, {}, body, "")
            )
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert cache.size <= bound
    assert 0 < len(cache) < 3000
    assert held < bound * 1.25, f"{held} bytes held for a bound of {bound}"


def test_a_response_to_a_huge_key_is_not_kept(api: Api) -> None:
    api.run(lambda: factories.make_event(api.database, "Kept"))
    cache = api.client.app.state.runtime.cache  # type: ignore[attr-defined]
    short = api.get(f"{NS}/events?search=Kept")
    assert short.status_code == 200
    assert len(cache) == 1
    long = api.get(f"{NS}/events?search=Kept&x=" + "y" * MAX_KEY_BYTES)
    assert long.status_code == 200
    assert long.json() == short.json()
    assert len(cache) == 1

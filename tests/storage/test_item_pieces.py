"""How the item cache keeps an item's JSON (issue 18's memory per entry): in pieces that join to
exactly the item's JSON, where what many items embed is one shared copy."""

from __future__ import annotations

import os
from typing import Any

import orjson
import pytest

from eventcal.resources.pieces import pieces
from eventcal.storage.itemcache import PIECE_OVERHEAD, ItemCache, Shared


def _venue(name: str) -> dict[str, Any]:
    return {"id": 7, "venue": name, "address": "y" * 300, "json_ld": {"@type": "Place"}}


def _event(event_id: int, venue: dict[str, Any], terms: list[dict[str, Any]]) -> dict[str, Any]:
    described = venue["json_ld"]
    return {
        "id": event_id,
        "title": f"Event {event_id} " + "x" * 200,
        "categories": terms,
        "tags": [],
        "venue": venue,
        "organizer": [],
        "json_ld": {"@type": "Event", "name": f"Event {event_id}", "location": described},
        "translations": ["en"],
    }


@pytest.mark.parametrize(
    "item",
    [
        {},
        {"id": 1, "title": "nothing embedded", "venue": []},
        {"venue": {"id": 1}},  # only a shared value
        {"a": 1, "venue": {"id": 1}},  # shared value last
        {"venue": {"id": 1}, "a": [1, 2]},  # shared value first
    ],
)
def test_pieces_join_to_the_items_json(item: dict[str, Any]) -> None:
    embedded = [v for v in item.values() if isinstance(v, dict)]
    parts, _ = pieces(item, embedded, ItemCache(1024 * 1024))
    assert b"".join(parts) == orjson.dumps(item)


def test_what_items_embed_is_kept_once() -> None:
    cache = ItemCache(1024 * 1024)
    hall = _venue("Hall")
    jazz, folk = {"id": 1, "name": "Jazz"}, {"id": 2, "name": "Folk"}
    shown = [hall, hall["json_ld"], jazz, folk]
    one, one_size = pieces(_event(1, hall, [jazz, folk]), shown, cache)
    two, _ = pieces(_event(2, hall, [jazz]), shown, cache)
    assert b"".join(one) == orjson.dumps(_event(1, hall, [jazz, folk]))
    assert b"".join(two) == orjson.dumps(_event(2, hall, [jazz]))
    venue_json, described_json = orjson.dumps(hall), orjson.dumps(hall["json_ld"])
    for wanted in (venue_json, described_json, orjson.dumps(jazz)):
        [first] = [p for p in one if p == wanted]
        [second] = [p for p in two if p == wanted]
        assert first is second  # one copy, whatever the number of items that embed it
    # An entry counts its own text, not what it shares: a venue ten times longer costs the
    # event's entry nothing more.
    longer = {**hall, "address": "y" * 3000}
    _, longer_size = pieces(_event(1, longer, [jazz, folk]), [longer, *shown[1:]], cache)
    assert longer_size == one_size


def test_shared_pieces_are_bounded_and_forgotten_when_no_entry_holds_them() -> None:
    shared = Shared(3 * (100 + PIECE_OVERHEAD))
    held = [shared.share(os.urandom(100)) for _ in range(2)]
    dropped = shared.share(os.urandom(100))
    assert dropped is not None and len(shared) == 3
    del dropped
    assert shared.share(os.urandom(100)) is not None  # room made: the unheld piece went
    assert len(shared) == 3 and all(piece is not None for piece in held)
    assert shared.share(os.urandom(100)) is None  # full of held pieces: the caller keeps its own
    assert shared.size <= shared.max_bytes


def test_without_room_to_share_an_entry_keeps_and_counts_its_own_copy() -> None:
    hall = _venue("Hall")
    item = _event(1, hall, [])
    roomy, roomy_size = pieces(item, [hall, hall["json_ld"]], ItemCache(1024 * 1024))
    full, full_size = pieces(item, [hall, hall["json_ld"]], ItemCache(1024))  # 32 B to share
    assert b"".join(full) == b"".join(roomy) == orjson.dumps(item)
    assert full_size >= roomy_size + len(orjson.dumps(hall))

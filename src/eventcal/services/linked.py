"""An event's venue and organizers as clients send them: ids, ``{"id": …}`` objects, lists,
CSV (organizers), or inline objects that create (or match) a venue/organizer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from eventcal.context import Call
from eventcal.errors import invalid
from eventcal.services import linked_posts
from eventcal.storage import queries as q
from eventcal.storage.db import Connection

MAX_LINKED = 100
MAX_ID = 2**31 - 1


@dataclass(frozen=True, slots=True)
class LinkedItem:
    """One linked venue/organizer: an existing id, or data for an inline one."""

    id: int | None = None
    data: Mapping[str, Any] | None = None


def _digits(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _as_id(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 0 < value <= MAX_ID else None
    if isinstance(value, str) and _digits(value.strip()):
        number = int(value.strip())
        return number if 0 < number <= MAX_ID else None
    return None


def _is_empty(value: Any) -> bool:
    return value in (0, "0", "", [], {}) and not isinstance(value, bool)


def parse_linked(value: Any, *, allow_csv: bool) -> list[LinkedItem] | None:
    """The items a value names; ``[]`` means "none" (clears the link); None means invalid."""
    if _is_empty(value):
        return []
    raw: list[Any]
    if isinstance(value, list):
        raw = value
    elif isinstance(value, str) and "," in value:
        if not allow_csv:
            return None
        raw = [part.strip() for part in value.split(",") if part.strip()]
    else:
        raw = [value]
    if len(raw) > MAX_LINKED:
        return None
    items: list[LinkedItem] = []
    for entry in raw:
        if isinstance(entry, Mapping):
            if "id" in entry and entry["id"] not in (None, ""):
                item_id = _as_id(entry["id"])
                if item_id is None:
                    return None
                items.append(LinkedItem(id=item_id))
            else:
                items.append(LinkedItem(data=dict(entry)))
            continue
        if _is_empty(entry):
            continue
        item_id = _as_id(entry)
        if item_id is None:
            return None
        items.append(LinkedItem(id=item_id))
    return items


async def missing_ids(conn: Connection, kind: str, items: Sequence[LinkedItem]) -> bool:
    """True when some id does not name an existing venue/organizer (any status)."""
    ids = sorted({i.id for i in items if i.id is not None})
    if not ids:
        return False
    stmt = q.EXISTING_VENUE_IDS if kind == "venue" else q.EXISTING_ORGANIZER_IDS
    return len(await q.existing_ids(conn, stmt, ids)) != len(ids)


async def _resolve(
    call: Call, kind: linked_posts.LinkedKind, items: Sequence[LinkedItem]
) -> list[int]:
    """Ids in the order given, duplicates removed; inline objects are created or matched."""
    ids: list[int] = []
    for item in items:
        item_id = item.id
        if item_id is None:
            assert item.data is not None
            item_id = await linked_posts.create_inline(call, kind, item.data)
        if item_id not in ids:
            ids.append(item_id)
    return ids


async def resolve_venues(call: Call, items: Sequence[LinkedItem]) -> list[int]:
    """The venue of an event write (at most one)."""
    ids = await _resolve(call, linked_posts.VENUE, items)
    if len(ids) > 1:
        raise invalid("venue", "An event can have only one venue.")
    return ids


async def resolve_organizers(call: Call, items: Sequence[LinkedItem]) -> list[int]:
    """The organizers of an event write, in the order given."""
    return await _resolve(call, linked_posts.ORGANIZER, items)


async def set_event_organizers(
    conn: Connection, event_id: int, organizer_ids: Sequence[int]
) -> None:
    """Replace the organizers of an event, keeping the given order."""
    await conn.execute(q.UNLINK_ALL_ORGANIZERS, {"event_id": event_id})
    if organizer_ids:
        await conn.execute_many(
            q.LINK_ORGANIZER,
            [
                {"event_id": event_id, "organizer_id": oid, "position": pos}
                for pos, oid in enumerate(organizer_ids)
            ],
        )

"""Organizers (the collection routes come with their own issue; events link them already)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from eventcal.errors import invalid
from eventcal.services.context import Call


async def create_inline(call: Call, data: Mapping[str, Any]) -> int:
    """Create or match a organizer from an object given inside an event write."""
    del call, data
    raise invalid(
        "organizer", "Inline organizer objects are not supported yet; send a organizer id."
    )


def inline_is_valid(data: Mapping[str, Any]) -> bool:
    """An inline organizer object needs at least its name (the ``organizer`` field)."""
    name = data.get("organizer")
    return isinstance(name, str) and bool(name.strip())

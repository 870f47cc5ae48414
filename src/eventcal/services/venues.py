"""Venues (the collection routes come with their own issue; events link them already)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from eventcal.errors import invalid
from eventcal.services.context import Call


async def create_inline(call: Call, data: Mapping[str, Any]) -> int:
    """Create or match a venue from an object given inside an event write."""
    del call, data
    raise invalid("venue", "Inline venue objects are not supported yet; send a venue id.")


def inline_is_valid(data: Mapping[str, Any]) -> bool:
    """An inline venue object needs at least its name (the ``venue`` field)."""
    name = data.get("venue")
    return isinstance(name, str) and bool(name.strip())

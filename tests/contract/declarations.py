"""Test data of every declared collection: what the contract suite cannot read from the
declaration. A collection in ``REGISTRY`` without an entry here fails the suite until it gets
one. Everything else (fields, columns, translations, permissions, routes, messages) is read from
the collection's :class:`~eventcal.resources.spec.Resource`."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

from PIL import Image


@dataclass(frozen=True)
class Declared:
    create: dict[str, Any]
    """A valid create payload (values given as the API shows and stores them)."""
    update: dict[str, Any]
    """A valid partial update: fields not sent keep their values."""
    invalid: tuple[tuple[str, Any], ...]
    """``(parameter, value)`` pairs each refused with a 400 naming the parameter."""
    list_query: dict[str, str] = field(default_factory=dict)
    """Query parameters under which every created item is listed (terms hide empty ones)."""
    upload: tuple[str, bytes] | None = None
    """A file (name, bytes) every create sends (media): creates are multipart forms then."""


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), (200, 30, 30)).save(out, "PNG")
    return out.getvalue()


DECLARATIONS: dict[str, Declared] = {
    "events": Declared(
        create={
            "title": "Harbour Night",
            "description": "<p>Music by the water</p>",
            "excerpt": "<p>Music</p>",
            "status": "publish",
            "start_date": "2026-12-05 19:00:00",
            "end_date": "2026-12-05 22:00:00",
            "featured": True,
            "ticketed": True,
        },
        update={"title": "Harbour Night Revisited", "featured": False},
        invalid=(
            ("start_date", "not a date"),
            ("status", "auto-draft"),
            ("website", "javascript://x"),
            ("featured", "maybe"),
            ("event_status", "happening"),
        ),
    ),
    "venues": Declared(
        create={"venue": "Main Hall", "status": "publish", "city": "Lisbon", "phone": "555 0100"},
        update={"city": "Porto"},
        invalid=(("website", "javascript://x"), ("latitude", "north"), ("status", "auto-draft")),
    ),
    "organizers": Declared(
        create={
            "organizer": "Harbour Crew",
            "status": "publish",
            "email": "crew@example.org",
            "phone": "555 0100",
        },
        update={"phone": "555 0199"},
        invalid=(("email", ["not", "text"]), ("website", "javascript://x")),
    ),
    "categories": Declared(
        create={"name": "Concerts", "description": "Live music"},
        update={"description": "Loud music"},
        invalid=(("parent", "first"), ("slug", ["a"])),
        list_query={"hide_empty": "false"},
    ),
    "tags": Declared(
        create={"name": "Outdoors", "description": "Under the sky"},
        update={"description": "Under the open sky"},
        invalid=(("name", ["a"]), ("slug", ["a"])),
        list_query={"hide_empty": "false"},
    ),
    "media": Declared(
        create={"title": "Harbour poster", "alt_text": "A red square", "caption": "Poster"},
        update={"caption": "The poster"},
        invalid=(("post", "first"), ("title", ["a"]), ("alt_text", {"a": 1})),
        upload=("poster.png", _png()),
    ),
}

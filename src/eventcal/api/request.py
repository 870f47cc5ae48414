"""Per-request state shared by argument parsers and handlers."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from eventcal.services.context import Call, Site, Urls
from eventcal.services.permissions import Actor
from eventcal.storage.db import Connection


@dataclass(slots=True)
class RequestState:
    """What a request carries from the router to parsers and handlers."""

    method: str
    path_params: dict[str, str]
    query: dict[str, Any]
    actor: Actor
    site: Site
    urls: Urls
    now: datetime
    conn: Connection
    language: str = "en"
    headers: dict[str, str] = field(default_factory=dict)
    if_match: str | None = None
    """The ``If-Match`` header of a write: it applies only to the revision named there."""

    @property
    def call(self) -> Call:
        return Call(
            conn=self.conn,
            actor=self.actor,
            site=self.site,
            urls=self.urls,
            now=self.now,
            language=self.language,
        )

    @property
    def context_edit(self) -> bool:
        return self.query.get("context") == "edit"

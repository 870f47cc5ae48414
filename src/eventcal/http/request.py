"""Per-request state shared by argument parsers and handlers."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from eventcal.context import Call, Site, Urls
from eventcal.permissions import Actor
from eventcal.storage.db import Connection


@dataclass(slots=True)
class RequestState:
    """What a request carries from the router to parsers and handlers: the service call
    (connection, caller, site, URLs, clock, language) and what only HTTP knows."""

    method: str
    path_params: dict[str, str]
    query: dict[str, Any]
    """Every parameter of the request (body fields included), as sent."""
    call: Call
    if_match: str | None = None
    """The ``If-Match`` header of a write: it applies only to the revision named there."""

    @property
    def conn(self) -> Connection:
        return self.call.conn

    @property
    def actor(self) -> Actor:
        return self.call.actor

    @property
    def site(self) -> Site:
        return self.call.site

    @property
    def urls(self) -> Urls:
        return self.call.urls

    @property
    def now(self) -> datetime:
        return self.call.now

    @property
    def language(self) -> str:
        return self.call.language

    @property
    def context_edit(self) -> bool:
        return self.query.get("context") == "edit"

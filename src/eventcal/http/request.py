"""Per-request state shared by argument parsers and handlers."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from eventcal.context import Call, Site, Urls
from eventcal.http.multipart import Upload
from eventcal.permissions import Actor
from eventcal.storage.db import Connection

if TYPE_CHECKING:
    from eventcal.http.router import Route


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
    files: dict[str, Upload] = field(default_factory=dict)
    """Files of a multipart body, by part name (only endpoints with ``accepts_files``)."""

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


@dataclass(slots=True)
class Matched:
    """A request matched to a route: what serving it needs besides the request."""

    route: Route
    path_params: dict[str, str]
    method: str
    actor: Actor
    site: Site
    urls: Urls
    now: datetime
    headers: dict[str, str]
    registry: Any = None
    """Every collection (handed to services in each call; HTTP does not look at it)."""

    def state(self, raw: dict[str, Any], conn: Any, language: str) -> RequestState:
        call = Call(conn, self.actor, self.site, self.urls, self.now, self.registry, language)
        return RequestState(self.method, self.path_params, raw, call)

"""Who is calling: HTTP Basic credentials (a user's login and application password).

The protocol part lives here; checking the credentials is the accounts domain's, handed to the
router as a :data:`LogIn` function.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Awaitable, Callable

from starlette.requests import Request

from eventcal.http.client import Network, client_address
from eventcal.permissions import ANONYMOUS, Actor

LogIn = Callable[[str, str, str], Awaitable[Actor]]
"""``(login, password, client address) → the caller``; raises the errors to answer (401,
429)."""


def basic_credentials(header: str | None) -> tuple[str, str] | None:
    """``(login, password)`` of an ``Authorization: Basic …`` header, or None for anything
    else (no header, another scheme, bad base64 or UTF-8, no colon): such callers are
    anonymous, as in WordPress. So are credentials with control characters (NUL and the
    like): no login or password holds one, and PostgreSQL text cannot hold a NUL."""
    if not header or header[:6].lower() != "basic ":
        return None
    try:
        decoded = base64.b64decode(header[6:].strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    if not decoded.isprintable():
        return None
    login, sep, password = decoded.partition(":")
    return (login, password) if sep else None


async def authenticate(
    request: Request, log_in: LogIn, trusted_proxies: tuple[Network, ...]
) -> Actor:
    """The caller of a request: anonymous without credentials, else the user they name."""
    credentials = basic_credentials(request.headers.get("authorization"))
    if credentials is None:
        return ANONYMOUS
    login, password = credentials
    return await log_in(login, password, client_address(request, trusted_proxies))

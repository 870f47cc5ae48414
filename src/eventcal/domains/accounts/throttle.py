"""Brute-force protection for logins: failed attempts counted per login and per client address.

The counts live in the database (``login_throttle``), so every server process sees the same
ones. A window starts at a subject's first failure; once a subject has as many failures as the
policy allows, every further attempt (the right password too) is refused with 429 until the
window ends. An attempt that needs a password check is counted *before* the check and forgiven
when it succeeds, so parallel guesses cannot outrun the limit. A success forgives only its own
attempt: it never clears failures other attempts left, from this address or any other.
"""

from __future__ import annotations

import asyncio
import ipaddress
import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from eventcal.errors import ApiError
from eventcal.storage.db import Connection, as_utc
from eventcal.storage.service_tables import UtcDateTime, login_throttle

LOGIN = "login"
ADDRESS = "address"
MAX_SUBJECT = 100


@dataclass(frozen=True, slots=True)
class LoginPolicy:
    """How many failed logins are allowed, and what happens after them."""

    max_failures_per_login: int = 10
    max_failures_per_address: int = 30
    window: timedelta = timedelta(minutes=15)
    failure_delay: float = 0.5
    """Seconds a failed attempt waits before it is answered."""
    trusted_proxies: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = ()
    """Proxies whose ``X-Forwarded-For`` names the client (used by the HTTP layer)."""

    def limit(self, scope: str) -> int:
        return self.max_failures_per_login if scope == LOGIN else self.max_failures_per_address


@dataclass(frozen=True, slots=True)
class Attempt:
    """What one login attempt counts against."""

    login: str
    address: str

    @property
    def subjects(self) -> dict[str, str]:
        return {LOGIN: self.login[:MAX_SUBJECT], ADDRESS: address_subject(self.address)}


@dataclass(frozen=True, slots=True)
class Reservation:
    """The windows an attempt was counted in (to forgive it when it succeeds)."""

    attempt: Attempt
    windows: dict[str, Any]


def address_subject(address: str) -> str:
    """The counted form of a client address: IPv6 clients by their /64 network (one host
    usually has all of it), IPv4-mapped IPv6 as IPv4."""
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return address.strip()[:MAX_SUBJECT]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


_COUNTS = sa.select(
    login_throttle.c.scope, login_throttle.c.failures, login_throttle.c.window_started_at
).where(
    sa.or_(
        sa.and_(login_throttle.c.scope == LOGIN, login_throttle.c.subject == sa.bindparam("login")),
        sa.and_(
            login_throttle.c.scope == ADDRESS,
            login_throttle.c.subject == sa.bindparam("address"),
        ),
    )
)


def _count_failure(insert: Any) -> Any:
    """Insert a subject's first failure, or add one to its window (a new window when the old
    one has ended); returns the count and the window's start."""
    expired = login_throttle.c.window_started_at <= sa.bindparam("expired", type_=UtcDateTime)
    stmt = insert(login_throttle).values(
        scope=sa.bindparam("scope"),
        subject=sa.bindparam("subject"),
        failures=1,
        window_started_at=sa.bindparam("now", type_=UtcDateTime),
    )
    return stmt.on_conflict_do_update(
        index_elements=[login_throttle.c.scope, login_throttle.c.subject],
        set_={
            "failures": sa.case((expired, 1), else_=login_throttle.c.failures + 1),
            "window_started_at": sa.case(
                (expired, sa.bindparam("now", type_=UtcDateTime)),
                else_=login_throttle.c.window_started_at,
            ),
        },
    ).returning(login_throttle.c.failures, login_throttle.c.window_started_at)


_COUNT_FAILURE = {
    "sqlite": _count_failure(sqlite.insert),
    "postgresql": _count_failure(postgresql.insert),
}
_FORGIVE = (
    sa.update(login_throttle)
    .where(
        login_throttle.c.scope == sa.bindparam("scope"),
        login_throttle.c.subject == sa.bindparam("subject"),
        login_throttle.c.window_started_at == sa.bindparam("window", type_=UtcDateTime),
        login_throttle.c.failures > 0,
    )
    .values(failures=login_throttle.c.failures - 1)
)
_DELETE_ENDED = sa.delete(login_throttle).where(
    login_throttle.c.window_started_at <= sa.bindparam("expired", type_=UtcDateTime)
)


def _too_many(retry_after: timedelta) -> ApiError:
    seconds = max(1, math.ceil(retry_after.total_seconds()))
    return ApiError(
        "too_many_login_attempts",
        "Too many failed login attempts. Try again later.",
        429,
        headers={"Retry-After": str(seconds)},
    )


async def refuse_if_locked(
    conn: Connection, attempt: Attempt, now: datetime, policy: LoginPolicy
) -> None:
    """429 while the attempt's login or address has used up its failures in this window."""
    subjects = attempt.subjects
    rows = await conn.all(_COUNTS, {"login": subjects[LOGIN], "address": subjects[ADDRESS]})
    waits = [
        ends - now
        for row in rows
        if row["failures"] >= policy.limit(row["scope"])
        and (ends := as_utc(row["window_started_at"]) + policy.window) > now
    ]
    if waits:
        raise _too_many(max(waits))


async def count_attempt(
    conn: Connection, attempt: Attempt, now: datetime, policy: LoginPolicy
) -> Reservation:
    """Count an attempt as failed before its password is checked; 429 (and nothing counted,
    as the transaction rolls back) when that goes over a limit."""
    expired = now - policy.window
    statement = _COUNT_FAILURE[conn.dialect_name]
    windows: dict[str, Any] = {}
    waits: list[timedelta] = []
    new_window = False
    for scope, subject in attempt.subjects.items():
        row = await conn.first(
            statement, {"scope": scope, "subject": subject, "now": now, "expired": expired}
        )
        assert row is not None
        windows[scope] = row["window_started_at"]
        new_window = new_window or row["failures"] == 1
        if row["failures"] > policy.limit(scope):
            waits.append(as_utc(row["window_started_at"]) + policy.window - now)
    if waits:
        raise _too_many(max(waits))
    if new_window:
        # Rows of ended windows only matter until the next failure of their subject; clearing
        # them when a window starts keeps the table as small as the current attackers.
        await conn.execute(_DELETE_ENDED, {"expired": expired})
    return Reservation(attempt, windows)


async def forgive(conn: Connection, reservation: Reservation) -> None:
    """Take back an attempt counted by :func:`count_attempt` once its password proved right."""
    for scope, subject in reservation.attempt.subjects.items():
        await conn.execute(
            _FORGIVE, {"scope": scope, "subject": subject, "window": reservation.windows[scope]}
        )


async def slow_down(policy: LoginPolicy) -> None:
    """Wait before answering a failed attempt."""
    if policy.failure_delay > 0:
        await asyncio.sleep(policy.failure_delay)

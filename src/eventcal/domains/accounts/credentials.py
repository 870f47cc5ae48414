"""Credentials: application passwords (hashed with argon2id) and logging in with HTTP Basic,
under the brute-force limits of :mod:`.throttle`."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import string
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from eventcal.domains.accounts import throttle
from eventcal.errors import Unauthorized
from eventcal.permissions import Actor, Role
from eventcal.storage.db import Connection, Database, Row, as_utc
from eventcal.storage.tables import app_password, app_user

# OWASP's argon2id recommendation (19 MiB, 2 passes): about 30 ms per check here. Verified
# credentials are remembered per process (see _VerifiedCache), so only the first request of a
# client in each process pays it.
_HASHER = PasswordHasher(time_cost=2, memory_cost=19_456, parallelism=1)
_ALPHABET = string.ascii_letters + string.digits
APPLICATION_PASSWORD_LENGTH = 24
MAX_LOGIN = 60
MAX_PASSWORD = 256
MAX_LABEL = 100
DEFAULT_LABEL = "default"


@dataclass(frozen=True, slots=True)
class User:
    id: int
    login: str
    role: Role

    def actor(self) -> Actor:
        return Actor(user_id=self.id, role=self.role, login=self.login)


def generate_application_password() -> str:
    """24 random letters and digits, shown in groups of four (spaces are ignored on use)."""
    raw = "".join(secrets.choice(_ALPHABET) for _ in range(APPLICATION_PASSWORD_LENGTH))
    return " ".join(raw[i : i + 4] for i in range(0, len(raw), 4))


def normalise_password(password: str) -> str:
    """Application passwords may be typed with the spaces they are shown with."""
    return password.replace(" ", "")


def hash_password(password: str) -> str:
    return _HASHER.hash(normalise_password(password))


class _VerifiedCache:
    """Credentials already verified in this process, keyed by the password's row id, its stored
    hash and a keyed digest of the presented password. Only successes are kept, and entries are
    looked up only for the rows a request has just read from the database: a revoked password
    (its row deleted, by this process or any other) can never be found here."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._key = secrets.token_bytes(32)
        self._entries: OrderedDict[tuple[int, str, bytes], None] = OrderedDict()

    def _digest(self, password: str) -> bytes:
        return hmac.new(self._key, password.encode(), hashlib.sha256).digest()

    def __contains__(self, item: tuple[Row, str]) -> bool:
        row, password = item
        key = (int(row["id"]), str(row["password_hash"]), self._digest(password))
        if key in self._entries:
            self._entries.move_to_end(key)
            return True
        return False

    def add(self, row: Row, password: str) -> None:
        self._entries[(int(row["id"]), str(row["password_hash"]), self._digest(password))] = None
        if len(self._entries) > self.size:
            self._entries.popitem(last=False)


_verified = _VerifiedCache()


def _verify(stored_hash: str, password: str) -> bool:
    try:
        return _HASHER.verify(stored_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def _unknown_user() -> Unauthorized:
    return Unauthorized(
        "invalid_username",
        "<strong>Error:</strong> Unknown username. Check again or try your email address.",
    )


def _incorrect_password() -> Unauthorized:
    return Unauthorized(
        "incorrect_password", "The provided password is an invalid application password."
    )


_CREDENTIALS = (
    sa.select(
        app_user.c.id.label("user_id"),
        app_user.c.login,
        app_user.c.role,
        app_password.c.id,
        app_password.c.password_hash,
        app_password.c.last_used_at,
    )
    .select_from(app_user.outerjoin(app_password, app_password.c.user_id == app_user.c.id))
    .where(app_user.c.login == sa.bindparam("login"))
)
"""The user with a login and each of their application passwords (a row with no password's
columns when they have none): one statement per request authenticated with HTTP Basic."""


async def _credentials(conn: Connection, login: str) -> tuple[User | None, list[Row]]:
    """The user with this login and the rows of their application passwords (``id``,
    ``password_hash``, ``last_used_at``)."""
    rows = await conn.all(_CREDENTIALS, {"login": login[:MAX_LOGIN]})
    if not rows:
        return None, []
    first = rows[0]
    user = User(int(first["user_id"]), str(first["login"]), Role(first["role"]))
    return user, [row for row in rows if row["id"] is not None]


async def _matching(rows: list[Row], password: str, *, cached_only: bool = False) -> Row | None:
    """The password row the (normalised) password belongs to: a verified one first, then by
    checking each hash (slow by design) unless ``cached_only``."""
    for row in rows:
        if (row, password) in _verified:
            return row
    if cached_only:
        return None
    for row in rows:
        if await asyncio.to_thread(_verify, str(row["password_hash"]), password):
            _verified.add(row, password)
            return row
    return None


_NOTE_USE = (
    sa.update(app_password)
    .where(app_password.c.id == sa.bindparam("id"))
    .values(last_used_at=sa.bindparam("now", type_=app_password.c.last_used_at.type))
)


def _first_use_today(row: Row, now: datetime) -> bool:
    """``last_used_at`` is kept to the day (one write a day at most, as WordPress does)."""
    last = row["last_used_at"]
    return last is None or as_utc(last).date() != now.astimezone(UTC).date()


async def authenticate(conn: Connection, login: str, password: str) -> User:
    """The user behind credentials, or 401 as the original answers (no throttling: scripts)."""
    user, rows = await _credentials(conn, login)
    if user is None:
        raise _unknown_user()
    if await _matching(rows, normalise_password(password)[:MAX_PASSWORD]) is None:
        raise _incorrect_password()
    return user


async def log_in(
    db: Database,
    login: str,
    password: str,
    *,
    address: str,
    now: datetime,
    policy: throttle.LoginPolicy,
) -> User:
    """The user behind HTTP Basic credentials: 401 as the original answers, 429 while the
    login or the client address has too many recent failures (see :mod:`.throttle`).

    Each step has its own short transaction, so a failure is recorded even on a GET; none of
    them changes the data version (nothing the API serves changes).
    """
    attempt = throttle.Attempt(login[:MAX_LOGIN], address)
    password = normalise_password(password)[:MAX_PASSWORD]
    async with db.read() as conn:
        await throttle.refuse_if_locked(conn, attempt, now, policy)
        user, rows = await _credentials(conn, attempt.login)
    row = await _matching(rows, password, cached_only=True)
    if user is not None and row is not None:
        await _note_use(db, row, now)
        return user
    # One password check per login at a time in this process: a burst of requests with the
    # same right credentials costs one check (the others find it verified) and cannot run the
    # attempt count up to the limit; guesses are serialised too.
    async with _check_lock(attempt.login):
        row = await _matching(rows, password, cached_only=True)
        if user is not None and row is not None:
            await _note_use(db, row, now)
            return user
        async with db.transaction(versioned=False) as conn:
            reservation = await throttle.count_attempt(conn, attempt, now, policy)
        row = await _matching(rows, password) if user is not None else None
        if user is None or row is None:
            await throttle.slow_down(policy)
            raise _unknown_user() if user is None else _incorrect_password()
        async with db.transaction(versioned=False) as conn:
            await throttle.forgive(conn, reservation)
            if _first_use_today(row, now):
                await conn.execute(_NOTE_USE, {"id": row["id"], "now": now})
    return user


_CHECKS: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()


def _check_lock(login: str) -> asyncio.Lock:
    lock = _CHECKS.get(login)
    if lock is None:
        lock = _CHECKS[login] = asyncio.Lock()
    return lock


async def _note_use(db: Database, row: Row, now: datetime) -> None:
    if _first_use_today(row, now):
        async with db.transaction(versioned=False) as conn:
            await conn.execute(_NOTE_USE, {"id": row["id"], "now": now})

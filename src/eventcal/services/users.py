"""Users, roles and application passwords (HTTP Basic credentials, stored hashed)."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import string
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from eventcal.errors import ApiError, Unauthorized
from eventcal.services.permissions import Actor, Role
from eventcal.storage import queries as q
from eventcal.storage.db import Connection, UniqueViolation
from eventcal.storage.tables import app_password, app_user

# OWASP's argon2id recommendation (19 MiB, 2 passes): about 30 ms per check here. Verified
# credentials are remembered per process (see _VerifiedCache), so only the first request of a
# client pays it.
_HASHER = PasswordHasher(time_cost=2, memory_cost=19_456, parallelism=1)
_ALPHABET = string.ascii_letters + string.digits
APPLICATION_PASSWORD_LENGTH = 24
MAX_LOGIN = 60
MAX_PASSWORD = 256
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
    """Credentials already verified in this process, keyed by the stored hash and a digest of
    the presented password. Only successes are kept; revoking a password deletes its hash, so a
    revoked credential can never be found here. A pure cache: no other process needs it."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._key = secrets.token_bytes(32)
        self._entries: OrderedDict[tuple[str, bytes], None] = OrderedDict()

    def _digest(self, password: str) -> bytes:
        return hmac.new(self._key, password.encode(), hashlib.sha256).digest()

    def __contains__(self, item: tuple[str, str]) -> bool:
        key = (item[0], self._digest(item[1]))
        if key in self._entries:
            self._entries.move_to_end(key)
            return True
        return False

    def add(self, stored_hash: str, password: str) -> None:
        self._entries[(stored_hash, self._digest(password))] = None
        if len(self._entries) > self.size:
            self._entries.popitem(last=False)


_verified = _VerifiedCache()


def _verify(stored_hash: str, password: str) -> bool:
    try:
        return _HASHER.verify(stored_hash, password)
    except (VerificationError, InvalidHashError):
        return False


async def authenticate(conn: Connection, login: str, password: str) -> User:
    """The user behind HTTP Basic credentials, or 401 as the original answers."""
    row = await conn.first(q.USER_BY_LOGIN, {"login": login[:MAX_LOGIN]})
    if row is None:
        raise Unauthorized(
            "invalid_username",
            "<strong>Error:</strong> Unknown username. Check again or try your email address.",
        )
    password = normalise_password(password)[:MAX_PASSWORD]
    hashes = [
        str(r["password_hash"]) for r in await conn.all(q.PASSWORDS_OF_USER, {"user_id": row["id"]})
    ]
    for stored in hashes:
        if (stored, password) in _verified:
            return User(int(row["id"]), str(row["login"]), Role(row["role"]))
    for stored in hashes:
        if await asyncio.to_thread(_verify, stored, password):
            _verified.add(stored, password)
            return User(int(row["id"]), str(row["login"]), Role(row["role"]))
    raise Unauthorized(
        "incorrect_password", "The provided password is an invalid application password."
    )


async def user_exists(conn: Connection, user_id: int) -> bool:
    return await conn.first(q.USER_BY_ID, {"id": user_id}) is not None


_INSERT_USER = (
    sa.insert(app_user)
    .values(
        login=sa.bindparam("login"),
        role=sa.bindparam("role"),
        display_name=sa.bindparam("login"),
        created_at=sa.bindparam("created_at"),
    )
    .returning(app_user.c.id)
)
_INSERT_PASSWORD = sa.insert(app_password).values(
    user_id=sa.bindparam("user_id"),
    label=sa.bindparam("label"),
    password_hash=sa.bindparam("password_hash"),
    created_at=sa.bindparam("created_at"),
)


def validate_login(login: str) -> str:
    login = login.strip()
    allowed = set(string.ascii_letters + string.digits + "_.-@")
    if not login or len(login) > MAX_LOGIN or not set(login) <= allowed:
        raise ApiError(
            "invalid_login",
            "A user name is 1 to 60 letters, digits, or the characters _ . - @.",
            400,
        )
    return login


async def add_user(
    conn: Connection,
    *,
    login: str,
    role: Role,
    now: datetime,
    password: str | None = None,
    label: str = DEFAULT_LABEL,
) -> tuple[int, str]:
    """Create a user and an application password; returns the id and the password in clear."""
    login = validate_login(login)
    secret = password if password is not None else generate_application_password()
    if not normalise_password(secret) or len(secret) > MAX_PASSWORD:
        raise ApiError("invalid_password", "The password must not be empty.", 400)
    password_hash = await asyncio.to_thread(hash_password, secret)
    try:
        async with conn.savepoint():
            user_id = int(
                await conn.scalar(
                    _INSERT_USER, {"login": login, "role": role.value, "created_at": now}
                )
            )
    except UniqueViolation:
        raise ApiError("existing_user_login", "Sorry, that username already exists!", 400) from None
    await conn.execute(
        _INSERT_PASSWORD,
        {"user_id": user_id, "label": label, "password_hash": password_hash, "created_at": now},
    )
    return user_id, secret

"""Users, roles and application passwords (HTTP Basic credentials, stored hashed)."""

from __future__ import annotations

import asyncio
import string
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa

# OWASP's argon2id recommendation (19 MiB, 2 passes): about 30 ms per check here. Verified
# credentials are remembered per process (see _VerifiedCache), so only the first request of a
# client in each process pays it.
from eventcal.domains.accounts.credentials import (
    DEFAULT_LABEL,
    MAX_LABEL,
    MAX_LOGIN,
    MAX_PASSWORD,
    User,
    generate_application_password,
    hash_password,
    normalise_password,
)
from eventcal.errors import ApiError, NotFound
from eventcal.permissions import Role
from eventcal.storage import queries as q
from eventcal.storage.db import Connection, UniqueViolation, as_utc
from eventcal.storage.tables import app_password, app_user, event, organizer, venue

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


async def _hashed_secret(password: str | None) -> tuple[str, str]:
    """The password in clear (generated when not given) and its hash."""
    secret = password if password is not None else generate_application_password()
    if not normalise_password(secret):
        raise ApiError("invalid_password", "The password must not be empty.", 400)
    if len(secret) > MAX_PASSWORD:
        raise ApiError(
            "invalid_password",
            "The password must not be longer than {max} characters.",
            400,
            max=MAX_PASSWORD,
        )
    return secret, await asyncio.to_thread(hash_password, secret)


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
    secret, password_hash = await _hashed_secret(password)
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


# --- management (the ``eventcal user`` commands) ----------------------------------------------


@dataclass(frozen=True, slots=True)
class PasswordInfo:
    """An application password as it may be shown: never its secret or hash."""

    label: str
    created_at: datetime
    last_used_at: datetime | None


@dataclass(frozen=True, slots=True)
class UserInfo:
    user: User
    passwords: list[PasswordInfo]


_ALL_USERS = sa.select(app_user).order_by(app_user.c.id)
_ALL_PASSWORDS = sa.select(
    app_password.c.user_id,
    app_password.c.label,
    app_password.c.created_at,
    app_password.c.last_used_at,
).order_by(app_password.c.user_id, app_password.c.created_at, app_password.c.id)
_SET_ROLE = (
    sa.update(app_user).where(app_user.c.id == sa.bindparam("id")).values(role=sa.bindparam("role"))
)
_DELETE_PASSWORDS = sa.delete(app_password).where(app_password.c.user_id == sa.bindparam("id"))
_DELETE_USER = sa.delete(app_user).where(app_user.c.id == sa.bindparam("id"))
_DELETE_PASSWORD = sa.delete(app_password).where(
    app_password.c.user_id == sa.bindparam("user_id"),
    app_password.c.label == sa.bindparam("label"),
)
_AUTHORED = sa.select(
    sa.select(sa.func.count()).where(event.c.author_id == sa.bindparam("id")).scalar_subquery()
    + sa.select(sa.func.count()).where(venue.c.author_id == sa.bindparam("id")).scalar_subquery()
    + sa.select(sa.func.count())
    .where(organizer.c.author_id == sa.bindparam("id"))
    .scalar_subquery()
)


def parse_role(value: str) -> Role:
    """The role named ``value``, or an error listing the roles."""
    try:
        return Role(value.strip().lower())
    except ValueError:
        raise ApiError(
            "invalid_role",
            "Unknown role {role}; the roles are {roles}.",
            400,
            role=value,
            roles=", ".join(Role),
        ) from None


async def get_user(conn: Connection, login: str) -> User:
    """The user with this login, or 404."""
    row = await conn.first(q.USER_BY_LOGIN, {"login": login[:MAX_LOGIN]})
    if row is None:
        raise NotFound("unknown_user", "There is no user {login}.", login=login)
    return User(int(row["id"]), str(row["login"]), Role(row["role"]))


async def list_users(conn: Connection) -> list[UserInfo]:
    """Every user, by id, with their application passwords (labels and dates only)."""
    passwords: dict[int, list[PasswordInfo]] = {}
    for row in await conn.all(_ALL_PASSWORDS):
        last_used = row["last_used_at"]
        passwords.setdefault(int(row["user_id"]), []).append(
            PasswordInfo(
                str(row["label"]),
                as_utc(row["created_at"]),
                None if last_used is None else as_utc(last_used),
            )
        )
    return [
        UserInfo(User(int(r["id"]), str(r["login"]), Role(r["role"])), passwords.get(r["id"], []))
        for r in await conn.all(_ALL_USERS)
    ]


async def set_role(conn: Connection, login: str, role: Role) -> User:
    """Give a user another role (it applies from their next request)."""
    user = await get_user(conn, login)
    await conn.execute(_SET_ROLE, {"id": user.id, "role": role.value})
    return User(user.id, user.login, role)


async def remove_user(conn: Connection, login: str) -> tuple[User, int]:
    """Delete a user and their application passwords; the items they wrote stay, without an
    author. Returns the user and how many items they had written."""
    user = await get_user(conn, login)
    authored = int(await conn.scalar(_AUTHORED, {"id": user.id}) or 0)
    await conn.execute(_DELETE_PASSWORDS, {"id": user.id})
    await conn.execute(_DELETE_USER, {"id": user.id})
    return user, authored


def _validate_label(label: str) -> str:
    label = label.strip()
    if not label or len(label) > MAX_LABEL:
        raise ApiError("invalid_label", "A label is 1 to {max} characters.", 400, max=MAX_LABEL)
    return label


async def add_password(
    conn: Connection,
    login: str,
    *,
    now: datetime,
    label: str | None = None,
    password: str | None = None,
) -> tuple[str, str]:
    """Give a user one more application password; returns its label and the password in
    clear (shown once: only its hash is kept). The label defaults to ``password-N``."""
    user = await get_user(conn, login)
    if label is None:
        taken = {str(r["label"]) for r in await conn.all(q.PASSWORDS_OF_USER, {"user_id": user.id})}
        number = len(taken) + 1
        while f"password-{number}" in taken:
            number += 1
        label = f"password-{number}"
    label = _validate_label(label)
    secret, password_hash = await _hashed_secret(password)
    try:
        async with conn.savepoint():
            await conn.execute(
                _INSERT_PASSWORD,
                {
                    "user_id": user.id,
                    "label": label,
                    "password_hash": password_hash,
                    "created_at": now,
                },
            )
    except UniqueViolation:
        raise ApiError(
            "existing_label",
            "User {login} already has an application password labelled {label}.",
            400,
            login=user.login,
            label=label,
        ) from None
    return label, secret


async def revoke_password(conn: Connection, login: str, label: str) -> None:
    """Delete one application password: requests using it are refused (401) from now on, in
    every process (verified credentials are only remembered for rows that still exist)."""
    user = await get_user(conn, login)
    if not await conn.execute(_DELETE_PASSWORD, {"user_id": user.id, "label": label}):
        raise NotFound(
            "unknown_application_password",
            "User {login} has no application password labelled {label}.",
            login=user.login,
            label=label,
        )

"""``eventcal user …``: users and their application passwords."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

from eventcal.cli.database import open_database
from eventcal.config import Settings
from eventcal.domains.accounts import users as user_service
from eventcal.domains.accounts.credentials import User
from eventcal.permissions import Role
from eventcal.storage.db import Connection

ROLES = "|".join(Role)


def register(commands: Any) -> None:
    user = commands.add_parser("user", help="manage users")
    user_commands = user.add_subparsers(dest="user_command", required=True)

    add = user_commands.add_parser("add", help="add a user and print its application password")
    add.add_argument("name")
    add.add_argument("--role", required=True, metavar=ROLES)
    add.add_argument("--password", help="use this password instead of a generated one")
    add.set_defaults(handler=run_add)

    listing = user_commands.add_parser(
        "list", help="list users, their roles and application passwords (never the secrets)"
    )
    listing.set_defaults(handler=run_list)

    set_role = user_commands.add_parser("set-role", help="give a user another role")
    set_role.add_argument("name")
    set_role.add_argument("role", metavar=ROLES)
    set_role.set_defaults(handler=run_set_role)

    remove = user_commands.add_parser(
        "remove", help="remove a user and their application passwords (their items stay)"
    )
    remove.add_argument("name")
    remove.set_defaults(handler=run_remove)

    password = user_commands.add_parser(
        "password", help="add an application password to a user and print it"
    )
    password.add_argument("name")
    password.add_argument("--label", help="its name (default: password-N)")
    password.add_argument("--password", help="use this password instead of a generated one")
    password.set_defaults(handler=run_password)

    revoke = user_commands.add_parser(
        "revoke", help="delete an application password (requests using it get 401 at once)"
    )
    revoke.add_argument("name")
    revoke.add_argument("label")
    revoke.set_defaults(handler=run_revoke)


@asynccontextmanager
async def transaction(settings: Settings) -> AsyncIterator[Connection]:
    """One write transaction on the configured database."""
    async with open_database(settings) as database, database.transaction() as conn:
        yield conn


def run_add(args: argparse.Namespace, settings: Settings) -> int:
    role = user_service.parse_role(args.role)

    async def add() -> tuple[int, str]:
        async with transaction(settings) as conn:
            return await user_service.add_user(
                conn, login=args.name, role=role, now=datetime.now(UTC), password=args.password
            )

    user_id, secret = asyncio.run(add())
    print(f"user {args.name} (id {user_id}, {role.value}) added; application password:")
    print(secret)
    return 0


def _day(moment: datetime | None) -> str:
    return "never" if moment is None else moment.date().isoformat()


def run_list(args: argparse.Namespace, settings: Settings) -> int:
    async def users() -> list[user_service.UserInfo]:
        async with open_database(settings) as database, database.read() as conn:
            return await user_service.list_users(conn)

    found = asyncio.run(users())
    for info in found:
        passwords = "; ".join(
            f"{p.label} (created {_day(p.created_at)}, last used {_day(p.last_used_at)})"
            for p in info.passwords
        )
        user = info.user
        print(f"{user.login}  id {user.id}  {user.role.value}  passwords: {passwords or 'none'}")
    if not found:
        print("no users")
    return 0


def run_set_role(args: argparse.Namespace, settings: Settings) -> int:
    role = user_service.parse_role(args.role)

    async def set_role() -> User:
        async with transaction(settings) as conn:
            return await user_service.set_role(conn, args.name, role)

    user = asyncio.run(set_role())
    print(f"user {user.login} (id {user.id}) is now {user.role.value}")
    return 0


def run_remove(args: argparse.Namespace, settings: Settings) -> int:
    async def remove() -> tuple[User, int]:
        async with transaction(settings) as conn:
            return await user_service.remove_user(conn, args.name)

    user, authored = asyncio.run(remove())
    print(
        f"user {user.login} (id {user.id}) removed with their application passwords; "
        f"the {authored} items they wrote are kept, without an author"
    )
    return 0


def run_password(args: argparse.Namespace, settings: Settings) -> int:
    async def add() -> tuple[str, str]:
        async with transaction(settings) as conn:
            return await user_service.add_password(
                conn, args.name, now=datetime.now(UTC), label=args.label, password=args.password
            )

    label, secret = asyncio.run(add())
    print(f"application password {label!r} added to user {args.name} (shown only now):")
    print(secret)
    return 0


def run_revoke(args: argparse.Namespace, settings: Settings) -> int:
    async def revoke() -> None:
        async with transaction(settings) as conn:
            await user_service.revoke_password(conn, args.name, args.label)

    asyncio.run(revoke())
    print(f"application password {args.label!r} of user {args.name} revoked")
    return 0

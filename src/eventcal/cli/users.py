"""``eventcal user …``: users and their application passwords."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

from eventcal.config import Settings
from eventcal.services import users as user_service
from eventcal.services.permissions import Role
from eventcal.storage import migrate
from eventcal.storage.db import Connection, create_database


def register(commands: Any) -> None:
    user = commands.add_parser("user", help="manage users")
    user_commands = user.add_subparsers(dest="user_command", required=True)
    add = user_commands.add_parser("add", help="add a user and print its application password")
    add.add_argument("name")
    add.add_argument("--role", required=True, choices=[r.value for r in Role])
    add.add_argument("--password", help="use this password instead of a generated one")
    add.set_defaults(handler=run_add)


@asynccontextmanager
async def transaction(settings: Settings) -> AsyncIterator[Connection]:
    """One write transaction on the configured database (the embedded one migrated first)."""
    if settings.is_sqlite:
        migrate.upgrade(settings.database_url)
    database = create_database(settings.database_url)
    await database.startup()
    try:
        async with database.transaction() as conn:
            yield conn
    finally:
        await database.shutdown()


def run_add(args: argparse.Namespace, settings: Settings) -> int:
    role = Role(args.role)

    async def add() -> tuple[int, str]:
        async with transaction(settings) as conn:
            return await user_service.add_user(
                conn, login=args.name, role=role, now=datetime.now(UTC), password=args.password
            )

    user_id, secret = asyncio.run(add())
    print(f"user {args.name} (id {user_id}, {role.value}) added; application password:")
    print(secret)
    return 0

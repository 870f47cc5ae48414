"""``eventcal serve | migrate | user``: a thin command line over the app and the services.

Every command takes the database from ``EVENTCAL_DATABASE_URL`` (default: ``./eventcal.db``).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from datetime import UTC, datetime

from eventcal import __version__
from eventcal.config import Settings, load_settings
from eventcal.errors import ApiError, ConfigError
from eventcal.services import users as user_service
from eventcal.services.permissions import Role
from eventcal.storage import migrate
from eventcal.storage.db import create_database


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="eventcal", description="Events calendar JSON API.")
    parser.add_argument("--version", action="version", version=f"eventcal {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser(
        "serve", help="serve the API (migrates the embedded database first)"
    )
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1)

    migrate_cmd = commands.add_parser("migrate", help="apply database migrations")
    migrate_cmd.add_argument("--revision", default="head", help="target revision (default: head)")
    downgrade = commands.add_parser("downgrade", help="roll the schema back to a revision")
    downgrade.add_argument("revision", help="target revision (base removes every table)")

    user = commands.add_parser("user", help="manage users")
    user_commands = user.add_subparsers(dest="user_command", required=True)
    add = user_commands.add_parser("add", help="add a user and print its application password")
    add.add_argument("name")
    add.add_argument("--role", required=True, choices=[r.value for r in Role])
    add.add_argument("--password", help="use this password instead of a generated one")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        settings = load_settings()
        if args.command == "serve":
            return _serve(settings, args.host, args.port, args.workers)
        if args.command == "migrate":
            migrate.upgrade(settings.database_url, args.revision)
            print(f"database at revision {args.revision}")
            return 0
        if args.command == "downgrade":
            migrate.downgrade(settings.database_url, args.revision)
            print(f"database at revision {args.revision}")
            return 0
        if args.command == "user" and args.user_command == "add":
            return asyncio.run(_user_add(settings, args.name, Role(args.role), args.password))
    except ConfigError as exc:
        print(f"eventcal: {exc}", file=sys.stderr)
        return 2
    except ApiError as exc:
        print(f"eventcal: {exc.message.format(**exc.message_args)}", file=sys.stderr)
        return 1
    return 2


def _serve(settings: Settings, host: str, port: int, workers: int) -> int:
    from granian import Granian
    from granian.constants import Interfaces
    from granian.log import LogLevels

    if settings.is_sqlite:
        migrate.upgrade(settings.database_url)
    server = Granian(
        "eventcal.app:asgi",
        address=host,
        port=port,
        interface=Interfaces.ASGI,
        workers=max(1, workers),
        factory=True,
        log_level=LogLevels(settings.log_level.lower()),
    )
    server.serve()
    return 0


async def _user_add(settings: Settings, name: str, role: Role, password: str | None) -> int:
    if settings.is_sqlite:
        migrate.upgrade(settings.database_url)
    database = create_database(settings.database_url)
    await database.startup()
    try:
        async with database.transaction() as conn:
            user_id, secret = await user_service.add_user(
                conn, login=name, role=role, now=datetime.now(UTC), password=password
            )
    finally:
        await database.shutdown()
    print(f"user {name} (id {user_id}, {role.value}) added; application password:")
    print(secret)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

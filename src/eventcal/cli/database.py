"""``eventcal migrate`` and ``eventcal downgrade``, and what every command checks first: which
database it uses (named on standard error) and whether its schema fits the code.

* ``serve``, ``migrate`` and ``import`` may create the embedded database; any other command
  refuses a missing file (``eventcal`` run from another directory must not create an empty
  ``./eventcal.db`` there).
* An embedded database that is behind is migrated on use, and the command says so.
* A PostgreSQL database that is behind is refused with one line: several machines share it, so
  upgrading it is an operator's step (``eventcal migrate``, which holds an advisory lock), and
  the application's user needs no DDL rights. A newer one is served (rolling upgrades).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from eventcal.config import Settings
from eventcal.storage import migrate
from eventcal.storage.db import Database, create_database, sqlite_path

CREATES = "creates"
"""A command that may create the embedded database (``set_defaults(database=CREATES)``)."""
OWN = "own"
"""A command that handles the schema itself (migrate, downgrade)."""
SERVE = "serve"
"""``serve``: names the database in its JSON start-up line and checks the schema itself."""


class Refused(Exception):
    """The command cannot run on this database; the message is the one line to print."""


def register(commands: Any) -> None:
    upgrade = commands.add_parser("migrate", help="apply database migrations")
    upgrade.add_argument("--revision", default="head", help="target revision (default: head)")
    upgrade.set_defaults(handler=run_migrate, database=OWN)
    downgrade = commands.add_parser("downgrade", help="roll the schema back to a revision")
    downgrade.add_argument("revision", help="target revision (base removes every table)")
    downgrade.set_defaults(handler=run_downgrade, database=OWN)


def run_migrate(args: argparse.Namespace, settings: Settings) -> int:
    migrate.upgrade(settings.database_url, args.revision)
    print(f"database at revision {args.revision}")
    return 0


def run_downgrade(args: argparse.Namespace, settings: Settings) -> int:
    migrate.downgrade(settings.database_url, args.revision)
    print(f"database at revision {args.revision}")
    return 0


def describe(database_url: str) -> str:
    """The database as a person should see it: the absolute path of an embedded database, the
    PostgreSQL URL without its password."""
    if database_url.startswith("sqlite"):
        path = sqlite_path(database_url)
        return path if path == ":memory:" else str(Path(path).absolute())
    parts = urlsplit(database_url)
    netloc = parts.netloc
    if parts.password is not None:
        userinfo, host = netloc.rsplit("@", 1)
        netloc = f"{userinfo.split(':', 1)[0]}@{host}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, ""))


def prepare(settings: Settings, *, creates: bool) -> str | None:
    """Check (and for the embedded database, bring up to date) the schema before a command.

    Returns a line saying what was done, if anything; raises :class:`Refused`."""
    url = settings.database_url
    if not settings.is_sqlite:
        asyncio.run(_check_postgres(url))
        return None
    path = sqlite_path(url)
    exists = path == ":memory:" or Path(path).exists()
    if not exists and not creates:
        raise Refused(f"no database at {describe(url)}; run `eventcal migrate`")
    current = migrate.current_revision_sqlite(path) if exists else None
    if not migrate.is_behind(current):
        return None
    migrate.upgrade(url)
    if not exists:
        return f"created the database at {describe(url)} (revision {migrate.SCHEMA_REVISION})"
    return f"migrated the database from revision {current or 'none'} to {migrate.SCHEMA_REVISION}"


async def _check_postgres(url: str) -> None:
    """Refuses a schema older than the code (the database's startup checks it)."""
    from eventcal.storage.db import DatabaseNotMigrated

    database = create_database(url, pool_size=1)
    try:
        await database.startup()
    except DatabaseNotMigrated as exc:
        raise Refused(str(exc)) from None
    await database.shutdown()


@asynccontextmanager
async def open_database(settings: Settings) -> AsyncIterator[Database]:
    """The configured database, open (its schema checked by ``eventcal.cli.main``)."""
    database = create_database(settings.database_url)
    await database.startup()
    try:
        yield database
    finally:
        await database.shutdown()


def announce(settings: Settings) -> None:
    """The first line of every command but ``serve`` (whose JSON start-up line says it)."""
    print(f"eventcal: database {describe(settings.database_url)}", file=sys.stderr)

"""``eventcal migrate`` and ``eventcal downgrade``."""

from __future__ import annotations

import argparse
from typing import Any

from eventcal.config import Settings
from eventcal.storage import migrate


def register(commands: Any) -> None:
    upgrade = commands.add_parser("migrate", help="apply database migrations")
    upgrade.add_argument("--revision", default="head", help="target revision (default: head)")
    upgrade.set_defaults(handler=run_migrate)
    downgrade = commands.add_parser("downgrade", help="roll the schema back to a revision")
    downgrade.add_argument("revision", help="target revision (base removes every table)")
    downgrade.set_defaults(handler=run_downgrade)


def run_migrate(args: argparse.Namespace, settings: Settings) -> int:
    migrate.upgrade(settings.database_url, args.revision)
    print(f"database at revision {args.revision}")
    return 0


def run_downgrade(args: argparse.Namespace, settings: Settings) -> int:
    migrate.downgrade(settings.database_url, args.revision)
    print(f"database at revision {args.revision}")
    return 0

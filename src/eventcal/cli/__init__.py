"""``eventcal``: a thin command line over the app and the services.

Each command group is a module with ``register(commands)``, which adds its parsers and sets
``handler`` (a function of the parsed arguments and the settings, returning the exit status).
Every command takes the database from ``EVENTCAL_DATABASE_URL`` (default: ``./eventcal.db``),
names it first on standard error and checks its schema (:mod:`eventcal.cli.database`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from eventcal import __version__
from eventcal.cli import backup, database, serve, users
from eventcal.config import load_settings
from eventcal.errors import ApiError, ConfigError
from eventcal.i18n import translate
from eventcal.storage.db import StorageError

GROUPS = (serve, database, users, backup)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="eventcal", description="Events calendar JSON API.")
    parser.add_argument("--version", action="version", version=f"eventcal {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    for group in GROUPS:
        group.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        settings = load_settings()
        kind = getattr(args, "database", None)
        if kind != database.SERVE:
            database.announce(settings)
        if kind in (None, database.CREATES):
            done = database.prepare(settings, creates=kind == database.CREATES)
            if done:
                print(f"eventcal: {done}", file=sys.stderr)
        status: int = args.handler(args, settings)
    except ConfigError as exc:
        print(f"eventcal: {exc}", file=sys.stderr)
        return 2
    except (database.Refused, StorageError) as exc:
        print(f"eventcal: {exc}", file=sys.stderr)
        return 1
    except ApiError as exc:
        print(f"eventcal: {translate(exc.message, 'en', **exc.message_args)}", file=sys.stderr)
        return 1
    return status

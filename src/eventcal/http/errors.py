"""The one place that turns errors into the original's error body
``{"code", "message", "data": {"status", ...}}``."""

from __future__ import annotations

from typing import Any

from eventcal.errors import ApiError, InvalidParams, MissingParams, ServiceUnavailable
from eventcal.i18n import N_, translate
from eventcal.storage.db import CommitOutcomeUnknown, DatabaseNotMigrated, DatabaseUnavailable

RETRY_AFTER_SECONDS = "5"


def no_route() -> ApiError:
    return ApiError("rest_no_route", "No route was found matching the URL and request method.", 404)


def error_body(error: ApiError, language: str = "en") -> dict[str, Any]:
    """The JSON body for an error, its message translated into ``language``."""
    data: dict[str, Any] = {"status": error.status}
    if isinstance(error, InvalidParams):
        names = ", ".join(error.params)
        message = translate(error.message, language, names=names)
        data["params"] = {
            name: translate(p.message, language, **{"param": name, **p.message_args})
            for name, p in error.params.items()
        }
        details = {name: dict(p.detail) for name, p in error.params.items() if p.detail}
        for name, p in error.params.items():
            if p.reason is not None and name not in details:
                reason = translate(p.reason, language, **{"param": name, **p.message_args})
                details[name] = {
                    "code": "rest_invalid_param",
                    "message": reason,
                    "data": {"param": name},
                }
        data["details"] = details or []
    elif isinstance(error, MissingParams):
        message = translate(error.message, language, names=", ".join(error.names))
        data["params"] = list(error.names)
    else:
        message = translate(error.message, language, **error.message_args)
    data.update(error.data)
    body: dict[str, Any] = {"code": error.code, "message": message, "data": data}
    body.update(error.top_level)
    return body


def not_migrated_error(error: DatabaseNotMigrated) -> ApiError:
    """503 ``db_not_migrated``: the database answers, but an operator has to migrate it."""
    return ServiceUnavailable(
        "db_not_migrated",
        N_(
            "The database is not migrated: it is at revision {current}, the code needs "
            "{needed}. An operator has to run `eventcal migrate`."
        ),
        headers={"Retry-After": RETRY_AFTER_SECONDS},
        current=error.current,
        needed=error.needed,
    )


def internal_error_body(language: str = "en") -> dict[str, Any]:
    return {
        "code": "internal_server_error",
        "message": translate(
            N_("The server could not complete the request. The error was logged."), language
        ),
        "data": {"status": 500},
    }


def database_error(error: DatabaseUnavailable) -> ApiError:
    """503 for a database out of reach; its own code when a commit's outcome is unknown (a
    message saying nothing was written would then be untrue)."""
    headers = {"Retry-After": RETRY_AFTER_SECONDS}
    if isinstance(error, DatabaseNotMigrated):
        return not_migrated_error(error)
    if isinstance(error, CommitOutcomeUnknown):
        return ServiceUnavailable(
            "db_commit_unknown",
            "The database connection broke while the change was being committed: it may or "
            "may not have been saved. Read the item again, or retry with the same "
            "Idempotency-Key.",
            headers=headers,
        )
    return ServiceUnavailable(
        "db_unavailable", "The database is unavailable. Try again shortly.", headers=headers
    )

"""The one place that turns errors into the original's error body
``{"code", "message", "data": {"status", ...}}``."""

from __future__ import annotations

from typing import Any

from eventcal.errors import ApiError, InvalidParams, MissingParams
from eventcal.i18n import N_, translate


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


def internal_error_body(language: str = "en") -> dict[str, Any]:
    return {
        "code": "internal_server_error",
        "message": translate(
            N_("The server could not complete the request. The error was logged."), language
        ),
        "data": {"status": 500},
    }

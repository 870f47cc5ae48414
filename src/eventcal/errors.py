"""Domain errors with a stable ``code``.

Services raise these; ``eventcal.http.errors`` is the one place that turns them into the original's
error body ``{"code", "message", "data": {"status", ...}}``. Messages are message ids with named
placeholders; they are translated when the response is built, in the request's language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from eventcal.i18n import N_


class ConfigError(Exception):
    """A setting has a value the service cannot run with."""


class ApiError(Exception):
    """An error that reaches the client with a status, a code and a message."""

    status: int = 400

    def __init__(
        self,
        code: str,
        message: str,
        status: int | None = None,
        *,
        data: Mapping[str, Any] | None = None,
        top_level: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        **message_args: Any,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        if status is not None:
            self.status = status
        self.message_args = message_args
        self.data = dict(data or {})
        self.top_level = dict(top_level or {})
        self.headers = dict(headers or {})


class NotFound(ApiError):
    status = 404


class Forbidden(ApiError):
    status = 403


class Gone(ApiError):
    status = 410


class Unauthorized(ApiError):
    status = 401


class ServiceUnavailable(ApiError):
    status = 503


class ParamError:
    """One failing parameter: the message for ``data.params`` and optional ``details`` entry.

    ``reason`` says why, in ``data.details`` (as WordPress core's per-parameter errors), where
    ``data.params`` keeps the original's message ("Invalid parameter.")."""

    __slots__ = ("detail", "message", "message_args", "reason")

    def __init__(
        self,
        message: str = N_("Invalid parameter."),
        detail: Mapping[str, Any] | None = None,
        *,
        reason: str | None = None,
        **message_args: Any,
    ) -> None:
        self.message = message
        self.message_args = message_args
        self.detail = detail
        self.reason = reason


class InvalidParams(ApiError):
    """400 ``rest_invalid_param``: ``data.params`` maps each failing name to its message."""

    def __init__(self, params: Mapping[str, ParamError]) -> None:
        super().__init__("rest_invalid_param", N_("Invalid parameter(s): {names}"), 400)
        self.params = dict(params)


class MissingParams(ApiError):
    """400 ``rest_missing_callback_param``: required parameters absent or null."""

    def __init__(self, names: Sequence[str]) -> None:
        super().__init__("rest_missing_callback_param", N_("Missing parameter(s): {names}"), 400)
        self.names = list(names)


def invalid(
    name: str,
    message: str = N_("Invalid parameter."),
    *,
    reason: str | None = None,
    **message_args: Any,
) -> InvalidParams:
    """Shorthand for a single invalid parameter raised by a service."""
    return InvalidParams({name: ParamError(message, reason=reason, **message_args)})

"""Schemathesis hooks for the command-line run (``tests/fuzz/test_cli.py`` sets
``SCHEMATHESIS_HOOKS=tests.fuzz.schemathesis_hooks``): the ``error_shape`` check, every error
answered in the original's shape."""

from __future__ import annotations

from typing import Any

import schemathesis


@schemathesis.check
def error_shape(ctx: Any, response: Any, case: Any) -> bool | None:
    """A 4xx/5xx body is ``{"code", "message", "data": {"status"}}`` with ``data.status`` the
    HTTP status (HEAD answers have no body)."""
    del ctx
    if response.status_code < 400 or case.method.upper() == "HEAD":
        return None
    body = response.json()
    assert isinstance(body, dict), f"error body is not an object: {body!r}"
    assert isinstance(body.get("code"), str) and body["code"], f"no code: {body!r}"
    assert isinstance(body.get("message"), str) and body["message"], f"no message: {body!r}"
    data = body.get("data")
    assert isinstance(data, dict), f"no data: {body!r}"
    assert data.get("status") == response.status_code, f"data.status differs: {body!r}"
    return True

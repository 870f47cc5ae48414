"""The access log line: method, path, the query string with every ``password`` value redacted
(in any case, percent-encoded, with PHP brackets), the authenticated user, the client address
and, for an error, its code."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from eventcal.http.access import MAX_QUERY_CHARS, REDACTED, redact_query
from eventcal.logs import ACCESS
from tests.conftest import NS, Api


def lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    return [orjson.loads(r.json_line) for r in caplog.records if r.name == ACCESS]  # type: ignore[attr-defined]


@pytest.fixture
def access(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level("INFO", logger=ACCESS)
    return caplog


@pytest.mark.parametrize(
    ("raw", "logged"),
    [
        (b"password=s3cret&page=2", f"password={REDACTED}&page=2"),
        (b"PassWord=s3cret", f"PassWord={REDACTED}"),
        (b"pass%77ord=s3cret", f"pass%77ord={REDACTED}"),
        (b"password%5B0%5D=a&password[1]=b", f"password%5B0%5D={REDACTED}&password[1]={REDACTED}"),
        (b"passwords=kept&password", "passwords=kept&password"),
        (b"search=password%3Dx", "search=password%3Dx"),
        (b"", ""),
    ],
)
def test_password_values_are_redacted(raw: bytes, logged: str) -> None:
    assert redact_query(raw) == logged


def test_a_long_query_is_cut() -> None:
    logged = redact_query(b"a=" + b"x" * 10_000)
    assert len(logged) == MAX_QUERY_CHARS + 1
    assert logged.endswith("…")


def test_the_line_names_query_user_client_and_error_code(
    api: Api, access: pytest.LogCaptureFixture
) -> None:
    """Before: method, path, status and time only."""
    api.get(f"{NS}/events?per_page=3&password=hunter2", as_="editor")
    api.get(f"{NS}/events/999999")
    api.get(f"{NS}/events?per_page=0")
    ok, missing, invalid = lines(access)
    assert ok["query"] == f"per_page=3&password={REDACTED}"
    assert "hunter2" not in orjson.dumps(ok).decode()
    assert ok["user"] == "editor"
    assert ok["client"] == "testclient"
    assert ok["status"] == 200
    assert "code" not in ok
    assert (missing["status"], missing["code"], missing["user"]) == (
        404,
        "rest-event-not-found",
        None,
    )
    assert (invalid["status"], invalid["code"]) == (400, "rest_invalid_param")
    assert invalid["query"] == "per_page=0"

"""What operators rely on: health checks, request ids, one structured log line per request, and
errors that are logged with their traceback but never shown to clients."""

from __future__ import annotations

import json
import logging
from dataclasses import replace

import pytest
from starlette.testclient import TestClient

from eventcal.app import create_app
from eventcal.config import Settings
from eventcal.http.args import Params
from eventcal.http.request import RequestState
from eventcal.http.responses import Reply
from eventcal.http.router import Route
from eventcal.logs import ACCESS, JsonFormatter
from tests.conftest import NS, Api


def test_liveness_and_readiness(api: Api) -> None:
    assert api.get("/healthz").json() == {"status": "ok"}
    ready = api.get("/readyz")
    assert ready.status_code == 200
    assert ready.json()["status"] == "ready"


def _assert_database_down(client: TestClient) -> None:
    assert client.get("/healthz").status_code == 200
    down = client.get("/readyz")
    assert down.status_code == 503
    assert down.json() == {
        "code": "db_unavailable",
        "message": "The database is unavailable. Try again shortly.",
        "data": {"status": 503},
    }
    assert down.headers["retry-after"] == "5"
    failed = client.get(f"{NS}/events")
    assert failed.status_code == 503
    assert failed.json()["code"] == "db_unavailable"
    assert failed.headers["retry-after"] == "5"


def test_a_closed_database_is_503_until_it_is_open_again(api: Api) -> None:
    if api.database.dialect_name != "sqlite":
        pytest.skip("a PostgreSQL pool reopens by itself: see the unreachable-server test")
    api.run(api.database.shutdown)
    try:
        _assert_database_down(api.client)
    finally:
        api.run(api.database.startup)
    assert api.get("/readyz").status_code == 200
    assert api.get(f"{NS}/events").status_code == 200


def test_an_unreachable_database_server_does_not_stop_the_process(settings: Settings) -> None:
    if settings.is_sqlite:
        pytest.skip("PostgreSQL only")
    unreachable = replace(settings, database_url="postgresql://postgres@127.0.0.1:9/nothing")
    with TestClient(create_app(unreachable), base_url="http://127.0.0.1") as client:
        _assert_database_down(client)


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        (None, False),
        ("lb-1234.abc", True),
        ("has spaces", False),
        ("x" * 200, False),
        ("<script>", False),
    ],
)
def test_every_response_has_a_request_id(api: Api, given: str | None, kept: bool) -> None:
    headers = {"X-Request-Id": given} if given else {}
    for path in (f"{NS}/events", f"{NS}/events/999", f"{NS}/nothing"):
        rid = api.get(path, headers=headers).headers["x-request-id"]
        if kept:
            assert rid == given
        else:
            assert rid != given
            assert len(rid) == 32 and all(c in "0123456789abcdef" for c in rid)


def test_one_structured_line_per_request(api: Api, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger=ACCESS):
        response = api.get(f"{NS}/events/999", headers={"X-Request-Id": "req-42"})
    (record,) = [r for r in caplog.records if r.name == ACCESS]
    line = json.loads(JsonFormatter().format(record))
    assert line["request_id"] == "req-42" == response.headers["x-request-id"]
    assert (line["method"], line["path"], line["status"]) == ("GET", f"{NS}/events/999", 404)
    assert isinstance(line["ms"], float)
    assert line["level"] == "INFO"


def test_an_unexpected_error_is_logged_not_shown(
    api: Api, caplog: pytest.LogCaptureFixture
) -> None:
    router = api.client.app.state.router  # type: ignore[attr-defined]

    async def broken(state: RequestState, params: Params) -> Reply:
        raise RuntimeError("secret detail: password=hunter2")

    original = router.routes
    router.routes = tuple(
        Route(r.pattern, tuple(replace(e, handler=broken) for e in r.endpoints), r.doc_path)
        if r.pattern == "/events"
        else r
        for r in original
    )
    try:
        with caplog.at_level(logging.INFO):
            response = api.get(f"{NS}/events", headers={"X-Request-Id": "req-500"})
    finally:
        router.routes = original
    assert response.status_code == 500
    assert "hunter2" not in response.text
    assert response.json()["code"] == "internal_server_error"
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert errors
    line = json.loads(JsonFormatter().format(errors[0]))
    assert line["request_id"] == "req-500"
    assert "RuntimeError: secret detail" in line["exception"]

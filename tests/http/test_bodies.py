"""Request bodies (issue 14, item 1): whatever the body, its framing or its content type, the
answer is a 2xx or a 4xx that says why, in the error shape — never a 500, never a silent drop."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from eventcal.http.args import Params
from eventcal.http.request import RequestState
from eventcal.http.responses import Reply
from eventcal.http.router import Route
from tests.conftest import NS, Api
from tests.http.helpers import NEW_EVENT, assert_error, field, multipart, version

MULTIPART = "multipart/form-data; boundary=XyZ"
WRITES = [
    ("POST", "/events"),
    ("POST", "/venues"),
    ("POST", "/organizers"),
    ("POST", "/categories"),
    ("POST", "/tags"),
    ("PUT", "/events/1"),
    ("PATCH", "/venues/1"),
    ("DELETE", "/tags/1"),
]


@pytest.mark.parametrize(("method", "path"), WRITES)
def test_a_multipart_body_without_boundary_is_400(api: Api, method: str, path: str) -> None:
    response = api.request(
        method,
        f"{NS}{path}",
        as_="administrator",
        content=b"title=x",
        headers={"Content-Type": "multipart/form-data"},
    )
    body = assert_error(response, 400, "rest_multipart_no_boundary")
    assert "boundary" in body["message"]


@pytest.mark.parametrize(
    ("content", "status", "code"),
    [
        (b"not a multipart body at all", 400, "rest_invalid_multipart"),
        (b"--XyZ\r\n" + field("title", "cut short"), 400, "rest_invalid_multipart"),
        (multipart(b"\r\nno headers at all"), 400, "rest_invalid_multipart"),
        (multipart(b"Content-Disposition: form-data\r\n\r\nx"), 400, "rest_invalid_multipart"),
        (
            multipart(b'Content-Disposition: attachment; name="a"\r\n\r\nx'),
            400,
            "rest_invalid_multipart",
        ),
        (multipart(b"X-A: b\r\n" * 20 + field("title", "x")), 400, "rest_invalid_multipart"),
        (multipart(*[field(f"f{i}", "x") for i in range(1001)]), 413, "rest_too_many_parts"),
    ],
    ids=["garbage", "truncated", "no-headers", "unnamed", "not-form-data", "many-headers", "parts"],
)
def test_malformed_multipart_bodies_are_4xx_and_write_nothing(
    api: Api, content: bytes, status: int, code: str
) -> None:
    api.user("administrator")
    before = version(api)
    response = api.post(f"{NS}/events", content=content, headers={"Content-Type": MULTIPART})
    assert_error(response, status, code)
    assert version(api) == before


def test_a_well_formed_multipart_form_creates_the_event(api: Api) -> None:
    parts = [field(name, value) for name, value in NEW_EVENT.items()]
    response = api.post(
        f"{NS}/events", content=multipart(*parts), headers={"Content-Type": MULTIPART}
    )
    assert response.status_code == 201, response.text
    assert response.json()["title"] == "New"


def test_multipart_fields_that_are_not_utf8_are_named(api: Api) -> None:
    parts = [field("title", "x"), b'Content-Disposition: form-data; name="venue"\r\n\r\n\xff\xfe']
    response = api.post(
        f"{NS}/events", content=multipart(*parts), headers={"Content-Type": MULTIPART}
    )
    body = assert_error(response, 400, "rest_invalid_param")
    assert list(body["data"]["params"]) == ["venue"]


def test_a_file_part_is_refused_by_an_endpoint_that_takes_no_file(api: Api) -> None:
    api.user("administrator")
    before = version(api)
    response = api.post(f"{NS}/events", data=NEW_EVENT, files={"image": ("a.png", b"\x89PNG")})
    body = assert_error(response, 400, "rest_file_not_accepted")
    assert '"image"' in body["message"]
    assert version(api) == before


def chunked(total: int, size: int = 65_536) -> Iterator[bytes]:
    """A body sent without Content-Length (chunked transfer)."""
    sent = 0
    while sent < total:
        yield b"x" * min(size, total - sent)
        sent += size


@pytest.mark.parametrize(
    ("content_type", "limit"),
    [
        ("application/json", 1_048_576),
        ("application/x-www-form-urlencoded", 1_048_576),
        ("text/plain", 1_048_576),
        (MULTIPART, 2_097_152),
    ],
)
def test_streamed_bodies_meet_the_limit_of_their_content_type(
    api: Api, content_type: str, limit: int
) -> None:
    """Without Content-Length every byte is counted as it arrives, multipart included."""
    within = api.post(
        f"{NS}/events", content=chunked(limit - 10), headers={"Content-Type": content_type}
    )
    assert within.status_code != 413
    over = api.post(
        f"{NS}/events", content=chunked(limit + 1), headers={"Content-Type": content_type}
    )
    body = assert_error(over, 413, "rest_request_too_large")
    assert str(limit) in body["message"]


@pytest.mark.parametrize("content_type", ["text/plain", "", "application/x-www-form-urlencoded"])
def test_json_sent_with_another_content_type_is_415_saying_so(api: Api, content_type: str) -> None:
    headers = {"Content-Type": content_type} if content_type else {}
    content = b' {"title": "Mislabelled", "start_date": "2027-01-01 10:00"} '
    response = api.post(f"{NS}/events", content=content, headers=headers)
    body = assert_error(response, 415, "rest_invalid_content_type")
    assert "application/json" in body["message"]
    assert (content_type or "(none)") in body["message"]


@pytest.mark.parametrize("content", [b"plain words", b"[1, 2]", b"{not json}", b""])
def test_other_bodies_with_other_content_types_are_ignored_as_before(
    api: Api, content: bytes
) -> None:
    response = api.post(f"{NS}/events", content=content, headers={"Content-Type": "text/plain"})
    assert_error(response, 400, "rest_missing_callback_param")


def test_messages_of_body_errors_are_translated(api: Api) -> None:
    response = api.post(
        f"{NS}/events?translation_language=de",
        content=b"x",
        headers={"Content-Type": "multipart/form-data", "Accept-Language": "de"},
    )
    body: dict[str, Any] = assert_error(response, 400, "rest_multipart_no_boundary")
    assert "boundary" in body["message"]
    assert body["message"] != (
        "A multipart/form-data body needs a boundary in its Content-Type "
        "(multipart/form-data; boundary=…)."
    )


@pytest.fixture
def upload_route(api: Api) -> Iterator[list[RequestState]]:
    """``POST /events`` replaced by an endpoint that takes files and records what it got."""
    router = api.client.app.state.router  # type: ignore[attr-defined]
    seen: list[RequestState] = []

    async def record(state: RequestState, params: Params) -> Reply:
        seen.append(state)
        return Reply({"files": sorted(state.files)}, 201)

    original = router.routes
    router.routes = tuple(
        Route(
            r.pattern,
            tuple(replace(e, handler=record, args=(), accepts_files=True) for e in r.endpoints),
            r.doc_path,
        )
        if r.pattern == "/events"
        else r
        for r in original
    )
    try:
        yield seen
    finally:
        router.routes = original


def test_an_endpoint_that_accepts_files_gets_them(
    api: Api, upload_route: list[RequestState]
) -> None:
    response = api.post(
        f"{NS}/events",
        data={"title": "With a picture"},
        files={"file": ("photo.png", b"\x89PNG-bytes", "image/png")},
    )
    assert response.status_code == 201, response.text
    upload = upload_route[0].files["file"]
    assert (upload.filename, upload.content_type, upload.data) == (
        "photo.png",
        "image/png",
        b"\x89PNG-bytes",
    )
    assert upload_route[0].query["title"] == "With a picture"


def test_uploads_have_their_own_limit(api: Api, upload_route: list[RequestState]) -> None:
    """Above the multipart limit (2 MiB), within the upload limit (16 MiB)."""
    picture = b"x" * 3_000_000
    response = api.post(f"{NS}/events", files={"file": ("big.png", picture, "image/png")})
    assert response.status_code == 201, response.text
    assert len(upload_route[0].files["file"].data) == 3_000_000
    huge = api.post(
        f"{NS}/events", content=chunked(16_777_217), headers={"Content-Type": MULTIPART}
    )
    assert_error(huge, 413, "rest_request_too_large")


def test_an_endpoint_may_set_its_own_body_limit(api: Api) -> None:
    router = api.client.app.state.router  # type: ignore[attr-defined]
    original = router.routes
    router.routes = tuple(
        Route(r.pattern, tuple(replace(e, max_body_bytes=100) for e in r.endpoints), r.doc_path)
        if r.pattern == "/events"
        else r
        for r in original
    )
    try:
        response = api.post(f"{NS}/events", json={**NEW_EVENT, "description": "x" * 100})
    finally:
        router.routes = original
    body = assert_error(response, 413, "rest_request_too_large")
    assert "100 bytes" in body["message"]

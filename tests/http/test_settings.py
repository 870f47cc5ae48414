"""The limits of issue 14 are settings: read from the environment, validated with a message
naming the variable, and applied to the router."""

from __future__ import annotations

import pytest

from eventcal.config import load_settings
from eventcal.errors import ConfigError


def test_limits_are_read_from_the_environment() -> None:
    settings = load_settings(
        {
            "EVENTCAL_MAX_BODY_BYTES": "2048",
            "EVENTCAL_MAX_MULTIPART_BYTES": "4096",
            "EVENTCAL_MAX_MULTIPART_PARTS": "7",
            "EVENTCAL_BODY_TIMEOUT_SECONDS": "2.5",
            "EVENTCAL_HEADER_TIMEOUT_SECONDS": "3",
            "EVENTCAL_MAX_CONCURRENT_REQUESTS": "500",
            "EVENTCAL_IDEMPOTENCY_TTL_HOURS": "48",
        }
    )
    assert (settings.max_body_bytes, settings.max_multipart_bytes) == (2048, 4096)
    assert (settings.max_multipart_parts, settings.body_timeout_seconds) == (7, 2.5)
    assert (settings.header_timeout_seconds, settings.max_concurrent_requests) == (3.0, 500)
    assert settings.idempotency_ttl_hours == 48


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("EVENTCAL_MAX_BODY_BYTES", "0"),
        ("EVENTCAL_MAX_BODY_BYTES", "many"),
        ("EVENTCAL_MAX_MULTIPART_BYTES", "-1"),
        ("EVENTCAL_MAX_UPLOAD_BYTES", "10"),
        ("EVENTCAL_MAX_MULTIPART_PARTS", "0"),
        ("EVENTCAL_BODY_TIMEOUT_SECONDS", "nan"),
        ("EVENTCAL_BODY_TIMEOUT_SECONDS", "inf"),
        ("EVENTCAL_HEADER_TIMEOUT_SECONDS", "0"),
        ("EVENTCAL_MAX_CONCURRENT_REQUESTS", "0"),
        ("EVENTCAL_IDEMPOTENCY_TTL_HOURS", "0"),
    ],
)
def test_unusable_limits_are_refused_naming_the_variable(name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=name):
        load_settings({name: value})


def test_the_router_applies_the_body_limits() -> None:
    from eventcal.app import create_app

    settings = load_settings(
        {
            "EVENTCAL_DATABASE_URL": "sqlite:///:memory:",
            "EVENTCAL_MAX_BODY_BYTES": "2048",
            "EVENTCAL_MAX_MULTIPART_PARTS": "7",
            "EVENTCAL_BODY_TIMEOUT_SECONDS": "2.5",
            "EVENTCAL_IDEMPOTENCY_TTL_HOURS": "48",
        }
    )
    runtime = create_app(settings).state.runtime
    assert (runtime.limits.max_bytes, runtime.limits.max_parts) == (2048, 7)
    assert runtime.limits.read_timeout == 2.5
    assert runtime.idempotency_ttl.total_seconds() == 48 * 3600

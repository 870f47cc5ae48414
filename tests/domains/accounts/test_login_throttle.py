"""Brute-force protection of HTTP Basic logins: failures counted per login and per client
address in the database (shared by every process), 429 with Retry-After once over the limit."""

from __future__ import annotations

import asyncio
import base64
import ipaddress
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from datetime import timedelta
from typing import Any

import httpx2
import pytest
import sqlalchemy as sa
from starlette.requests import Request
from starlette.testclient import TestClient

from eventcal.app import create_app
from eventcal.config import Settings, load_settings
from eventcal.domains.accounts import credentials
from eventcal.domains.accounts.credentials import hash_password
from eventcal.domains.accounts.throttle import LoginPolicy, address_subject
from eventcal.errors import ConfigError, Unauthorized
from eventcal.http.client import client_address
from eventcal.storage.db import create_database, data_version
from eventcal.storage.service_tables import login_throttle
from tests import factories
from tests.conftest import NS, PASSWORD, RECORDED_NOW, Api, Clock

SMALL_POLICY = {
    "login_max_failures": 3,
    "login_max_failures_per_address": 5,
    "login_window_seconds": 60,
}

MakeApi = Callable[..., Api]


def basic(login: str, password: str = PASSWORD) -> dict[str, str]:
    token = base64.b64encode(f"{login}:{password}".encode()).decode()
    return {"Authorization": f"Basic {token}"}


def wrong(login: str) -> dict[str, str]:
    return basic(login, "not the password")


@pytest.fixture
def make_api(api: Api, settings: Settings, clock: Clock, password_hash: str) -> Iterator[MakeApi]:
    """More apps on the (emptied) test database, sharing the clock, each with a small login
    policy and its own client address."""
    with ExitStack() as stack:

        def make(address: str = "198.51.100.1", **overrides: Any) -> Api:
            app = create_app(settings.with_overrides(**{**SMALL_POLICY, **overrides}), clock=clock)
            client = stack.enter_context(
                TestClient(app, base_url="http://127.0.0.1", client=(address, 50000))
            )
            return Api(client, app.state.runtime.database, password_hash)

        yield make


def status(app: Api, headers: dict[str, str]) -> int:
    return int(app.get(f"{NS}/events", headers=headers).status_code)


def throttle_rows(app: Api) -> list[tuple[str, str, int]]:
    """The counts that hold failures. (A success takes back its own count, leaving 0 if it
    started the window; it makes no count at all when this process has verified the password
    before, so zero counts depend on what ran earlier.)"""

    async def read() -> list[tuple[str, str, int]]:
        async with app.database.read() as conn:
            rows = await conn.all(
                sa.select(login_throttle).order_by(login_throttle.c.scope, login_throttle.c.subject)
            )
        return [(r["scope"], r["subject"], r["failures"]) for r in rows if r["failures"]]

    return app.run(read)


def test_failures_for_one_login_are_refused_after_the_limit(api: Api, make_api: MakeApi) -> None:
    api.user("editor", "alice")
    api.user("editor", "bob")
    app = make_api()
    for _ in range(3):
        response = app.get(f"{NS}/events", headers=wrong("alice"))
        assert response.status_code == 401
        assert response.json()["code"] == "incorrect_password"
    refused = app.get(f"{NS}/events", headers=wrong("alice"))
    assert refused.status_code == 429
    assert refused.json() == {
        "code": "too_many_login_attempts",
        "message": "Too many failed login attempts. Try again later.",
        "data": {"status": 429},
    }
    assert refused.headers["Retry-After"] == "60"
    # The right password is refused too: otherwise guessing could go on, told apart by status.
    right = app.get(f"{NS}/events", headers=basic("alice"))
    assert right.status_code == 429
    assert right.headers["Retry-After"] == "60"
    # Refused attempts are not counted: the address (limit 5) has 3 failures, bob may log in.
    assert status(app, basic("bob")) == 200
    assert throttle_rows(app) == [("address", "198.51.100.1", 3), ("login", "alice", 3)]


def test_unknown_logins_count_too(api: Api, make_api: MakeApi) -> None:
    app = make_api()
    for _ in range(3):
        response = app.get(f"{NS}/events", headers=wrong("nobody"))
        assert response.json()["code"] == "invalid_username"
    assert status(app, wrong("nobody")) == 429


def test_failures_from_one_address_are_refused_after_its_limit(api: Api, make_api: MakeApi) -> None:
    api.user("editor", "alice")
    app = make_api("198.51.100.7")
    other_address = make_api("198.51.100.8")
    for login in ("a", "b", "c", "d", "alice"):
        assert status(app, wrong(login)) == 401
    response = app.get(f"{NS}/events", headers=basic("alice"))
    assert response.status_code == 429
    assert response.headers["Retry-After"] == "60"
    assert status(app, wrong("e")) == 429
    # alice has one failure of her three: from another address she logs in.
    assert status(other_address, basic("alice")) == 200
    # Anonymous requests are never refused.
    assert status(app, {}) == 200


def test_the_refusal_ends_with_the_window(api: Api, make_api: MakeApi, clock: Clock) -> None:
    api.user("editor", "alice")
    app = make_api()
    for _ in range(3):
        assert status(app, wrong("alice")) == 401
    clock.now += timedelta(seconds=45)
    response = app.get(f"{NS}/events", headers=basic("alice"))
    assert response.status_code == 429
    assert response.headers["Retry-After"] == "15"
    clock.now += timedelta(seconds=15)
    assert status(app, basic("alice")) == 200
    # A new window: three more failures before the next refusal.
    for _ in range(3):
        assert status(app, wrong("alice")) == 401
    assert status(app, wrong("alice")) == 429


def test_the_counts_are_shared_by_apps_on_one_database(api: Api, make_api: MakeApi) -> None:
    api.user("editor", "alice")
    first = make_api("198.51.100.1")
    second = make_api("198.51.100.2")
    assert status(first, basic("alice")) == 200
    assert status(second, basic("alice")) == 200
    assert status(first, wrong("alice")) == 401
    assert status(first, wrong("alice")) == 401
    assert status(second, wrong("alice")) == 401
    assert status(first, basic("alice")) == 429
    assert status(second, basic("alice")) == 429


def test_a_success_clears_no_failures(api: Api, make_api: MakeApi) -> None:
    api.user("editor", "alice")
    here = make_api("198.51.100.1")
    elsewhere = make_api("198.51.100.2")
    assert status(here, wrong("alice")) == 401
    assert status(here, wrong("alice")) == 401
    assert status(elsewhere, basic("alice")) == 200
    assert status(here, basic("alice")) == 200
    assert status(here, wrong("alice")) == 401
    assert status(elsewhere, basic("alice")) == 429
    assert throttle_rows(here) == [("address", "198.51.100.1", 3), ("login", "alice", 3)]


def test_parallel_guesses_cannot_outrun_the_limit(api: Api, make_api: MakeApi) -> None:
    """Attempts are counted before their password is checked: of 12 guesses sent at once,
    exactly as many as the limit get an answer."""
    api.user("editor", "alice")
    app = make_api()

    async def guesses() -> list[int]:
        transport = httpx2.ASGITransport(app=app.client.app, client=("198.51.100.1", 50000))
        async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            responses = await asyncio.gather(
                *(client.get(f"{NS}/events", headers=wrong("alice")) for _ in range(12))
            )
        return sorted(r.status_code for r in responses)

    assert app.run(guesses) == [401] * 3 + [429] * 9
    assert ("login", "alice", 3) in throttle_rows(app)


def test_login_bookkeeping_leaves_the_data_version_alone(database_url: str) -> None:
    """Counting, forgiving and noting use change nothing the API serves, so cached responses
    stay valid. (A database of its own: no app, so no scheduler writes meanwhile.)"""
    policy = LoginPolicy(max_failures_per_login=3, failure_delay=0)

    async def scenario() -> tuple[int, int]:
        db = create_database(database_url)
        await db.startup()

        async def log_in(password: str) -> credentials.User:
            return await credentials.log_in(
                db, "alice", password, address="198.51.100.1", now=RECORDED_NOW, policy=policy
            )

        try:
            await factories.empty_database(db)
            # A hash of its own: the password is checked, not found among verified ones.
            await factories.add_user(db, "alice", "editor", hash_password(PASSWORD))
            async with db.read() as conn:
                before = await data_version(conn)
            with pytest.raises(Unauthorized):
                await log_in("wrong")
            assert (await log_in(PASSWORD)).login == "alice"
            with pytest.raises(Unauthorized):
                await log_in("wrong")
            async with db.read() as conn:
                return before, await data_version(conn)
        finally:
            await db.shutdown()

    before, after = asyncio.run(scenario())
    assert after == before


def test_ended_windows_are_deleted(api: Api, make_api: MakeApi, clock: Clock) -> None:
    app = make_api()
    for login in ("a", "b"):
        assert status(app, wrong(login)) == 401
    clock.now += timedelta(seconds=30)
    assert status(app, wrong("c")) == 401
    clock.now += timedelta(seconds=31)
    # a's and b's windows (and the address's) have ended; c's has not.
    assert status(app, wrong("d")) == 401
    assert throttle_rows(app) == [
        ("address", "198.51.100.1", 1),
        ("login", "c", 1),
        ("login", "d", 1),
    ]


def test_failed_attempts_are_answered_late(api: Api, make_api: MakeApi) -> None:
    api.user("editor", "alice")
    app = make_api(login_failure_delay_ms=300)
    started = time.perf_counter()
    assert status(app, wrong("alice")) == 401
    assert time.perf_counter() - started >= 0.3
    started = time.perf_counter()
    assert status(app, basic("alice")) == 200
    assert time.perf_counter() - started < 0.3


def test_forwarded_addresses_count_only_behind_trusted_proxies(api: Api, make_api: MakeApi) -> None:
    api.user("editor", "alice")
    proxied = make_api("10.0.0.2", trusted_proxies=("10.0.0.0/8",))
    for login in ("a", "b", "c", "d", "e"):
        assert status(proxied, {**wrong(login), "X-Forwarded-For": "203.0.113.7"}) == 401
    assert status(proxied, {**basic("alice"), "X-Forwarded-For": "203.0.113.7"}) == 429
    # What the client writes left of the proxy's entry changes nothing.
    spoofed = {**basic("alice"), "X-Forwarded-For": "192.0.2.1, 203.0.113.7"}
    assert status(proxied, spoofed) == 429
    assert status(proxied, {**basic("alice"), "X-Forwarded-For": "203.0.113.8"}) == 200
    # A peer that is not a trusted proxy is counted by its own address, whatever it forwards.
    direct = make_api("198.51.100.1", trusted_proxies=("10.0.0.0/8",))
    assert status(direct, {**basic("alice"), "X-Forwarded-For": "203.0.113.7"}) == 200


def _request(peer: str, forwarded: list[str]) -> Request:
    headers = [(b"x-forwarded-for", value.encode()) for value in forwarded]
    return Request({"type": "http", "headers": headers, "client": (peer, 1234)})


PROXIES = (ipaddress.ip_network("10.0.0.0/8"), ipaddress.ip_network("2001:db8::/32"))


@pytest.mark.parametrize(
    ("peer", "forwarded", "expected"),
    [
        ("10.0.0.1", [], "10.0.0.1"),
        ("10.0.0.1", ["203.0.113.7"], "203.0.113.7"),
        ("10.0.0.1", ["192.0.2.1, 203.0.113.7"], "203.0.113.7"),
        ("10.0.0.1", ["192.0.2.1, 203.0.113.7, 10.0.0.5"], "203.0.113.7"),
        ("10.0.0.1", ["192.0.2.1", "203.0.113.7:4711"], "203.0.113.7"),
        ("10.0.0.1", ["10.0.0.9, 10.0.0.5"], "10.0.0.9"),
        ("10.0.0.1", ["garbage"], "10.0.0.1"),
        ("2001:db8::1", ["[2001:db9::5]:80"], "2001:db9::5"),
        ("198.51.100.1", ["203.0.113.7"], "198.51.100.1"),
    ],
)
def test_client_address(peer: str, forwarded: list[str], expected: str) -> None:
    assert client_address(_request(peer, forwarded), PROXIES) == expected
    assert client_address(_request(peer, forwarded)) == peer


@pytest.mark.parametrize(
    ("address", "subject"),
    [
        ("203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("::ffff:203.0.113.7", "203.0.113.7"),
        ("testclient", "testclient"),
    ],
)
def test_addresses_are_counted_by_host_or_ipv6_network(address: str, subject: str) -> None:
    assert address_subject(address) == subject


def test_the_policy_comes_from_the_environment() -> None:
    settings = load_settings(
        {
            "EVENTCAL_LOGIN_MAX_FAILURES": "5",
            "EVENTCAL_LOGIN_MAX_FAILURES_PER_ADDRESS": "50",
            "EVENTCAL_LOGIN_WINDOW_SECONDS": "600",
            "EVENTCAL_LOGIN_FAILURE_DELAY_MS": "0",
            "EVENTCAL_TRUSTED_PROXIES": "10.0.0.0/8, 192.0.2.1",
        }
    )
    assert settings.login_max_failures == 5
    assert settings.login_max_failures_per_address == 50
    assert settings.login_window_seconds == 600
    assert settings.login_failure_delay_ms == 0
    assert settings.trusted_proxies == ("10.0.0.0/8", "192.0.2.1")
    defaults = load_settings({})
    assert (defaults.login_max_failures, defaults.login_max_failures_per_address) == (10, 30)
    assert defaults.trusted_proxies == ()


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("EVENTCAL_LOGIN_MAX_FAILURES", "0"),
        ("EVENTCAL_LOGIN_WINDOW_SECONDS", "-1"),
        ("EVENTCAL_LOGIN_FAILURE_DELAY_MS", "-5"),
        ("EVENTCAL_TRUSTED_PROXIES", "10.0.0.0/8,proxy.internal"),
    ],
)
def test_unusable_policies_are_refused(name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=name):
        load_settings({name: value})

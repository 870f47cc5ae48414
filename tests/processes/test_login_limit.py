"""The failed-login limit holds across server processes (issue 6): guesses spread over two
processes on one database are counted together, and both refuse once the limit is reached."""

from __future__ import annotations

import base64

import httpx2

from tests.conftest import PASSWORD
from tests.processes.conftest import AUTH, Server

NS = "/cal/events/v1"
LIMIT = 10
"""EVENTCAL_LOGIN_MAX_FAILURES's default, which the servers run with."""


def basic(login: str, password: str) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{login}:{password}".encode()).decode()}


def test_guesses_spread_over_two_processes_share_one_limit(two_servers: list[Server]) -> None:
    clients = [httpx2.Client(base_url=s.base, timeout=30) for s in two_servers]
    try:
        for attempt in range(LIMIT):
            client = clients[attempt % 2]
            response = client.get(f"{NS}/events", headers=basic("admin", f"guess {attempt}"))
            assert response.status_code == 401, response.text
            assert response.json()["code"] == "incorrect_password"
        for client in clients:
            # Refused by both processes, the right password too, with the time to wait.
            for headers in (basic("admin", "one more guess"), basic("admin", PASSWORD), AUTH):
                refused = client.get(f"{NS}/events", headers=headers)
                assert refused.status_code == 429, refused.text
                assert refused.json()["code"] == "too_many_login_attempts"
                assert 0 < int(refused.headers["Retry-After"]) <= 900
        # Anonymous reads are not affected.
        assert clients[0].get(f"{NS}/events").status_code == 200
    finally:
        for client in clients:
            client.close()

"""The database server goes away and comes back (issue 7): clear 503s meanwhile, never a 500,
nothing half-written, and the service recovers by itself."""

from __future__ import annotations

import time
from pathlib import Path

import httpx2

from tests.faults.conftest import PrivatePostgres
from tests.processes.conftest import AUTH, prepare, start_server

NS = "/cal/events/v1"
EVENT = {
    "title": "Harbour Night",
    "start_date": "2027-03-05 19:00:00",
    "end_date": "2027-03-05 22:00:00",
    "status": "publish",
}


def test_an_outage_is_503_and_the_service_recovers_by_itself(
    private_postgres: PrivatePostgres, password_hash: str, tmp_path: Path
) -> None:
    prepare(private_postgres.url, password_hash)
    server = start_server(private_postgres.url, tmp_path / "server.log")
    try:
        with httpx2.Client(base_url=server.base, timeout=30, headers=AUTH) as client:
            assert client.post(f"{NS}/events", json=EVENT).status_code == 201
            assert client.get(f"{NS}/events").json()["total"] == 1

            private_postgres.stop()
            statuses = set()
            for _ in range(3):
                for method, path in (("GET", f"{NS}/events"), ("POST", f"{NS}/events")):
                    response = client.request(
                        method, path, json=EVENT if method == "POST" else None
                    )
                    statuses.add(response.status_code)
                    assert response.status_code == 503, response.text
                    assert response.json()["code"] == "db_unavailable"
                    assert response.headers["retry-after"]
            assert client.get("/readyz").status_code == 503
            assert client.get("/healthz").status_code == 200

            private_postgres.start()
            deadline = time.monotonic() + 20
            while True:
                response = client.get(f"{NS}/events")
                assert response.status_code in (200, 503), response.text
                if response.status_code == 200 or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
            assert response.status_code == 200
            assert response.json()["total"] == 1  # nothing was written during the outage
            assert client.post(f"{NS}/events", json=EVENT).status_code == 201
            assert client.get("/readyz").status_code == 200
    finally:
        server.stop()

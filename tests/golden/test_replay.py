"""Golden tests: the 351 recorded exchanges of the original, replayed in order.

Each exchange must match its recording after normalisation, except for the differences listed
in KNOWN_DIFFERENCES with their reason (mostly DEVIATIONS.md). A difference that disappears
fails too, so the list always says exactly where we differ.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from starlette.testclient import TestClient

from eventcal.app import create_app
from eventcal.config import Settings
from eventcal.domains.accounts.credentials import hash_password
from tests import factories
from tests.golden import replay
from tests.golden.known_differences import KNOWN_DIFFERENCES

EXCHANGES = replay.load_exchanges()
RECORDED_AT = datetime(2026, 11, 22, 4, 46, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def replayed(database_url: str) -> dict[str, replay.Comparison]:
    """Run every exchange once, in recording order, on a database rebuilt to the reference
    state; the tests below read the outcome of each."""
    settings = Settings(
        database_url=database_url, public_url=replay.PUBLIC_URL, login_failure_delay_ms=0
    )
    app = create_app(settings, clock=lambda: RECORDED_AT)
    hashes = {
        "admin": hash_password(replay.ADMIN_PASSWORD),
        "subscriber": hash_password(replay.SUBSCRIBER_PASSWORD),
    }
    results: dict[str, replay.Comparison] = {}
    with TestClient(app, base_url=replay.PUBLIC_URL) as client:
        db = app.state.runtime.database
        portal = client.portal
        assert portal is not None
        portal.call(factories.empty_database, db)
        portal.call(replay.seed, db, EXCHANGES, hashes)
        for exchange in EXCHANGES:
            portal.call(replay.align_ids, db, exchange)
            post_max, term_max = portal.call(replay.max_ids, db)
            request = replay.build_request(exchange)
            response = client.request(**request)
            if exchange.response["status"] >= 400 and response.status_code < 300:
                portal.call(replay.discard_created_since, db, post_max, term_max)
            for follow_up in replay.follow_up_requests(exchange):
                assert client.request(**follow_up).status_code < 300, exchange.name
            try:
                body = response.json() if response.content else None
            except ValueError:
                body = response.text
            results[exchange.name] = replay.compare_exchange(
                exchange, response.status_code, response.headers, body
            )
        portal.call(factories.empty_database, db)
    return results


def _matches(pattern: str, path: str) -> bool:
    return re.fullmatch(re.escape(pattern).replace(r"\*", ".*"), path) is not None


@pytest.mark.parametrize("name", [e.name for e in EXCHANGES])
def test_exchange_matches_the_recording(replayed: dict[str, replay.Comparison], name: str) -> None:
    comparison = replayed[name]
    known = KNOWN_DIFFERENCES.get(name, {})
    unexpected = [d for d in comparison.differences if not any(_matches(p, d.path) for p in known)]
    assert not unexpected, "\n".join(str(d) for d in unexpected)
    vanished = [p for p in known if not any(_matches(p, path) for path in comparison.paths)]
    assert not vanished, f"listed differences no longer occur (update the list): {vanished}"


def test_the_replay_covers_every_recording() -> None:
    assert len(EXCHANGES) == 351
    assert [e.seq for e in EXCHANGES] == list(range(1, 352))

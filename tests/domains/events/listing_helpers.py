"""What ``test_filters.py``, ``test_listing.py`` share. They were one module:

``GET /events``: window, filters, visibility, pagination (spec events §2).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial
from urllib.parse import parse_qsl, urlsplit

from tests import factories
from tests.conftest import Api


def seed_days(api: Api, count: int = 12, *, per_day: int = 4) -> list[int]:
    """Events from 2026-12-01 09:00, ``per_day`` a day two hours apart, 90 minutes long."""
    ids = []
    start = datetime(2026, 12, 1, 9, 0)
    for i in range(count):
        day, slot = divmod(i, per_day)
        begin = start + timedelta(days=day, hours=2 * slot)
        ids.append(
            api.run(
                partial(
                    factories.make_event,
                    api.database,
                    f"Seed Event {i:03d}",
                    start=begin,
                    end=begin + timedelta(minutes=90),
                )
            )
        )
    return ids


def listed(response: object) -> list[int]:
    body = response.json()  # type: ignore[attr-defined]
    return [e["id"] for e in body["events"]]


def query_of(url: str) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(url).query))

"""The data version counts committed writes, whatever process made them."""

from __future__ import annotations

from eventcal.collections import REGISTRY
from eventcal.storage.db import data_version
from tests.conftest import NS, Api


def version(api: Api) -> int:
    async def read() -> int:
        async with api.database.read() as conn:
            return await data_version(conn)

    return api.run(read)


def test_committed_writes_count_and_nothing_else_does(api: Api) -> None:
    api.user("administrator")
    start = version(api)
    assert api.post(f"{NS}/tags", json={"name": "jazz"}).status_code == 201
    after_write = version(api)
    assert after_write == start + 1
    assert api.get(f"{NS}/tags?hide_empty=false").status_code == 200
    assert api.post(f"{NS}/tags", json={"name": ""}).status_code == 400
    assert api.post(f"{NS}/tags", json={"name": "jazz"}).status_code == 400  # term_exists
    assert version(api) == after_write


def test_the_scheduler_writes_only_when_something_is_due(api: Api) -> None:
    from datetime import timedelta

    from eventcal.resources import scheduling

    api.user("administrator")
    scheduled = api.post(
        f"{NS}/events",
        json={
            "title": "Later",
            "status": "future",
            "date": "2026-11-23 10:00:00",
            "start_date": "2026-12-05 19:00:00",
            "end_date": "2026-12-05 22:00:00",
        },
    )
    assert scheduled.json()["status"] == "future", scheduled.text
    start = version(api)
    now = api.client.app.state.runtime.clock()  # type: ignore[attr-defined]
    assert api.run(lambda: scheduling.publish_due(api.database, REGISTRY, now)) == {}
    assert version(api) == start
    later = now + timedelta(days=2)
    assert api.run(lambda: scheduling.publish_due(api.database, REGISTRY, later)) == {"event": 1}
    assert version(api) == start + 1

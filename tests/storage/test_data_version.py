"""The data version counts committed writes, whatever process made them."""

from __future__ import annotations

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

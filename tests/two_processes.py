"""Two apps on one database, standing for two server processes, with their response caches
off (every read is built, from what each process keeps): the fixtures of the freshness tests of
the item cache (``tests/http/test_item_cache.py``) and of the pages (``tests/web``); and a
reading process with its response cache on (``tests/http/test_response_freshness.py``). Loaded
by ``tests/conftest.py`` as a plugin."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from eventcal.app import create_app
from eventcal.config import Settings
from eventcal.http.conditional import ResponseCache
from eventcal.storage.itemcache import ItemCache
from tests.conftest import NS, Api, Clock


@pytest.fixture
def uncached(settings: Settings) -> Settings:
    return dataclasses.replace(settings, response_cache_mb=0)


@pytest.fixture
def writer(uncached: Settings, clock: Clock, password_hash: str) -> Iterator[Api]:
    """The process that writes (and reads: what it keeps must follow its own writes)."""
    from tests import factories

    app = create_app(uncached, clock=clock)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        helper = Api(client, app.state.runtime.database, password_hash)
        helper.run(lambda: factories.empty_database(app.state.runtime.database))
        yield helper


@pytest.fixture
def reader(writer: Api, uncached: Settings, clock: Clock) -> Iterator[TestClient]:
    """Another process on the same database."""
    del writer  # started first: it empties the database
    with TestClient(create_app(uncached, clock=clock), base_url="http://127.0.0.1") as client:
        yield client


@pytest.fixture
def cached_reader(writer: Api, settings: Settings, clock: Clock) -> Iterator[TestClient]:
    """Another process on the same database, with its response cache on (as deployed)."""
    del writer  # started first: it empties the database
    with TestClient(create_app(settings, clock=clock), base_url="http://127.0.0.1") as client:
        yield client


def responses(client: TestClient) -> ResponseCache:
    cache: ResponseCache = client.app.state.runtime.cache  # type: ignore[attr-defined]
    return cache


def items(client: TestClient) -> ItemCache:
    cache: ItemCache = client.app.state.runtime.items  # type: ignore[attr-defined]
    return cache


def create(api: Api, path: str, **fields: Any) -> int:
    response = api.post(f"{NS}/{path}", json={"status": "publish", **fields})
    assert response.status_code == 201, response.text
    return int(response.json()["id"])

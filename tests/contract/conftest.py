"""The contract suite runs every test once per declared collection (``REGISTRY``)."""

from __future__ import annotations

import pytest

from eventcal.collections import REGISTRY
from tests.conftest import Api
from tests.contract.declarations import DECLARATIONS
from tests.contract.helpers import Case


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "collection" in metafunc.fixturenames:
        names = [resource.collection for resource in REGISTRY]
        metafunc.parametrize("collection", names, ids=names)


@pytest.fixture
def case(api: Api, collection: str) -> Case:
    declared = DECLARATIONS.get(collection)
    if declared is None:
        pytest.fail(f"{collection} has no test data: add it to tests/contract/declarations.py")
    return Case(api, REGISTRY[collection], declared)

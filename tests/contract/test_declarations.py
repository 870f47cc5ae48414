"""Every declared collection has contract test data, and the test data names only declared
collections and fields."""

from __future__ import annotations

from eventcal.collections import REGISTRY
from tests.contract.declarations import DECLARATIONS


def test_every_declared_collection_has_test_data() -> None:
    assert [r.collection for r in REGISTRY] == list(DECLARATIONS)
    for resource in REGISTRY:
        declared = DECLARATIONS[resource.collection]
        fields = {f.name for f in resource.fields}
        assert set(declared.create) <= fields, resource.collection
        assert set(declared.update) <= fields, resource.collection
        assert {param for param, _ in declared.invalid} <= fields, resource.collection
        assert declared.invalid, resource.collection

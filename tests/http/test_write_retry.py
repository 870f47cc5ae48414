"""A write that PostgreSQL rolled back whole to break a deadlock or a serialization conflict
(``TransactionConflict``: nothing of it was written) is run again, up to
``CONFLICT_RETRIES`` times, before its caller gets the 503; other errors are not retried."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from eventcal.http import writing
from eventcal.storage.db import DatabaseUnavailable, TransactionConflict


def attempts_until(failures: int, error: type[Exception] = TransactionConflict) -> list[int]:
    calls: list[int] = []

    async def write() -> Any:
        calls.append(len(calls))
        if len(calls) <= failures:
            raise error("deadlock detected")
        return "written"

    result: Any = asyncio.run(writing.retried(write))
    assert result == "written"
    return calls


def test_a_write_rolled_back_by_a_conflict_is_run_again() -> None:
    assert writing.CONFLICT_RETRIES == 3
    assert len(attempts_until(3)) == 4


def test_the_conflict_after_the_last_retry_is_the_callers() -> None:
    with pytest.raises(TransactionConflict):
        attempts_until(4)


def test_other_failures_are_not_run_again() -> None:
    with pytest.raises(DatabaseUnavailable):
        attempts_until(1, DatabaseUnavailable)

"""SharedReads (PostgreSQL's data-version reads): one read serves every caller that asked while
the previous read ran, and no caller gets an answer read before it asked."""

from __future__ import annotations

import asyncio

import pytest

from eventcal.storage.db import SharedReads


class ControlledRead:
    """A read that returns 1, 2, 3… and waits until the test lets it finish."""

    def __init__(self) -> None:
        self.started = 0
        self.release: list[asyncio.Event] = []
        self.fail_next = False

    async def __call__(self) -> int:
        self.started += 1
        gate = asyncio.Event()
        self.release.append(gate)
        await gate.wait()
        if self.fail_next:
            self.fail_next = False
            raise ConnectionError("the database went away")
        return self.started


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_callers_during_a_read_share_the_next_one_not_the_running_one() -> None:
    async def scenario() -> None:
        read = ControlledRead()
        shared = SharedReads(read)
        first = asyncio.create_task(shared.get())
        await settle()
        assert read.started == 1
        # These ask while read 1 runs: it may have missed a write they saw, so they wait.
        later = [asyncio.create_task(shared.get()) for _ in range(3)]
        await settle()
        assert read.started == 1
        read.release[0].set()
        assert await first == 1
        await settle()
        assert read.started == 2  # one read for the three of them
        assert not any(task.done() for task in later)
        read.release[1].set()
        assert await asyncio.gather(*later) == [2, 2, 2]
        # Nobody waiting: the next caller starts a read of its own at once.
        again = asyncio.create_task(shared.get())
        await settle()
        assert read.started == 3
        read.release[2].set()
        assert await again == 3

    asyncio.run(scenario())


def test_a_failed_read_fails_its_callers_only() -> None:
    async def scenario() -> None:
        read = ControlledRead()
        shared = SharedReads(read)
        read.fail_next = True
        failing = [asyncio.create_task(shared.get()) for _ in range(2)]
        await settle()
        read.release[0].set()
        for task in failing:
            with pytest.raises(ConnectionError):
                await task
        after = asyncio.create_task(shared.get())
        await settle()
        read.release[1].set()
        assert await after == 2

    asyncio.run(scenario())

"""Log lines' timestamps: UTC to the millisecond, as ``datetime.isoformat`` writes them (the
text of the current second is reused by the lines written within it)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from eventcal.logs import timestamp


def test_timestamps_read_as_isoformat_writes_them() -> None:
    rng = random.Random(7)
    moments = [0.0, 0.9995, 59.001, 1764019283.5, 1764019283.999, 1764019283.9999996]
    moments += [rng.uniform(1.7e9, 1.8e9) for _ in range(200)]
    for at in moments:
        expected = datetime.fromtimestamp(at, UTC).isoformat(timespec="milliseconds")
        assert timestamp(at) == expected, at
    now = datetime.fromisoformat(timestamp())
    assert abs((datetime.now(UTC) - now).total_seconds()) < 5

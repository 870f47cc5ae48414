"""Giving freed memory back to the system, and a worker's garbage collector.

Cached response bodies (~6 KB each) are replaced all the time. With glibc, the memory they free
stays in the process's heap in holes between longer-lived allocations: measured with
PostgreSQL, a worker's Python objects stayed at 53 MB (tracemalloc) while its resident memory
grew from 127 to 154 MB over a minute of ``GET /events/{id}``. ``malloc_trim(0)`` hands the free
pages back; run every :data:`INTERVAL_SECONDS` it keeps the worker flat (a few milliseconds per
call). Elsewhere than glibc (musl, macOS) there is nothing to call and nothing is done.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

INTERVAL_SECONDS = 10.0

YOUNG_THRESHOLD = 10_000
"""Allocations of tracked objects (net of frees) between two collections of the youngest
generation, in a server's worker (CPython's default is 700; see :func:`settle`)."""


def settle() -> None:
    """Once a server's worker has started: what it built at start (modules, statements, the
    routes: ~100,000 objects) goes where the garbage collector no longer looks (``gc.freeze``),
    and the youngest generation is collected after :data:`YOUNG_THRESHOLD` allocations.

    A worker creating events under load otherwise spent ~85 µs of each request in the
    collector: a full collection (every ~2 s) walked all those objects (~50 ms, a pause every
    request waiting then saw), and with 32 requests in flight the 700 allocations of the
    default made a young collection every ~7 requests, promoting objects that die soon after.
    Measured on a worker: 0.47 s of collections over ~5,400 creates, 0.09 s after
    (bench/README.md)."""
    gc.collect()
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, oldest)


def _malloc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
    except OSError:
        return None
    function = getattr(libc, "malloc_trim", None)
    if function is None:
        return None
    function.argtypes = [ctypes.c_size_t]
    function.restype = ctypes.c_int
    return function  # type: ignore[no-any-return]


_TRIM = _malloc_trim()


def can_release() -> bool:
    """Whether this C library can give freed heap memory back (glibc)."""
    return _TRIM is not None


def release() -> bool:
    """Return the heap's free pages to the system now; whether any were."""
    return bool(_TRIM(0)) if _TRIM is not None else False


async def release_periodically() -> None:
    """Run :func:`release` every :data:`INTERVAL_SECONDS` until cancelled."""
    if not can_release():
        return
    while True:
        await asyncio.sleep(INTERVAL_SECONDS)
        try:
            release()
        except Exception:  # pragma: no cover - malloc_trim does not fail; never stop serving
            log.exception("releasing memory failed")

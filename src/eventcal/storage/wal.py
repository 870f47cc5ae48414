"""How much of SQLite's write-ahead log waits for a checkpoint, read from its wal-index.

SQLite's automatic checkpoint runs inside the ``COMMIT`` that brings the WAL past 1,000 pages
(frames); the service runs its checkpoints off the commit path instead (``storage/sqlite.py``)
and so needs that count itself, which Python's ``sqlite3`` does not expose (no
``sqlite3_wal_hook``). Every connection to a WAL database maps its ``-shm`` file, whose header
(https://www.sqlite.org/walformat.html, "The WAL-Index Header" and "The Checkpoint Info") holds
``mxFrame``, the last valid frame of the log, and ``nBackfill``, the frames already copied into
the database file: their difference is what the next checkpoint has to copy, whichever process
wrote it. Read with one ``pread`` (no lock: a torn read only moves one checkpoint by a commit).
"""

from __future__ import annotations

import os
import struct

CHECKPOINT_FRAMES = 1000
"""WAL frames not yet copied into the database file after which a commit is followed by a
checkpoint: SQLite's own default (``wal_autocheckpoint``)."""

_VERSION = 3007000
"""``iVersion`` of the wal-index header SQLite has written since 3.7.0."""
_HEADER = struct.Struct("=I12xI76xI")
"""``iVersion`` (offset 0), ``mxFrame`` (16) and ``nBackfill`` (96), in native byte order."""


def open_index(database_path: str) -> int | None:
    """A read-only descriptor of the database's wal-index (``-shm``), None if there is none."""
    try:
        return os.open(f"{database_path}-shm", os.O_RDONLY)
    except OSError:
        return None


def pending_frames(index: int | None) -> int | None:
    """Frames of the WAL not yet checkpointed, or None when the index cannot be read (then
    the caller should checkpoint: better one too many than a WAL that grows)."""
    if index is None:
        return None
    try:
        header = os.pread(index, _HEADER.size, 0)
    except OSError:
        return None
    if len(header) < _HEADER.size:
        return None
    version, last, backfilled = _HEADER.unpack(header)
    if version != _VERSION:
        return None
    return max(int(last) - int(backfilled), 0)

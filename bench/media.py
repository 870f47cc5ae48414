"""Media library figures (issue 16): processing an upload, and a stored file to serve.

``python bench/media.py`` times the upload of a ~3 MB camera-sized JPEG (4000×3000) through
the whole app in process (body, Pillow validation, re-encoding without metadata, three
renditions, the rows and bytes written to a temporary SQLite database) and the processing
alone, wall clock and CPU (``process_time``, which a loaded machine does not inflate).
:func:`add_media` stores one image in a seeded database for ``run.py``'s serving scenario.
"""

from __future__ import annotations

import asyncio
import io
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime

from PIL import Image, ImageFilter

from eventcal.domains.media import store
from eventcal.domains.media.images import process
from eventcal.domains.media.upload import LIMITS
from eventcal.storage import queries as q
from eventcal.storage.db import create_database

PUBLIC_URL = "http://127.0.0.1"


def camera_jpeg(width: int = 4000, height: int = 3000, target: int = 3_000_000) -> bytes:
    """A photo-like JPEG of about ``target`` bytes: smooth gradients with fine noise."""
    rng = random.Random(16)
    small = Image.new("RGB", (width // 50, height // 50))
    small.putdata(
        [
            (rng.randrange(256), rng.randrange(256), rng.randrange(256))
            for _ in range(small.width * small.height)
        ]
    )
    picture = small.resize((width, height), Image.Resampling.BICUBIC)
    noise = Image.effect_noise((width, height), 40).convert("RGB")
    picture = Image.blend(picture, noise, 0.25).filter(ImageFilter.SMOOTH)
    quality, data = 95, b""
    while quality > 40:
        out = io.BytesIO()
        picture.save(out, "JPEG", quality=quality)
        data = out.getvalue()
        if len(data) <= target * 1.1:
            break
        quality -= 5
    return data


async def add_media(url: str) -> str:
    """Store one uploaded photo in the database at ``url``; the path of its medium rendition."""
    processed = process(camera_jpeg(1600, 1200, 400_000), filename="bench.jpg", limits=LIMITS)
    database = create_database(url)
    await database.startup()
    try:
        async with database.transaction() as conn:
            media_id = await q.new_post_id(conn, "media")
            values, files = store.row_values(media_id, processed, PUBLIC_URL, datetime.now(UTC))
            await store.insert(conn, {**values, "id": media_id, "title": "bench"}, files)
    finally:
        await database.shutdown()
    medium = next(f for f in files if f["size"] == "medium")
    return f"{store.FILES_PATH}{medium['hash']}/{medium['name']}"


def _upload_through_the_app(data: bytes, rounds: int) -> tuple[list[float], list[float]]:
    from starlette.testclient import TestClient

    from eventcal.app import create_app
    from eventcal.config import Settings
    from eventcal.storage import migrate

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/media.db"
        migrate.upgrade(url)
        asyncio.run(_admin(url))
        app = create_app(Settings(database_url=url, public_url=PUBLIC_URL))
        headers = {
            "Content-Type": "image/jpeg",
            "Content-Disposition": 'attachment; filename="photo.jpg"',
        }
        timings, cpu = [], []
        with TestClient(app, base_url=PUBLIC_URL) as client:
            for _ in range(rounds):
                started, started_cpu = time.perf_counter(), time.process_time()
                response = client.post(
                    "/cal/events/v1/media",
                    content=data,
                    headers=headers,
                    auth=("bench", "bench pw 8"),
                )
                timings.append(time.perf_counter() - started)
                cpu.append(time.process_time() - started_cpu)
                assert response.status_code == 201, response.text
    return timings, cpu


async def _admin(url: str) -> None:
    from eventcal.domains.accounts.credentials import hash_password
    from eventcal.storage.tables import app_password, app_user

    database = create_database(url)
    await database.startup()
    try:
        async with database.transaction() as conn:
            now = datetime.now(UTC)
            user = await conn.scalar(
                app_user.insert()
                .values(login="bench", role="administrator", created_at=now)
                .returning(app_user.c.id)
            )
            await conn.execute(
                app_password.insert().values(
                    user_id=user,
                    label="bench",
                    password_hash=hash_password("bench pw 8"),
                    created_at=now,
                )
            )
    finally:
        await database.shutdown()


def main() -> int:
    rounds = 10
    data = camera_jpeg()
    print(f"upload: {len(data):,} bytes, 4000x3000 JPEG; {rounds} rounds each")
    cpu, wall = [], []
    for _ in range(rounds):
        started, started_cpu = time.perf_counter(), time.process_time()
        process(data, filename="photo.jpg", limits=LIMITS)
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    app, app_cpu = _upload_through_the_app(data, rounds)
    for name, values in (
        ("processing, wall", wall),
        ("processing, CPU", cpu),
        ("POST /media, wall", app),
        ("POST /media, CPU", app_cpu),
    ):
        print(
            f"{name:>20}: median {statistics.median(values) * 1000:6.0f} ms, "
            f"min {min(values) * 1000:6.0f} ms, max {max(values) * 1000:6.0f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

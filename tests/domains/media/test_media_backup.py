"""``eventcal export``/``import`` carry the media: rows, files' bytes, images of items."""

from __future__ import annotations

import io

from eventcal.storage import backup
from tests import factories
from tests.conftest import NS, RECORDED_NOW, Api
from tests.domains.media.library import MEDIA, image_bytes, path_of, uploaded


def test_an_export_round_trip_keeps_the_media_and_their_bytes(api: Api) -> None:
    media = uploaded(api, image_bytes(1600, 1200, "JPEG"), content_type="image/jpeg")
    event = api.post(
        f"{NS}/events",
        json={
            "title": "Gig",
            "start_date": "2027-01-01 10:00",
            "end_date": "2027-01-01 11:00",
            "image": media["id"],
        },
    ).json()["id"]
    urls = [media["url"], *(s["url"] for s in media["media_details"]["sizes"].values())]
    files = {url: api.get(path_of(url)).content for url in urls}
    shown = api.get(f"{NS}/events/{event}").json()["image"]
    out = io.BytesIO()

    async def export() -> dict[str, int]:
        return await backup.export_data(api.database, out, now=RECORDED_NOW)

    counts = api.run(export)
    assert counts["media_file"] == 4
    api.run(lambda: factories.empty_database(api.database))
    assert api.get(path_of(media["url"])).status_code == 404

    async def restore() -> dict[str, int]:
        return await backup.import_data(api.database, out.getvalue().splitlines())

    api.run(restore)
    for url, data in files.items():
        served = api.get(path_of(url))
        assert served.status_code == 200
        assert served.content == data
    assert api.get(f"{MEDIA}/{media['id']}").json()["media_details"] == media["media_details"]
    assert api.get(f"{NS}/events/{event}").json()["image"] == shown

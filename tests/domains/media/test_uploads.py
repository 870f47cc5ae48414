"""Uploading to the media library: both forms, renditions, every refusal (both backends)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from tests.conftest import Api
from tests.domains.media.library import (
    MEDIA,
    form_upload,
    image_bytes,
    path_of,
    raw_upload,
    uploaded,
)


def test_a_raw_body_upload_makes_an_item_with_its_renditions(api: Api) -> None:
    data = image_bytes(2000, 1500, "JPEG")
    response = raw_upload(api, data, filename="Summer Poster.JPG", content_type="image/jpeg")
    assert response.status_code == 201, response.text
    item = response.json()
    assert response.headers["Location"].endswith(f"{MEDIA}/{item['id']}")
    assert item["mime_type"] == "image/jpeg"
    assert item["media_type"] == "image"
    assert item["title"] == "summer-poster"
    assert item["url"].endswith("/summer-poster.jpg")
    details = item["media_details"]
    assert (details["width"], details["height"]) == (2000, 1500)
    assert details["file"] == "summer-poster.jpg"
    assert details["filesize"] > 0
    sizes = details["sizes"]
    assert list(sizes) == ["thumbnail", "medium", "large"]
    assert (sizes["thumbnail"]["width"], sizes["thumbnail"]["height"]) == (150, 150)
    assert (sizes["medium"]["width"], sizes["medium"]["height"]) == (300, 225)
    assert (sizes["large"]["width"], sizes["large"]["height"]) == (1024, 768)
    for size in sizes.values():
        assert size["mime-type"] == "image/jpeg"
        served = api.get(path_of(size["url"]))
        assert served.status_code == 200
        assert len(served.content) == size["filesize"]
        assert Image.open(io.BytesIO(served.content)).size == (size["width"], size["height"])
    again = api.get(f"{MEDIA}/{item['id']}").json()
    assert again == item


def test_a_multipart_upload_takes_the_file_field_and_the_texts(api: Api) -> None:
    response = form_upload(
        api,
        image_bytes(200, 100),
        filename="C:\\photos\\band.png",
        fields={"title": "The band", "alt_text": "Four people on a stage", "caption": "Live"},
    )
    assert response.status_code == 201, response.text
    item = response.json()
    assert (item["title"], item["alt_text"], item["caption"]) == (
        "The band",
        "Four people on a stage",
        "Live",
    )
    assert item["media_details"]["file"] == "band.png"
    # 200×100: only the thumbnail is smaller (cut to 150×100); medium and large would not be.
    sizes = item["media_details"]["sizes"]
    assert list(sizes) == ["thumbnail"]
    assert (sizes["thumbnail"]["width"], sizes["thumbnail"]["height"]) == (150, 100)


def test_a_tiny_image_gets_no_renditions(api: Api) -> None:
    item = uploaded(api, image_bytes(120, 90))
    assert item["media_details"]["sizes"] == {}
    assert (item["media_details"]["width"], item["media_details"]["height"]) == (120, 90)


def test_texts_are_translatable(api: Api) -> None:
    item = uploaded(api, params={"title": "Poster", "alt_text": "A red square"})
    german = api.post(
        f"{MEDIA}/{item['id']}",
        json={"title": "Plakat", "alt_text": "Ein rotes Quadrat", "translation_language": "de"},
    )
    assert german.status_code == 200, german.text
    assert api.get(f"{MEDIA}/{item['id']}").json()["title"] == "Poster"
    shown = api.get(f"/de{MEDIA}/{item['id']}").json()
    assert (shown["title"], shown["alt_text"]) == ("Plakat", "Ein rotes Quadrat")
    assert sorted(shown["translations"]) == ["de", "en"]


def _png_header_then_html() -> bytes:
    one_pixel = image_bytes(1, 1)
    header = one_pixel[: one_pixel.index(b"IDAT") - 4]
    return header + b"<html><script>alert(1)</script></html>"


def _png_bomb() -> bytes:
    """A PNG header declaring 20,000 × 20,000 pixels (400 megapixels) with a tiny body."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    ihdr = struct.pack(">IIBBBBB", 20_000, 20_000, 8, 2, 0, 0, 0)
    body = zlib.compress(b"\x00" * 1000)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", body) + chunk(b"IEND", b"")


REFUSED = {
    "PNG header then HTML": (_png_header_then_html(), "rest_upload_invalid_type", 400),
    "HTML": (b"<!doctype html><p>hello</p>", "rest_upload_invalid_type", 400),
    "SVG": (
        b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        "rest_upload_invalid_type",
        400,
    ),
    "20,000 x 20,000 PNG bomb": (_png_bomb(), "rest_upload_image_too_large", 400),
    "truncated JPEG": (
        image_bytes(800, 600, "JPEG")[:3000],
        "rest_upload_invalid_image",
        400,
    ),
    "empty body": (b"", "rest_upload_no_data", 400),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_uploads_say_why_and_store_nothing(api: Api, case: str) -> None:
    data, code, status = REFUSED[case]
    response = raw_upload(api, data)
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code
    assert body["data"]["status"] == status
    assert body["message"]
    assert api.get(MEDIA).json()["total"] == 0


def test_a_file_beyond_the_byte_limit_is_413(api: Api) -> None:
    data = image_bytes(100, 100) + b"\x00" * 10_000_001
    response = raw_upload(api, data)
    assert response.status_code == 413
    assert response.json()["code"] == "rest_upload_file_too_big"


def test_a_raw_body_without_a_file_name_is_refused(api: Api) -> None:
    response = raw_upload(api, image_bytes(), filename=None)
    assert response.status_code == 400
    assert response.json()["code"] == "rest_upload_no_content_disposition"
    only_dots = raw_upload(api, image_bytes(), filename="../")
    assert only_dots.status_code == 400
    assert only_dots.json()["code"] == "rest_upload_no_content_disposition"


def test_a_file_name_with_directories_is_stored_under_its_safe_name(api: Api) -> None:
    item = uploaded(api, image_bytes(), filename="../../etc/passwd.png")
    assert item["media_details"]["file"] == "passwd.png"
    assert path_of(item["url"]).endswith("/passwd.png")
    assert ".." not in item["url"]
    disguised = uploaded(api, image_bytes(64, 64, "JPEG"), filename="../evil.php.png")
    assert disguised["media_details"]["file"] == "evil-php.jpg"
    assert disguised["mime_type"] == "image/jpeg"


def test_no_file_at_all_is_no_data(api: Api) -> None:
    response = api.post(MEDIA, json={"title": "nothing"})
    assert response.status_code == 400
    assert response.json()["code"] == "rest_upload_no_data"


def test_exif_location_is_stripped_and_the_orientation_applied(api: Api) -> None:
    picture = Image.new("RGB", (60, 40), (10, 20, 30))
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90° clockwise to show
    gps = exif.get_ifd(0x8825)
    gps[1] = "N"
    gps[2] = (52.0, 31.0, 12.0)
    gps[3] = "E"
    gps[4] = (13.0, 24.0, 36.0)
    out = io.BytesIO()
    picture.save(out, "JPEG", exif=exif)
    assert b"GPS" in out.getvalue() or Image.open(io.BytesIO(out.getvalue())).getexif().get_ifd(
        0x8825
    )
    item = uploaded(api, out.getvalue(), filename="where.jpg", content_type="image/jpeg")
    assert (item["media_details"]["width"], item["media_details"]["height"]) == (40, 60)
    served = api.get(path_of(item["url"])).content
    stored = Image.open(io.BytesIO(served))
    assert not stored.getexif().get_ifd(0x8825)
    assert stored.getexif().get(0x0112) in (None, 1)
    assert stored.size == (40, 60)


def _list(api: Api, **params: Any) -> list[int]:
    response = api.get(MEDIA, params=params)
    assert response.status_code == 200, response.text
    return [item["id"] for item in response.json()["media"]]


def test_the_list_filters_by_search_type_and_parent_and_pages(api: Api) -> None:
    event = api.post(
        "/cal/events/v1/events",
        json={"title": "Gig", "start_date": "2027-01-01 10:00", "end_date": "2027-01-01 11:00"},
    ).json()["id"]
    png = uploaded(api, image_bytes(), filename="stage.png", params={"post": str(event)})["id"]
    jpeg = uploaded(api, image_bytes(fmt="JPEG"), filename="crowd.jpg", content_type="image/jpeg")[
        "id"
    ]
    assert _list(api) == [jpeg, png] or sorted(_list(api)) == sorted([jpeg, png])
    assert _list(api, search="stage") == [png]
    assert _list(api, mime_type="image/jpeg") == [jpeg]
    assert sorted(_list(api, mime_type="image")) == sorted([png, jpeg])
    assert _list(api, mime_type="video") == []
    assert _list(api, parent=str(event)) == [png]
    page = api.get(MEDIA, params={"per_page": 1})
    assert page.headers["X-TEC-Total"] == "2"
    assert page.json()["total_pages"] == 2
    assert len(page.json()["media"]) == 1
    bad = api.get(MEDIA, params={"mime_type": "image/%"})
    assert bad.status_code == 400
    assert bad.json()["code"] == "rest_invalid_param"


def test_an_upload_is_processed_before_its_transaction_opens(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Decoding and resizing take long: no write transaction (on SQLite, the database's one
    write lock) may be held meanwhile."""
    import contextlib
    from collections.abc import AsyncIterator

    from eventcal.domains.media import images, upload

    database = api.database
    original = database.transaction
    open_now: list[int] = [0]
    seen: list[int] = []

    @contextlib.asynccontextmanager
    async def counted(*args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        async with original(*args, **kwargs) as conn:
            open_now[0] += 1
            try:
                yield conn
            finally:
                open_now[0] -= 1

    def watched(*args: Any, **kwargs: Any) -> Any:
        seen.append(open_now[0])
        return images_process(*args, **kwargs)

    images_process = images.process
    monkeypatch.setattr(database, "transaction", counted)
    monkeypatch.setattr(upload, "process", watched)
    assert raw_upload(api, image_bytes()).status_code == 201
    assert form_upload(api, image_bytes()).status_code == 201
    assert seen == [0, 0]

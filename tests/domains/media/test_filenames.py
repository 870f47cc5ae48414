"""Upload file names: a client's name never escapes anything, and the extension is the
detected format's."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from eventcal.domains.media.filenames import filename_from_disposition, safe_filename
from eventcal.domains.media.images import Limits, process


@pytest.mark.parametrize(
    ("raw", "extension", "expected"),
    [
        ("poster.jpg", "jpg", "poster.jpg"),
        ("Summer Party 2026.JPG", "jpg", "summer-party-2026.jpg"),
        ("../../etc/passwd", "png", "passwd.png"),
        ("../../../poster.jpg", "jpg", "poster.jpg"),
        ("/var/www/html/shell.php", "gif", "shell.gif"),
        ("C:\\Users\\jane\\Desktop\\Ärger.PNG", "jpg", "arger.jpg"),
        ("poster.php.jpg", "jpg", "poster-php.jpg"),
        ("photo.png", "jpg", "photo.jpg"),
        ("no-extension", "webp", "no-extension.webp"),
        ("Straße café.webp", "webp", "strasse-cafe.webp"),
        ("東京タワー.jpg", "jpg", "dong-jing-tawa.jpg"),
        ("..", "jpg", "image.jpg"),
        ("../", "jpg", "image.jpg"),
        ("???.jpg", "jpg", "image.jpg"),
        (".htaccess", "png", "htaccess.png"),
        ("", "png", "image.png"),
        (None, "gif", "image.gif"),
        ("a\x00b\r\n.jpg", "jpg", "a-b.jpg"),
    ],
)
def test_safe_filenames(raw: str | None, extension: str, expected: str) -> None:
    assert safe_filename(raw, extension) == expected


def test_a_long_name_is_cut_at_a_word() -> None:
    name = safe_filename("word " * 60 + ".jpg", "jpg")
    assert name.endswith("word.jpg") and len(name) <= 104


def test_a_lying_extension_gives_way_to_the_content() -> None:
    out = io.BytesIO()
    Image.new("RGB", (20, 10), "red").save(out, "JPEG")
    result = process(out.getvalue(), filename="../photo.png", limits=Limits())
    assert (result.name, result.mime_type) == ("photo.jpg", "image/jpeg")


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ('attachment; filename="poster.jpg"', "poster.jpg"),
        ("attachment; filename=poster.jpg", "poster.jpg"),
        ("attachment;filename=poster.jpg ", "poster.jpg"),
        ('inline; FILENAME="Poster.JPG"', "Poster.JPG"),
        ('form-data; name="file"; filename="poster.jpg"', "poster.jpg"),
        (
            'attachment; filename="a \\"quoted\\" name; with semicolon.jpg"',
            'a "quoted" name; with semicolon.jpg',
        ),
        ("attachment; filename*=UTF-8''%E2%82%AC%20rates.jpg", "€ rates.jpg"),
        ("attachment; filename*=utf-8'de'%C3%84rger.jpg", "Ärger.jpg"),
        ("attachment; filename*=ISO-8859-1''%C4rger.jpg", "Ärger.jpg"),
        # RFC 6266 §4.3: filename* wins, wherever it stands
        ("attachment; filename=\"fallback.jpg\"; filename*=UTF-8''%C3%BCber.jpg", "über.jpg"),
        ("attachment; filename*=UTF-8''%C3%BCber.jpg; filename=\"fallback.jpg\"", "über.jpg"),
        # an unusable filename* falls back to filename
        ("attachment; filename*=KOI8-R''%C1.jpg; filename=\"fallback.jpg\"", "fallback.jpg"),
        ('attachment; filename*=no-quotes.jpg; filename="fallback.jpg"', "fallback.jpg"),
        ('attachment; filename="../../etc/passwd"', "passwd"),
        ('attachment; filename="C:\\\\photos\\\\poster.jpg"', "poster.jpg"),
        ("attachment; filename*=UTF-8''..%2F..%2Fsecret.jpg", "secret.jpg"),
        ('attachment; filename="line\r\nSet-Cookie: x.jpg"', "lineSet-Cookie: x.jpg"),
        ('attachment; filename="poster.jpg"; filename="other.jpg"', "poster.jpg"),
        ("attachment", None),
        ("", None),
        ('attachment; filename=""', None),
        ('attachment; filename="../"', None),
        ('attachment; name="poster.jpg"', None),
    ],
)
def test_filename_from_content_disposition(header: str, expected: str | None) -> None:
    assert filename_from_disposition(header) == expected

"""Uploaded images: recognised by content, refused when hostile, cleaned, resized once.

Every image is made here with Pillow; nothing binary is committed.
"""

from __future__ import annotations

import functools
import io
import random
import struct
import warnings
import zlib
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageCms, ImageSequence, features

from eventcal.domains.media import images
from eventcal.domains.media.formats import ACCEPTED
from eventcal.domains.media.images import (
    PILLOW_MAX_PIXELS,
    ImageRejected,
    Limits,
    Processed,
    process,
)
from eventcal.i18n import translate

LIMITS = Limits()
HAS_AVIF = features.check_module("avif")
RED, GREEN, BLUE = (255, 0, 0), (0, 255, 0), (0, 0, 255)
SRGB = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()


def encode(image: Image.Image, fmt: str, **options: Any) -> bytes:
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


def picture(width: int, height: int, mode: str = "RGB") -> Image.Image:
    """Four coloured quadrants (red top left, green top right, blue bottom left, white bottom
    right), so that turns and crops show in the pixels."""
    image = Image.new("RGB", (width, height), "white")
    image.paste(RED, (0, 0, width // 2, height // 2))
    image.paste(GREEN, (width // 2, 0, width, height // 2))
    image.paste(BLUE, (0, height // 2, width // 2, height))
    return image.convert(mode)


def reopen(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def pixel(image: Image.Image, point: tuple[int, int]) -> tuple[int, ...]:
    value = image.getpixel(point)
    assert isinstance(value, tuple)
    return value


def close_to(actual: Any, expected: tuple[int, ...], tolerance: int = 40) -> bool:
    return all(abs(a - e) <= tolerance for a, e in zip(actual, expected, strict=False))


def exif_with_gps(orientation: int) -> Image.Exif:
    exif = Image.Exif()
    exif[0x0112] = orientation  # Orientation
    exif[0x010F] = "Canon"  # Make
    exif[0x013B] = "Jane Photographer"  # Artist
    gps = exif.get_ifd(0x8825)
    gps[1], gps[2] = "N", (48.0, 51.0, 29.0)
    gps[3], gps[4] = "E", (2.0, 17.0, 40.0)
    return exif


def run(data: bytes, limits: Limits = LIMITS, filename: str | None = "upload.jpg") -> Processed:
    return process(data, filename=filename, limits=limits)


def processed_or_refusal(data: bytes) -> Processed | ImageRejected:
    try:
        return run(data)
    except ImageRejected as error:
        return error


def rejected(data: bytes, limits: Limits = LIMITS) -> ImageRejected:
    with pytest.raises(ImageRejected) as caught:
        run(data, limits)
    return caught.value


# --- accepted formats ------------------------------------------------------------------------

FORMATS = [
    ("JPEG", "image/jpeg", "jpg", "RGB"),
    ("PNG", "image/png", "png", "RGBA"),
    ("GIF", "image/gif", "gif", "P"),
    ("WEBP", "image/webp", "webp", "RGBA"),
    pytest.param(
        "AVIF",
        "image/avif",
        "avif",
        "RGB",
        marks=pytest.mark.skipif(not HAS_AVIF, reason="this Pillow has no AVIF"),
    ),
]


@pytest.mark.parametrize(("fmt", "mime", "extension", "mode"), FORMATS)
def test_each_accepted_format_is_recognised_by_its_content(
    fmt: str, mime: str, extension: str, mode: str
) -> None:
    data = encode(picture(400, 200, mode), fmt)
    result = run(data, filename="Holiday Photo.bmp")
    assert (result.mime_type, result.extension) == (mime, extension)
    assert (result.width, result.height) == (400, 200)
    assert result.name == f"holiday-photo.{extension}"
    stored = reopen(result.file)
    assert stored.format == fmt and stored.size == (400, 200)
    assert result.filesize == len(result.file)
    assert close_to(stored.convert("RGB").getpixel((50, 50)), RED)
    assert close_to(stored.convert("RGB").getpixel((350, 150)), (255, 255, 255))


def test_accepted_types_follow_this_pillow_build() -> None:
    mime_types = [f.mime_type for f in ACCEPTED]
    assert mime_types[:4] == ["image/jpeg", "image/png", "image/gif", "image/webp"]
    assert ("image/avif" in mime_types) == HAS_AVIF


# --- sizes -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        ((2000, 1000), {"thumbnail": (150, 150), "medium": (300, 150), "large": (1024, 512)}),
        ((1000, 2000), {"thumbnail": (150, 150), "medium": (150, 300), "large": (512, 1024)}),
        ((1024, 1024), {"thumbnail": (150, 150), "medium": (300, 300)}),
        ((1025, 700), {"thumbnail": (150, 150), "medium": (300, 205), "large": (1024, 699)}),
        ((3000, 300), {"thumbnail": (150, 150), "medium": (300, 30), "large": (1024, 102)}),
        ((200, 100), {"thumbnail": (150, 100)}),
        ((160, 300), {"thumbnail": (150, 150)}),
        ((150, 150), {}),
        ((100, 80), {}),
    ],
)
def test_only_the_sizes_smaller_than_the_original_are_made(
    size: tuple[int, int], expected: dict[str, tuple[int, int]]
) -> None:
    result = run(encode(picture(*size), "JPEG"))
    assert {name: (r.width, r.height) for name, r in result.sizes.items()} == expected
    assert list(result.sizes) == [n for n in ("thumbnail", "medium", "large") if n in expected]
    for rendition in result.sizes.values():
        stored = reopen(rendition.data)
        assert stored.format == "JPEG" and stored.size == (rendition.width, rendition.height)
        assert (rendition.mime_type, rendition.extension) == ("image/jpeg", "jpg")
        assert rendition.filesize == len(rendition.data)


def test_renditions_keep_the_picture_and_the_thumbnail_is_its_centre() -> None:
    # red | green | blue thirds: the square thumbnail is cut from the green middle
    image = Image.new("RGB", (900, 300), RED)
    image.paste(GREEN, (300, 0, 600, 300))
    image.paste(BLUE, (600, 0, 900, 300))
    result = run(encode(image, "PNG"))
    thumbnail = reopen(result.sizes["thumbnail"].data).convert("RGB")
    for point in [(0, 0), (75, 75), (149, 149), (0, 149)]:
        assert close_to(thumbnail.getpixel(point), GREEN), point
    medium = reopen(result.sizes["medium"].data).convert("RGB")
    assert medium.size == (300, 100)
    assert close_to(medium.getpixel((10, 50)), RED) and close_to(medium.getpixel((290, 50)), BLUE)


def test_rendition_file_names_follow_wordpress() -> None:
    result = run(encode(picture(2000, 1000), "GIF"), filename="Poster.gif")
    assert result.name == "poster.gif"
    names = [r.file_name(result.name) for r in result.sizes.values()]
    assert names == ["poster-150x150.png", "poster-300x150.png", "poster-1024x512.png"]


def test_a_large_jpeg_keeps_its_own_quality() -> None:
    """Re-encoding uses the source's quantisation tables: neither bigger nor blurrier."""
    source = picture(1200, 900)
    source.paste(Image.effect_noise((600, 450), 40).convert("RGB"), (300, 200))
    data = encode(source, "JPEG", quality=70)
    result = run(data)
    stored = reopen(result.file)
    assert stored.quantization == reopen(data).quantization  # type: ignore[attr-defined]
    assert 0.8 < result.filesize / len(data) < 1.2


# --- refusals --------------------------------------------------------------------------------


def png_chunk(kind: bytes, payload: bytes) -> bytes:
    body = kind + payload
    return struct.pack(">I", len(payload)) + body + struct.pack(">I", zlib.crc32(body))


def png_header(width: int, height: int, bit_depth: int = 8, colour: int = 0) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, colour, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr)


def png_bomb(side: int) -> bytes:
    """A real black ``side`` × ``side`` 1-bit PNG: a few kilobytes that decode to side² pixels
    (20,000² = 400 million), compressed row by row so that building it costs little."""
    row = b"\x00" * (1 + side // 8)
    packer = zlib.compressobj(9)
    compressed = b"".join(packer.compress(row) for _ in range(side)) + packer.flush()
    return (
        png_header(side, side, bit_depth=1)
        + png_chunk(b"IDAT", compressed)
        + png_chunk(b"IEND", b"")
    )


def truncated_jpeg() -> bytes:
    data = encode(Image.effect_noise((300, 200), 50).convert("RGB"), "JPEG")
    return data[: len(data) // 2]


def animation(frames: int, fmt: str = "GIF", size: tuple[int, int] = (40, 30)) -> bytes:
    colours = [RED, GREEN, BLUE, (255, 255, 0), (0, 255, 255)]
    pictures = [Image.new("RGB", size, colours[i % len(colours)]) for i in range(frames)]
    return encode(
        pictures[0],
        fmt,
        save_all=True,
        append_images=pictures[1:],
        duration=[100 * (i + 1) for i in range(frames)],
        loop=0,
    )


SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
    b"<script>alert(1)</script></svg>"
)
HTML = b"<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>"


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"", "rest_upload_no_data"),
        (png_header(1, 1) + HTML, "rest_upload_invalid_type"),
        (SVG, "rest_upload_invalid_type"),
        (HTML, "rest_upload_invalid_type"),
        (random.Random(0).randbytes(4096), "rest_upload_invalid_type"),
        (b"\xff\xd8\xff", "rest_upload_invalid_type"),
        (truncated_jpeg(), "rest_upload_invalid_image"),
        (encode(picture(20, 20), "BMP"), "rest_upload_invalid_type"),
        (encode(picture(20, 20), "TIFF"), "rest_upload_invalid_type"),
        (png_bomb(20_000), "rest_upload_image_too_large"),
    ],
    ids=[
        *("empty", "png-header-then-html", "svg", "html", "random", "jpeg-magic-only"),
        *("truncated-jpeg", "bmp", "tiff", "png-bomb-20000"),
    ],
)
def test_what_is_not_an_accepted_image_is_refused(data: bytes, code: str) -> None:
    error = rejected(data)
    assert (error.code, error.status) == (code, 400)
    assert "{" not in translate(error.message, "en", **error.message_args)


def test_the_refusal_names_the_accepted_types() -> None:
    error = rejected(HTML)
    text = translate(error.message, "en", **error.message_args)
    assert "image/jpeg, image/png, image/gif, image/webp" in text
    assert translate(error.message, "de", **error.message_args) != text


def test_too_many_bytes_is_413_before_anything_is_read() -> None:
    error = rejected(b"x" * 1001, Limits(max_bytes=1000))
    assert (error.code, error.status, error.message_args) == (
        "rest_upload_file_too_big",
        413,
        {"limit": 1000},
    )
    assert run(encode(picture(20, 20), "PNG"), Limits(max_bytes=1000)).width == 20


def test_pixels_are_counted_from_the_header_before_decoding() -> None:
    """Below Pillow's own threshold but above ours: refused although the pixel data is
    garbage, which decoding would have reported as damage."""
    data = png_header(9_000, 9_000) + png_chunk(b"IDAT", b"garbage") + png_chunk(b"IEND", b"")
    error = rejected(data)
    assert (error.code, error.message_args) == (
        "rest_upload_image_too_large",
        {"limit": 50_000_000},
    )
    assert rejected(data, Limits(max_pixels=PILLOW_MAX_PIXELS)).code == "rest_upload_invalid_image"


def test_frames_are_limited_and_count_towards_the_pixels() -> None:
    data = animation(5)
    error = rejected(data, Limits(max_frames=4))
    assert (error.code, error.message_args) == (
        "rest_upload_too_many_frames",
        {"frames": 5, "limit": 4},
    )
    assert rejected(data, Limits(max_pixels=40 * 30 * 5 - 1)).code == "rest_upload_image_too_large"
    assert run(data, Limits(max_frames=5, max_pixels=40 * 30 * 5)).width == 40


def gif_with_a_growing_frame(side: int) -> bytes:
    """A 10×10 GIF with a second frame of side × side: Pillow grows the canvas to fit it."""
    first = encode(Image.new("P", (10, 10)), "GIF").removesuffix(b"\x3b")
    descriptor = b"\x2c" + struct.pack("<HHHHB", 0, 0, side, side, 0)
    return first + descriptor + b"\x02\x02\x44\x01\x00" + b"\x3b"  # one LZW pixel, the end


def test_a_gif_frame_larger_than_its_canvas_counts_before_it_is_decoded() -> None:
    data = gif_with_a_growing_frame(2_000)
    header = Image.open(io.BytesIO(data))
    assert header.size == (10, 10) and getattr(header, "n_frames", 1) == 2
    error = rejected(data, Limits(max_pixels=1_000_000))
    assert (error.code, error.message_args) == ("rest_upload_image_too_large", {"limit": 1_000_000})


def test_limits_may_not_exceed_pillows_own() -> None:
    with pytest.raises(ValueError, match="Pillow"):
        Limits(max_pixels=PILLOW_MAX_PIXELS + 1)
    with pytest.raises(ValueError, match="positive"):
        Limits(max_frames=0)


def test_pillow_is_hardened_for_the_whole_process() -> None:
    assert Image.MAX_IMAGE_PIXELS == PILLOW_MAX_PIXELS
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        images._harden_pillow()
        with pytest.raises(Image.DecompressionBombWarning):
            Image.open(io.BytesIO(png_header(10_000, 10_000) + png_chunk(b"IDAT", b"")))


def test_a_script_appended_to_a_valid_png_is_not_stored() -> None:
    data = encode(picture(40, 30), "PNG") + HTML
    result = run(data)
    assert b"script" not in result.file
    assert reopen(result.file).size == (40, 30)


@functools.cache
def _seeds() -> dict[str, bytes]:
    seeds = {
        "jpeg": encode(picture(64, 48), "JPEG", exif=exif_with_gps(6)),
        "progressive-jpeg": encode(picture(64, 48), "JPEG", progressive=True),
        "png": encode(picture(64, 48, "RGBA"), "PNG", exif=exif_with_gps(3)),
        "gif": animation(3),
        "apng": animation(3, "PNG"),
        "webp": encode(picture(64, 48), "WEBP", exif=exif_with_gps(6)),
        "animated-webp": animation(3, "WEBP"),
    }
    if HAS_AVIF:
        seeds["avif"] = encode(picture(64, 48), "AVIF", exif=exif_with_gps(6))
    return seeds


@settings(
    max_examples=200,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.sampled_from(sorted(_seeds())),
    edits=st.lists(
        st.tuples(st.integers(0, 10_000), st.binary(min_size=1, max_size=4)), max_size=4
    ),
    cut=st.integers(1, 10_000),
)
def test_damaged_files_are_either_processed_or_refused(
    seed: str, edits: list[tuple[int, bytes]], cut: int
) -> None:
    """Whatever a damaged file makes Pillow's readers raise becomes a refusal; nothing else
    escapes. Pillow's warnings about corrupt EXIF (it skips the bad tags) are ignored here as
    they are in production, where warnings are not errors."""
    data = bytearray(_seeds()[seed])
    for position, replacement in edits:
        at = position % len(data)
        data[at : at + len(replacement)] = replacement
    data = data[: max(1, cut % (len(data) + 1))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        outcome = processed_or_refusal(bytes(data))
    if isinstance(outcome, ImageRejected):
        assert outcome.status == 400 and outcome.code.startswith("rest_upload_")
    else:
        assert reopen(outcome.file).size == (outcome.width, outcome.height)


# --- metadata and orientation ----------------------------------------------------------------


def assert_clean(data: bytes) -> Image.Image:
    image = reopen(data)
    exif = image.getexif()
    assert 0x0112 not in exif and 0x8825 not in exif and not exif.get_ifd(0x8825)
    assert not {"exif", "xmp", "comment", "dpi", "Author"} & set(image.info)
    for secret in (b"Jane Photographer", b"Canon", b"Exif\x00\x00", b"secret-xmp", b"GPS"):
        assert secret not in data
    return image


def test_exif_location_is_stripped_and_the_orientation_applied_to_the_pixels() -> None:
    # Orientation 6: the camera was turned; the picture must be turned 90° clockwise to show.
    data = encode(
        picture(400, 200),
        "JPEG",
        exif=exif_with_gps(6),
        xmp=b"<x:xmpmeta>secret-xmp</x:xmpmeta>",
        comment=b"Jane Photographer",
        icc_profile=SRGB,
    )
    assert reopen(data).getexif()[0x0112] == 6
    result = run(data)
    assert (result.width, result.height) == (200, 400)
    stored = assert_clean(result.file)
    assert stored.size == (200, 400)
    assert stored.info.get("icc_profile") == SRGB
    # red was top left; turned clockwise it is top right, and blue (bottom left) top left
    assert close_to(stored.getpixel((150, 50)), RED)
    assert close_to(stored.getpixel((50, 50)), BLUE)
    assert {n: (r.width, r.height) for n, r in result.sizes.items()} == {
        "thumbnail": (150, 150),
        "medium": (150, 300),
    }
    medium = assert_clean(result.sizes["medium"].data)
    assert close_to(medium.getpixel((120, 30)), RED) and close_to(medium.getpixel((30, 30)), BLUE)
    assert_clean(result.sizes["thumbnail"].data)


@pytest.mark.parametrize("fmt", ["PNG", "WEBP"])
def test_png_and_webp_metadata_is_stripped(fmt: str) -> None:
    options: dict[str, Any] = {"exif": exif_with_gps(3)}
    if fmt == "PNG":
        from PIL.PngImagePlugin import PngInfo

        text = PngInfo()
        text.add_text("Author", "Jane Photographer")
        text.add_itxt("XML:com.adobe.xmp", "<x:xmpmeta>secret-xmp</x:xmpmeta>")
        options["pnginfo"] = text
    else:
        options["xmp"] = b"<x:xmpmeta>secret-xmp</x:xmpmeta>"
    result = run(encode(picture(400, 200), fmt, **options))
    stored = assert_clean(result.file)
    # orientation 3: turned half a turn, so red (top left) ends bottom right
    assert close_to(stored.convert("RGB").getpixel((350, 150)), RED)
    for rendition in result.sizes.values():
        assert_clean(rendition.data)


# --- modes and animations --------------------------------------------------------------------


@pytest.mark.parametrize("profile", [None, SRGB], ids=["no-profile", "mismatched-profile"])
def test_a_cmyk_jpeg_is_stored_as_rgb(profile: bytes | None) -> None:
    result = run(encode(picture(400, 200, "CMYK"), "JPEG", icc_profile=profile))
    stored = reopen(result.file)
    assert stored.mode == "RGB" and close_to(stored.getpixel((50, 50)), RED)
    assert "icc_profile" not in stored.info
    assert reopen(result.sizes["medium"].data).mode == "RGB"


def test_a_colour_profile_that_is_not_one_is_dropped() -> None:
    result = run(encode(picture(400, 200), "PNG", icc_profile=b"<script>" * 20))
    assert "icc_profile" not in reopen(result.file).info
    assert b"script" not in result.file


def test_a_multi_picture_jpeg_is_stored_as_its_first_picture() -> None:
    """A camera's MPO (a JPEG with more pictures appended, each with its own EXIF)."""
    second = picture(400, 200).transpose(Image.Transpose.ROTATE_180)
    data = encode(picture(400, 200), "MPO", save_all=True, append_images=[second])
    assert Image.open(io.BytesIO(data)).format == "MPO"
    result = run(data)
    stored = Image.open(io.BytesIO(result.file))
    assert (stored.format, getattr(stored, "n_frames", 1)) == ("JPEG", 1)
    assert result.mime_type == "image/jpeg" and result.filesize < len(data) * 0.7
    assert close_to(stored.convert("RGB").getpixel((50, 50)), RED)


@pytest.mark.parametrize(
    ("mode", "stored_mode", "rendition_mode"),
    [("P", "P", "RGBA"), ("LA", "LA", "LA"), ("L", "L", "L"), ("I;16", "I;16", "I;16")],
)
def test_png_modes_are_kept(mode: str, stored_mode: str, rendition_mode: str) -> None:
    image = picture(400, 200, "RGBA" if mode == "P" else mode)
    options = {}
    if mode == "P":
        image = picture(400, 200).convert("P")
        options["transparency"] = image.getpixel((350, 150))
    result = run(encode(image, "PNG", **options))
    assert reopen(result.file).mode == stored_mode
    rendition = reopen(result.sizes["medium"].data)
    assert rendition.mode == rendition_mode
    if mode == "P":
        assert pixel(rendition, (10, 10))[3] == 255 and pixel(rendition, (290, 140))[3] == 0


def test_transparent_edges_do_not_darken_when_resized() -> None:
    """Alpha is premultiplied while resizing (Pillow does it): the half-transparent border of
    a white square on a transparent (black) background stays white, not grey."""
    image = Image.new("RGBA", (800, 800), (0, 0, 0, 0))
    image.paste((255, 255, 255, 255), (200, 200, 600, 600))
    medium = reopen(run(encode(image, "PNG")).sizes["medium"].data)
    edges = [p for p in medium.get_flattened_data() if isinstance(p, tuple) and 0 < p[3] < 255]
    assert edges and all(min(p[:3]) > 240 for p in edges)


@pytest.mark.parametrize("fmt", ["GIF", "WEBP", "PNG"])
def test_animations_keep_their_frames_and_timing(fmt: str) -> None:
    result = run(animation(3, fmt, size=(400, 300)))
    stored = Image.open(io.BytesIO(result.file))
    assert stored.format == fmt and getattr(stored, "n_frames", 1) == 3
    colours, durations = [], []
    for frame in ImageSequence.Iterator(stored):
        frame.load()  # WebP knows a frame's duration once it is decoded
        durations.append(frame.info.get("duration"))
        colours.append(frame.convert("RGB").getpixel((200, 150)))
    assert durations == [100, 200, 300]
    assert all(close_to(c, e) for c, e in zip(colours, [RED, GREEN, BLUE], strict=True))
    thumbnail = reopen(result.sizes["thumbnail"].data)
    assert close_to(thumbnail.convert("RGB").getpixel((75, 75)), RED)
    expected_mime = "image/png" if fmt in ("GIF", "PNG") else "image/webp"
    assert result.sizes["thumbnail"].mime_type == expected_mime


def test_an_animated_gif_keeps_transparency_that_changes_between_frames() -> None:
    first = Image.new("RGBA", (40, 30), (*RED, 255))
    first.paste((0, 0, 0, 0), (39, 0, 40, 30))  # some transparency, so the GIF has some
    second = Image.new("RGBA", (40, 30), (0, 0, 0, 0))
    second.paste((*BLUE, 255), (0, 0, 20, 30))
    data = encode(first, "GIF", save_all=True, append_images=[second], duration=50, disposal=2)
    stored = Image.open(io.BytesIO(run(data).file))
    stored.seek(1)
    frame = stored.convert("RGBA")
    assert close_to(frame.getpixel((5, 5)), (*BLUE, 255))
    assert pixel(frame, (35, 5))[3] == 0

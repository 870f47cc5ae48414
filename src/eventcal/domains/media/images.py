"""Uploaded images: recognised by content, cleaned of metadata, resized once.

:func:`process` is the media library's only door for image bytes. Pillow decides what the file
is (never its name or the client's Content-Type) and only the JPEG, PNG, GIF, WebP and (when
this Pillow build has it) AVIF readers are tried, so no other parser ever sees an upload. The
result is what gets stored: the full-size image *re-encoded*, with the EXIF orientation applied
to the pixels, and the WordPress renditions ``thumbnail``, ``medium`` and ``large``. Re-encoding
is deliberate: only pixels, transparency and the colour profile survive, so EXIF (GPS), XMP,
IPTC, comments, embedded thumbnails and anything appended after the image data (a script behind
a PNG) never reach the storage. JPEGs are re-encoded with their own quantisation tables, which
keeps the loss and the file size close to the original's.

Pure: bytes in, bytes out. The caller stores the files, picks a unique name and builds URLs.
File names live in :mod:`eventcal.domains.media.filenames`.
"""

from __future__ import annotations

import io
import struct
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from PIL import (
    Image,
    ImageCms,
    ImageFile,
    ImageOps,
    ImageSequence,
    JpegImagePlugin,
    UnidentifiedImageError,
)

from eventcal.domains.media.filenames import safe_filename
from eventcal.domains.media.formats import (
    ACCEPTED,
    GIF,
    JPEG,
    OPEN_WITH,
    READERS,
    Format,
    rendition_format,
    save_options,
)
from eventcal.domains.media.renditions import Rendition, make_renditions
from eventcal.errors import ApiError
from eventcal.i18n import N_

PILLOW_MAX_PIXELS = 89_478_485
"""Pillow's own decompression-bomb threshold (its default), pinned here for the whole process;
:class:`Limits` may only be stricter."""


def _harden_pillow() -> None:
    """Process-wide: Pillow's bomb threshold pinned, its bomb warning made an error (above
    the threshold Pillow only warns, up to twice it), truncated files never "repaired"."""
    Image.MAX_IMAGE_PIXELS = PILLOW_MAX_PIXELS
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    warnings.filterwarnings("error", category=Image.DecompressionBombWarning)


_harden_pillow()


@dataclass(frozen=True, slots=True)
class Limits:
    """What an upload may be. ``max_pixels`` counts every frame (width × height × frames):
    an animation is saved with all its frames decoded in memory at once."""

    max_bytes: int = 10_000_000
    max_pixels: int = 50_000_000
    max_frames: int = 200

    def __post_init__(self) -> None:
        if min(self.max_bytes, self.max_pixels, self.max_frames) < 1:
            raise ValueError("image limits must be positive")
        if self.max_pixels > PILLOW_MAX_PIXELS:
            raise ValueError(f"max_pixels may not exceed Pillow's {PILLOW_MAX_PIXELS}")


class ImageRejected(ApiError):
    """An upload refused for what it is: ``code``, ``status`` (400, or 413 for too many bytes),
    ``message`` (a message id) and ``message_args``; rendered like every :class:`ApiError`."""


_DECODE_ERRORS = (
    *(OSError, SyntaxError, ValueError, EOFError, struct.error, IndexError, TypeError),
    RuntimeError,
)
"""What Pillow raises for damaged data: its reading errors (OSError, SyntaxError, ValueError,
EOFError), what its parsers let through (struct.error, IndexError, TypeError) and the AVIF
decoder's RuntimeError. Caught around reading only, never around our own code."""
_BOMB = (Image.DecompressionBombError, Image.DecompressionBombWarning)


@dataclass(frozen=True, slots=True)
class Processed:
    """What to store for an upload. ``file`` is the full-size image (``width`` × ``height``,
    upright); ``sizes`` holds, in the order of ``renditions.SIZES``, only the renditions
    smaller than it."""

    mime_type: str
    extension: str
    width: int
    height: int
    file: bytes
    name: str
    sizes: Mapping[str, Rendition]

    @property
    def filesize(self) -> int:
        return len(self.file)


def process(data: bytes, *, filename: str | None, limits: Limits) -> Processed:
    """Validate an upload by its content and make the files to store.

    Raises:
        ImageRejected: empty, too many bytes (413), not an accepted image, damaged or
            truncated, too many pixels (checked before anything is decoded) or frames.
    """
    if not data:
        raise ImageRejected("rest_upload_no_data", N_("No data supplied."), 400)
    if len(data) > limits.max_bytes:
        raise ImageRejected(
            "rest_upload_file_too_big",
            N_("The file is larger than {limit} bytes."),
            413,
            limit=limits.max_bytes,
        )
    source, fmt = _identify(data, limits)
    with source:
        picture = _decode(source, fmt, limits)
        first = picture.frames[0]
        tables = _jpeg_tables(source, first) if fmt is JPEG else {}
    return Processed(
        mime_type=fmt.mime_type,
        extension=fmt.extension,
        width=first.width,
        height=first.height,
        file=_encode_full(picture, fmt, tables),
        name=safe_filename(filename, fmt.extension),
        sizes=make_renditions(first, rendition_format(fmt), picture.icc),
    )


def _identify(data: bytes, limits: Limits) -> tuple[ImageFile.ImageFile, Format]:
    """Open (headers only) with the accepted readers, and check the limits before decoding."""
    try:
        source = Image.open(io.BytesIO(data), formats=OPEN_WITH)
    except _BOMB as error:
        raise _too_large(limits) from error
    except (UnidentifiedImageError, *_DECODE_ERRORS) as error:
        raise _invalid_type() from error
    fmt = READERS[str(source.format)]
    try:
        frames = 1 if source.format == "MPO" else int(getattr(source, "n_frames", 1))
    except _DECODE_ERRORS as error:
        source.close()
        raise _damaged(fmt) from error
    if frames > limits.max_frames:
        source.close()
        raise ImageRejected(
            "rest_upload_too_many_frames",
            N_("The animation has {frames} frames; the limit is {limit}."),
            400,
            frames=frames,
            limit=limits.max_frames,
        )
    if source.width * source.height * frames > limits.max_pixels:
        source.close()
        raise _too_large(limits)
    return source, fmt


def _too_large(limits: Limits) -> ImageRejected:
    return ImageRejected(
        "rest_upload_image_too_large",
        N_("The image is larger than {limit} pixels (all frames counted)."),
        400,
        limit=limits.max_pixels,
    )


def _invalid_type() -> ImageRejected:
    return ImageRejected(
        "rest_upload_invalid_type",
        N_("The file is not an image of an accepted type ({types})."),
        400,
        types=", ".join(f.mime_type for f in ACCEPTED),
    )


def _damaged(fmt: Format) -> ImageRejected:
    return ImageRejected(
        "rest_upload_invalid_image",
        N_("The {type} image is damaged or incomplete."),
        400,
        type=fmt.mime_type,
    )


@dataclass(slots=True)
class _Picture:
    """An upload decoded: its frames upright and without metadata, and what is kept of the
    file besides pixels."""

    frames: list[Image.Image]
    durations: list[int]
    loop: int | None
    icc: ImageCms.ImageCmsProfile | None


def _decode(source: ImageFile.ImageFile, fmt: Format, limits: Limits) -> _Picture:
    """Every frame decoded and turned upright, with the frames' durations, the loop count and
    the colour profile. Only the first image of an MPO (a camera's multi-picture JPEG).

    Pixels are counted again frame by frame, before each is decoded: a GIF frame may be
    bigger than the canvas its header declares, and Pillow then grows the canvas.
    """
    pixels = 0
    loop = source.info.get("loop")
    icc = _colour_profile(source.info.get("icc_profile"))
    frames: list[Image.Image] = []
    durations: list[int] = []
    try:
        for frame in ImageSequence.Iterator(source):
            pixels += frame.width * frame.height
            if pixels > limits.max_pixels:
                raise _too_large(limits)
            # A decoded copy, turned if the EXIF orientation says so; WebP and AVIF know a
            # frame's duration once it is decoded.
            upright = ImageOps.exif_transpose(frame)
            durations.append(int(frame.info.get("duration", 0)))
            upright.info = {k: v for k, v in upright.info.items() if k == "transparency"}
            frames.append(upright)
            if source.format == "MPO":
                break
    except _BOMB as error:
        raise _too_large(limits) from error
    except _DECODE_ERRORS as error:
        raise _damaged(fmt) from error
    if frames[0].mode == "CMYK":
        frames, icc = [_cmyk_to_rgb(frames[0], icc)], None
    elif fmt is JPEG and frames[0].mode not in ("L", "RGB"):
        frames = [frames[0].convert("RGB")]
    return _Picture(frames, durations, loop if isinstance(loop, int) else None, icc)


def _colour_profile(icc: Any) -> ImageCms.ImageCmsProfile | None:
    """The embedded ICC profile when it is a real one; colours depend on it (a phone's
    Display P3), so it is kept, as WordPress keeps it."""
    if not isinstance(icc, bytes) or not icc:
        return None
    try:
        return ImageCms.ImageCmsProfile(io.BytesIO(icc))
    except (ImageCms.PyCMSError, OSError):
        return None


def _cmyk_to_rgb(image: Image.Image, icc: ImageCms.ImageCmsProfile | None) -> Image.Image:
    """A print JPEG made sRGB, through its profile when it has one: browsers show CMYK
    JPEGs badly or not at all."""
    if icc is not None:
        try:
            converted = ImageCms.profileToProfile(
                image, icc, ImageCms.createProfile("sRGB"), outputMode="RGB"
            )
        except ImageCms.PyCMSError:
            converted = None
        if converted is not None:
            return converted
    return image.convert("RGB")


def _encode_full(picture: _Picture, fmt: Format, tables: dict[str, Any]) -> bytes:
    """The full-size file in the upload's format; animations keep every frame."""
    first, *rest = picture.frames
    options = save_options(fmt, picture.icc, full_size=True)
    if tables:  # Pillow would scale the source's tables by a given quality: they go alone
        del options["quality"]
        options |= tables
    if rest:
        options |= {"save_all": True, "append_images": rest, "duration": picture.durations}
        if picture.loop is not None:
            options["loop"] = picture.loop
        if fmt is GIF:
            # Frames are whole pictures: each replaces the last, transparent pixels included.
            options["disposal"] = 2
    out = io.BytesIO()
    first.save(out, fmt.pillow, **options)
    return out.getvalue()


def _jpeg_tables(source: ImageFile.ImageFile, image: Image.Image) -> dict[str, Any]:
    """The source's own quantisation tables and chroma subsampling, so that re-encoding costs
    little quality and no size; Pillow's default quality when the source's do not fit."""
    tables = getattr(source, "quantization", None)
    if source.mode != image.mode or not tables or len(tables) > 4:
        return {}
    options: dict[str, Any] = {"qtables": tables}
    sampling = JpegImagePlugin.get_sampling(source)
    if sampling >= 0:
        options["subsampling"] = sampling
    return options

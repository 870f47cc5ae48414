"""The image formats uploads may have, and how each is written back.

Pillow's reader names map to what is stored: its MIME type and extension, the format of its
renditions, and the encoder options (quality) for the full-size file and the renditions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PIL import ImageCms, features


@dataclass(frozen=True, slots=True)
class Format:
    """A file format as stored: Pillow's name for it, its MIME type and file extension."""

    pillow: str
    mime_type: str
    extension: str


JPEG = Format("JPEG", "image/jpeg", "jpg")
PNG = Format("PNG", "image/png", "png")
GIF = Format("GIF", "image/gif", "gif")
WEBP = Format("WEBP", "image/webp", "webp")
AVIF = Format("AVIF", "image/avif", "avif")

READERS: dict[str, Format] = {"JPEG": JPEG, "MPO": JPEG, "PNG": PNG, "GIF": GIF, "WEBP": WEBP}
"""Pillow's name for what it read → what is stored. MPO is a camera's multi-picture JPEG,
which Pillow's JPEG reader returns: its first picture is stored as a JPEG."""
if features.check_module("avif"):
    READERS["AVIF"] = AVIF
OPEN_WITH = [name for name in READERS if name != "MPO"]
"""The only readers Pillow may try on an upload (the JPEG reader returns MPOs itself)."""
ACCEPTED: tuple[Format, ...] = tuple(dict.fromkeys(READERS.values()))
"""The formats uploads may have (AVIF only when this Pillow build decodes it)."""

_RENDITION_FORMAT = {GIF: PNG}
"""Renditions are first frames; a still GIF would need its colours quantised, a PNG does not."""

_QUALITY = {JPEG: (90, 82), WEBP: (90, 82), AVIF: (85, 75)}
"""(full size, renditions); 82 is WordPress's quality for its sub-sizes."""

_AVIF_SPEED = 8
"""Measured: at Pillow's default speed 6 a 1024 px AVIF rendition takes ~0.5 s, at 8 ~0.07 s."""


def rendition_format(fmt: Format) -> Format:
    return _RENDITION_FORMAT.get(fmt, fmt)


def save_options(
    fmt: Format, icc: ImageCms.ImageCmsProfile | None, *, full_size: bool
) -> dict[str, Any]:
    """Pillow's encoder options for ``fmt``: the colour profile, and quality for the lossy
    formats (full-size JPEGs are not optimised: it costs time on the largest file)."""
    options: dict[str, Any] = {} if icc is None else {"icc_profile": icc.tobytes()}
    if fmt in _QUALITY:
        full, rendition = _QUALITY[fmt]
        options["quality"] = full if full_size else rendition
    if fmt is JPEG:
        options["optimize"] = not full_size
    if fmt is AVIF:
        options["speed"] = _AVIF_SPEED
    return options

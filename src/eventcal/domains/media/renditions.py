"""Renditions: the WordPress image sizes of an upload, made once when it is uploaded.

``thumbnail`` is cut to 150×150 (centred), ``medium`` and ``large`` fit in 300×300 and
1024×1024 keeping the aspect ratio; only the sizes smaller than the original are made, as
WordPress does, and nothing is ever enlarged.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageCms

from eventcal.domains.media.formats import JPEG, Format, save_options


@dataclass(frozen=True, slots=True)
class Size:
    """A WordPress image size: ``crop`` cuts to exactly width × height (centred), otherwise the
    image is fitted inside the box keeping its aspect ratio."""

    name: str
    width: int
    height: int
    crop: bool


SIZES = (
    Size("thumbnail", 150, 150, True),
    Size("medium", 300, 300, False),
    Size("large", 1024, 1024, False),
)
"""Smallest first (the order of ``media_details.sizes``)."""


@dataclass(frozen=True, slots=True)
class Rendition:
    width: int
    height: int
    mime_type: str
    extension: str
    data: bytes

    @property
    def filesize(self) -> int:
        return len(self.data)

    def file_name(self, name: str) -> str:
        """WordPress's name for this size of the file ``name``: ``poster-150x150.jpg``."""
        stem = name.rpartition(".")[0] or name
        return f"{stem}-{self.width}x{self.height}.{self.extension}"


def target(size: Size, width: int, height: int) -> tuple[int, int] | None:
    """A size's dimensions for a width × height image, or None when it would not be smaller.
    As WordPress: a crop smaller than the box in one direction keeps that side (200×100 →
    150×100)."""
    if size.crop:
        cropped = (min(size.width, width), min(size.height, height))
        return None if cropped == (width, height) else cropped
    if width <= size.width and height <= size.height:
        return None
    scale = min(size.width / width, size.height / height)
    return max(1, round(width * scale)), max(1, round(height * scale))


def make_renditions(
    image: Image.Image, fmt: Format, icc: ImageCms.ImageCmsProfile | None
) -> dict[str, Rendition]:
    """The sizes smaller than the (upright, decoded) image, in ``fmt``, in the order of SIZES.

    Resizing the full picture is the expensive part, so it is done once, for the largest
    size; a smaller one is made from a rendition still at least twice as big as it needs (a
    panorama's thumbnail comes from the full picture). ``reducing_gap=1.5`` lets Pillow shrink
    by a whole factor with a box filter first (a 4032 px photo: by 2, then Lanczos for the
    remaining ×1.97), measured 3× faster than Lanczos alone.
    """
    full = _resizable(image, fmt)
    sources = [full]
    made: dict[str, Rendition] = {}
    for size in reversed(SIZES):
        dimensions = target(size, image.width, image.height)
        if dimensions is None:
            continue
        scale = max(dimensions[0] / image.width, dimensions[1] / image.height)
        source = next((s for s in sources[:0:-1] if s.width >= 2 * scale * image.width), full)
        box = _crop_box(source.size, dimensions) if size.crop else None
        resized = source.resize(dimensions, Image.Resampling.LANCZOS, box=box, reducing_gap=1.5)
        if not size.crop:
            sources.append(resized)
        made[size.name] = _encode(resized, fmt, icc)
    return {s.name: made[s.name] for s in SIZES if s.name in made}


def _crop_box(size: tuple[int, int], target: tuple[int, int]) -> tuple[float, float, float, float]:
    """The centred part of an image of ``size`` with the aspect ratio of ``target``."""
    width, height = size
    if width * target[1] > height * target[0]:
        cut = (width - height * target[0] / target[1]) / 2
        return (cut, 0, width - cut, height)
    cut = (height - width * target[1] / target[0]) / 2
    return (0, cut, width, height - cut)


def _resizable(image: Image.Image, fmt: Format) -> Image.Image:
    """The image in a mode that resizes smoothly and that ``fmt`` can store: palettes and
    bilevel images expanded. (Pillow itself premultiplies alpha while resizing, so
    transparent areas leave no dark fringes.)"""
    if fmt is JPEG:
        return image if image.mode in ("L", "RGB") else image.convert("RGB")
    if image.mode in ("P", "PA", "1"):
        if image.has_transparency_data:
            return image.convert("RGBA")
        return image.convert("L" if image.mode == "1" else "RGB")
    return image


def _encode(image: Image.Image, fmt: Format, icc: ImageCms.ImageCmsProfile | None) -> Rendition:
    out = io.BytesIO()
    image.save(out, fmt.pillow, **save_options(fmt, icc, full_size=False))
    return Rendition(image.width, image.height, fmt.mime_type, fmt.extension, out.getvalue())

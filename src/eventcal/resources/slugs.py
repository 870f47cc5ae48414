"""Slugs like WordPress ``sanitize_title``: lower-case ASCII, accents transliterated,
whitespace and punctuation turned into ``-``, only ``a-z 0-9 _ -`` kept."""

from __future__ import annotations

from slugify import slugify

MAX_SLUG_LENGTH = 200
TRASH_SUFFIX = "__trashed"

_REPLACEMENTS = [["'", ""], ["\u2019", ""], ["\u2018", ""], ["&amp;", ""]]


def sanitize_slug(text: str) -> str:
    """Normalise a slug or a title into a slug (``""`` when nothing usable is left)."""
    return slugify(
        text,
        regex_pattern=r"[^-a-z0-9_]+",
        replacements=_REPLACEMENTS,
        max_length=MAX_SLUG_LENGTH,
        word_boundary=False,
        save_order=True,
    ).strip("-")


def numbered(base: str, number: int) -> str:
    """``base-2``, ``base-3``…, shortened so the suffix always fits."""
    suffix = f"-{number}"
    return base[: MAX_SLUG_LENGTH - len(suffix)].rstrip("-") + suffix


def trashed(slug: str) -> str:
    """The slug a trashed item gets, so that its old slug is free again."""
    if not slug or slug.endswith(TRASH_SUFFIX):
        return slug
    return slug[: MAX_SLUG_LENGTH - len(TRASH_SUFFIX)] + TRASH_SUFFIX


def untrashed(slug: str) -> str:
    return slug.removesuffix(TRASH_SUFFIX)

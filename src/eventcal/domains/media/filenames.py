"""Upload file names: what the client called the file, and the safe name we store it under.

A client's name is only a hint for the stored name and the title: the stored name is a
lower-case ASCII slug of its last path component's stem, with the extension of the format
*detected* in the content, so ``../../etc/passwd``, ``C:\\photos\\Ärger.PNG`` (a JPEG) and
``poster.php.jpg`` become ``passwd.jpg``, ``arger.jpg`` and ``poster-php.jpg``.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

from slugify import slugify

MAX_STEM_LENGTH = 100
FALLBACK_STEM = "image"
"""The stem when nothing usable is left of the client's name (none, ``..``, ``???.jpg``)."""

_PARAMETER = re.compile(r';\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)')
_QUOTED_PAIR = re.compile(r"\\(.)")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def safe_filename(raw: str | None, extension: str) -> str:
    """``<slug of the stem>.<extension>``: no directory, no dot but the extension's, never
    empty. ``extension`` comes from the detected format, not from ``raw``."""
    base = _basename(raw or "")
    stem = base.rpartition(".")[0] if "." in base.lstrip(".") else base
    slug = slugify(stem, max_length=MAX_STEM_LENGTH, word_boundary=True)
    return f"{slug or FALLBACK_STEM}.{extension}"


def filename_from_disposition(header: str) -> str | None:
    """The file name a ``Content-Disposition`` header gives, without any directory part or
    control character; None when it gives none.

    RFC 6266: ``filename*`` (RFC 8187 ``UTF-8''%E2%82%AC.jpg``, also ISO-8859-1) wins over
    ``filename`` (a token or a quoted string with backslash escapes) wherever it stands.
    """
    plain: str | None = None
    extended: str | None = None
    for match in _PARAMETER.finditer(header):
        name, value = match.group(1).lower(), match.group(2).strip()
        if value.startswith('"') and value.endswith('"') and len(value) >= 2:
            value = _QUOTED_PAIR.sub(r"\1", value[1:-1])
        if name == "filename" and plain is None:
            plain = value
        elif name == "filename*" and extended is None:
            extended = _decode_extended(value)
    for candidate in (extended, plain):
        cleaned = _basename(_CONTROL.sub("", candidate or "")).strip()
        if cleaned:
            return cleaned
    return None


def _decode_extended(value: str) -> str | None:
    """``charset'language'percent-encoded`` (RFC 8187) → text; None for an unknown charset."""
    charset, _, rest = value.partition("'")
    _language, quote, encoded = rest.partition("'")
    if not quote or charset.lower() not in ("utf-8", "iso-8859-1"):
        return None
    return unquote(encoded, encoding=charset.lower(), errors="replace")


def _basename(name: str) -> str:
    """The last component of a POSIX or Windows path (browsers used to send the latter)."""
    return re.split(r"[/\\]", name)[-1]

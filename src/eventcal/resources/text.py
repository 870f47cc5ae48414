"""Text rendering: descriptions and excerpts as the original shows them (``wpautop``),
plain text for JSON-LD, and plain-text cleaning for address-like fields."""

from __future__ import annotations

import html
import re

_BLOCK_TAGS = (
    "address|article|aside|blockquote|details|dialog|div|dl|dd|dt|fieldset|figcaption|figure"
    "|footer|form|h[1-6]|header|hgroup|hr|li|main|nav|ol|p|pre|section|table|thead|tbody|tfoot"
    "|tr|td|th|ul|iframe|video|audio|!--"
)
_STARTS_WITH_BLOCK = re.compile(rf"^(?:\x00|<!--|<(?:/?)(?:{_BLOCK_TAGS})\b)", re.IGNORECASE)
_PRE_OPEN = re.compile(r"<pre\b", re.IGNORECASE)
_PRE_CLOSE = "</pre>"
_KEPT = re.compile(r"\x00(\d{1,9})\x00")
"""A ``<pre>`` block set aside: NUL never occurs in stored text (writes refuse it)."""
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
# A tag ends at the first ">"; a "<" without one is text. Excluding "<" from the inside keeps
# every attempt short: linear time whatever the input ("<<<<…" included).
_TAG = re.compile(r"<[^<>]*>")
_SPACE = re.compile(r"\s+")


def autop(text: str) -> str:
    """Blank-line separated blocks become ``<p>`` paragraphs and single newlines ``<br />``;
    blocks that already start with a block-level tag are left alone. Result is trimmed.

    Linear in the text's length, whatever it holds (``bench/text_bench.py``)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not text:
        return ""
    # Preformatted blocks keep their blank lines: set them aside while paragraphs are made.
    text, kept = _set_aside_pre(text)
    blocks = []
    for raw_chunk in _PARAGRAPH_BREAK.split(text):
        chunk = raw_chunk.strip()
        if not chunk:
            continue
        if _STARTS_WITH_BLOCK.match(chunk):
            blocks.append(chunk)
        else:
            blocks.append("<p>" + chunk.replace("\n", "<br />\n") + "</p>")
    result = "\n".join(blocks)
    if not kept:
        return result

    def restore(match: re.Match[str]) -> str:
        index = int(match.group(1))
        return kept[index] if index < len(kept) else match.group(0)

    return _KEPT.sub(restore, result)


def _set_aside_pre(text: str) -> tuple[str, list[str]]:
    """``<pre>…</pre>`` blocks replaced by numbered placeholders, in one pass: once no
    ``</pre>`` follows an opening tag, none follows a later one either."""
    lower = text.lower()
    kept: list[str] = []
    parts: list[str] = []
    position = 0
    while (opening := _PRE_OPEN.search(lower, position)) is not None:
        end = lower.find(_PRE_CLOSE, opening.end())
        if end < 0:
            break
        end += len(_PRE_CLOSE)
        parts.append(text[position : opening.start()])
        parts.append(f"\x00{len(kept)}\x00")
        kept.append(text[opening.start() : end])
        position = end
    parts.append(text[position:])
    return "".join(parts), kept


def plain_text(markup: str) -> str:
    """Tags removed, entities decoded, whitespace collapsed."""
    return _SPACE.sub(" ", html.unescape(_TAG.sub(" ", markup))).strip()


def clean_line(value: str) -> str:
    """Address-type fields: tags stripped, line breaks and surrounding whitespace removed."""
    return _SPACE.sub(" ", _TAG.sub("", value)).strip()

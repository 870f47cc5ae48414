"""Text rendering: descriptions and excerpts as the original shows them (``wpautop``),
plain text for JSON-LD, and plain-text cleaning for address-like fields."""

from __future__ import annotations

import html
import re

_BLOCK_TAGS = (
    "pre-kept-\\d+|address|article|aside|blockquote|details|dialog|div|dl|dd|dt|fieldset|figcaption|figure"
    "|footer|form|h[1-6]|header|hgroup|hr|li|main|nav|ol|p|pre|section|table|thead|tbody|tfoot"
    "|tr|td|th|ul|iframe|video|audio|!--"
)
_STARTS_WITH_BLOCK = re.compile(rf"^(?:<!--|<(?:/?)(?:{_BLOCK_TAGS})\b)", re.IGNORECASE)
_PRE = re.compile(r"<pre\b.*?</pre>", re.IGNORECASE | re.DOTALL)
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
_TAG = re.compile(r"<[^>]*>")
_SPACE = re.compile(r"\s+")


def autop(text: str) -> str:
    """Blank-line separated blocks become ``<p>`` paragraphs and single newlines ``<br />``;
    blocks that already start with a block-level tag are left alone. Result is trimmed."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not text:
        return ""
    # Preformatted blocks keep their blank lines: set them aside while paragraphs are made.
    kept: list[str] = []

    def keep(match: re.Match[str]) -> str:
        kept.append(match.group(0))
        return f"<pre-kept-{len(kept) - 1}>"

    text = _PRE.sub(keep, text)
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
    for index, block in enumerate(kept):
        result = result.replace(f"<pre-kept-{index}>", block)
    return result


def plain_text(markup: str) -> str:
    """Tags removed, entities decoded, whitespace collapsed."""
    return _SPACE.sub(" ", html.unescape(_TAG.sub(" ", markup))).strip()


def clean_line(value: str) -> str:
    """Address-type fields: tags stripped, line breaks and surrounding whitespace removed."""
    return _SPACE.sub(" ", _TAG.sub("", value)).strip()

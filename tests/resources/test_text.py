"""Text rendering: ``autop`` (wpautop-like), plain text for JSON-LD, one-line address fields."""

from __future__ import annotations

import pytest

from eventcal.resources.text import autop, clean_line, plain_text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", ""),
        ("  \n\n  ", ""),
        ("Hello", "<p>Hello</p>"),
        ("  Hello  \n", "<p>Hello</p>"),
        ("a\nb", "<p>a<br />\nb</p>"),
        ("a\n\nb", "<p>a</p>\n<p>b</p>"),
        ("a\n \n\n\nb", "<p>a</p>\n<p>b</p>"),
        ("a\r\nb\r\n\r\nc", "<p>a<br />\nb</p>\n<p>c</p>"),
        ("a\rb", "<p>a<br />\nb</p>"),
        ("<strong>bold</strong> text", "<p><strong>bold</strong> text</p>"),
        ("<pa>not a p</pa>", "<p><pa>not a p</pa></p>"),
    ],
)
def test_autop_wraps_paragraphs(text: str, expected: str) -> None:
    assert autop(text) == expected


@pytest.mark.parametrize(
    "block",
    [
        "<p>Already a paragraph</p>",
        "<P>Upper case</P>",
        '<div class="x">Box</div>',
        "<h2>Title</h2>",
        "<ul>\n<li>a</li>\n<li>b</li>\n</ul>",
        "<table><tr><td>1</td></tr></table>",
        "<blockquote>Quote</blockquote>",
        "<!--more-->",
    ],
)
def test_autop_leaves_block_level_markup_alone(block: str) -> None:
    assert autop(block) == block


def test_autop_mixes_blocks_and_paragraphs() -> None:
    text = "<h2>Title</h2>\n\nFirst line\nsecond line\n\n<ul><li>x</li></ul>"
    assert autop(text) == (
        "<h2>Title</h2>\n<p>First line<br />\nsecond line</p>\n<ul><li>x</li></ul>"
    )


def test_autop_keeps_preformatted_text_intact() -> None:
    text = "<pre>line 1\n\nline 2</pre>"
    assert autop(text) == text


@pytest.mark.parametrize(
    ("markup", "expected"),
    [
        ("<p>Hello&nbsp;<b>World</b></p>", "Hello World"),
        ("<p>One</p><p>Two</p>", "One Two"),
        ("a<br>b", "a b"),
        ("  multi \n\n line  ", "multi line"),
        ("caf&eacute; &amp; bar", "café & bar"),
        ("&lt;b&gt;kept as text&lt;/b&gt;", "<b>kept as text</b>"),
        ("", ""),
    ],
)
def test_plain_text(markup: str, expected: str) -> None:
    assert plain_text(markup) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("<b>10</b> Main St\n", "10 Main St"),
        (" Line 1\nLine 2\r\n", "Line 1 Line 2"),
        ("Paris\t75001", "Paris 75001"),
        ("a   b", "a b"),
        ("<script>x</script>y", "xy"),
        ("&amp;", "&amp;"),  # entities are left as they are
        ("   ", ""),
    ],
)
def test_clean_line(value: str, expected: str) -> None:
    assert clean_line(value) == expected

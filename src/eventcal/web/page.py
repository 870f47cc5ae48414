"""What every page's response carries: security headers (a strict Content-Security-Policy,
framing only for the embed origins) and the rendered body."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventcal.web.describe import Describe, linked_data, paragraphs, web_url
from eventcal.web.render import render, words

PAGE_POLICY = (
    "default-src 'none'; style-src 'self'; img-src 'self' https: data:; "
    "form-action 'self'; base-uri 'none'; script-src 'none'"
)
"""Pages run no script at all (the JSON-LD block is data, never executed)."""


def frame_ancestors(origins: Sequence[str], *, embed: bool) -> str:
    """Who may frame the page: nobody, except an embed for the configured origins."""
    if embed and origins:
        return "frame-ancestors " + " ".join(origins)
    return "frame-ancestors 'none'"


def page_headers(headers: dict[str, str], origins: Sequence[str], *, embed: bool) -> dict[str, str]:
    """The page's headers with the security ones (``X-Frame-Options`` only where no framing
    is allowed: browsers that know CSP obey ``frame-ancestors`` instead)."""
    result = {
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "strict-origin-when-cross-origin",
        "Content-Security-Policy": f"{PAGE_POLICY}; {frame_ancestors(origins, embed=embed)}",
        **headers,
    }
    if not (embed and origins):
        result["X-Frame-Options"] = "DENY"
    return result


def render_page(
    template: str, language: str, context: dict[str, Any], site_timezone: str = ""
) -> str:
    """The page in ``language``, with the helpers every template may use."""
    helpers = {
        "describe": Describe(words(language), site_timezone),
        "paragraphs": paragraphs,
        "linked_data": linked_data,
        "web_url": web_url,
    }
    return render(template, language, {**helpers, **context})

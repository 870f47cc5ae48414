"""Browser tests, as a person would use the pages: a real ``eventcal serve`` process on a fresh
SQLite database, Debian's Chromium driven by Playwright, axe-core checking WCAG 2.2 A/AA, and
screenshots at phone and desktop widths in ``tests/browser/screenshots/`` (git-ignored).

Chromium (``/usr/bin/chromium``) and axe-core (``node_modules/``, from ``npm ci``) are installed
by ``make test`` (target ``browser-deps``). Without them these tests are skipped, unless
``EVENTCAL_REQUIRE_BROWSER=1`` (set by ``.ci/run``) turns that into a failure.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, Playwright, sync_playwright

from tests.processes.conftest import Server, start_server

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # Chromium's own connections (updates, sync, field trials) are refused on a closed network.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
WIDTHS = (375, 1280)
"""Screenshot widths in CSS pixels: a small phone and a laptop."""
HEIGHT = 800


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives Chromium (tests/browser)")


def unavailable(reason: str) -> None:
    """Skip: a developer without Chromium or npm still runs the rest. CI sets
    ``EVENTCAL_REQUIRE_BROWSER=1`` and so never passes with these tests skipped."""
    if os.environ.get("EVENTCAL_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason} (EVENTCAL_REQUIRE_BROWSER=1: browser tests must run)")
    pytest.skip(f"{reason}: run `make browser-deps`")


@pytest.fixture(scope="package")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``eventcal serve`` on a free port and a fresh SQLite database (migrated by ``serve``).
    No public URL is set, so the API's URLs name the server's own origin."""
    folder = tmp_path_factory.mktemp("browser")
    server = start_server(
        f"sqlite:///{folder / 'eventcal.db'}", folder / "server.log", public_url=None
    )
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="package")
def playwright() -> Iterator[Playwright]:
    if not CHROMIUM.exists():
        unavailable(f"{CHROMIUM} is missing")
    if not AXE.exists():
        unavailable(f"{AXE.relative_to(REPO)} is missing")
    with sync_playwright() as instance:
        yield instance


@pytest.fixture(scope="package")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """Debian's Chromium (Playwright cannot download its own browsers here)."""
    browser = playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, chromium_sandbox=False, args=CHROMIUM_ARGS
    )
    try:
        yield browser
    finally:
        browser.close()


@dataclass
class Visit:
    """A page in a fresh browser context, with what happened on it: console errors, uncaught
    exceptions, and every request the page made."""

    page: Page
    origin: str
    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    def foreign_requests(self) -> list[str]:
        """Requests that left the server's origin (``data:`` URLs stay in the page)."""
        return [
            url
            for url in self.requests
            if urlsplit(url).scheme not in ("data", "blob") and _origin(url) != self.origin
        ]


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


@pytest.fixture
def visit(browser: Browser, live_server: Server) -> Iterator[Visit]:
    context = browser.new_context(
        base_url=live_server.base, viewport={"width": WIDTHS[-1], "height": HEIGHT}
    )
    page = context.new_page()
    seen = Visit(page, _origin(live_server.base))

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            seen.errors.append(f"console: {message.text} ({message.location.get('url')})")

    page.on("console", on_console)
    page.on("pageerror", lambda error: seen.errors.append(f"uncaught: {error}"))
    page.on("request", lambda request: seen.requests.append(request.url))
    try:
        yield seen
    finally:
        context.close()


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's WCAG 2.2 A/AA violations on the page as it is now (the whole document: no
    part of a page is excluded)."""
    # Evaluated through the DevTools protocol, which the page's CSP does not govern: the page
    # keeps its real policy while axe runs in it.
    page.evaluate(AXE.read_text(encoding="utf-8"))
    options = {"runOnly": {"type": "tag", "values": WCAG_TAGS}, "resultTypes": ["violations"]}
    results: dict[str, Any] = page.evaluate("options => axe.run(document, options)", options)
    violations: list[dict[str, Any]] = results["violations"]
    return violations


def describe_violations(violations: Sequence[dict[str, Any]]) -> str:
    """Each violation's id, impact, help and the nodes it was found on."""
    lines = []
    for violation in violations:
        lines.append(
            f"{violation['id']} ({violation['impact']}): {violation['help']} "
            f"<{violation['helpUrl']}>"
        )
        lines.extend(
            f"    {node['target']}: {node.get('failureSummary', '').splitlines()[-1:]}"
            for node in violation["nodes"]
        )
    return "\n".join(lines)


def assert_accessible(page: Page) -> None:
    violations = axe_violations(page)
    assert not violations, "axe found WCAG violations:\n" + describe_violations(violations)


def save_screenshots(page: Page, name: str) -> list[Path]:
    """Full-page screenshots at each width of WIDTHS (``<name>-<width>.png``); the viewport is
    left as it was."""
    SCREENSHOTS.mkdir(exist_ok=True)
    before = page.viewport_size
    paths = []
    try:
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": HEIGHT})
            path = SCREENSHOTS / f"{name}-{width}.png"
            page.screenshot(path=path, full_page=True, animations="disabled")
            paths.append(path)
    finally:
        if before is not None:
            page.set_viewport_size(before)
    return paths

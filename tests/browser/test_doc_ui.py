"""The API reference page (``GET /cal/events/v1/doc/ui``) in Chromium: it lists our document's
operations, opens one and runs it, under its Content-Security-Policy, without a request to
another origin, and passes axe (WCAG 2.2 A/AA) at phone and desktop widths."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import HEIGHT, WIDTHS, Visit, assert_accessible, save_screenshots

pytestmark = pytest.mark.browser

UI = "/cal/events/v1/doc/ui"


def _directives(policy: str) -> dict[str, str]:
    """``"a x; b y"`` → ``{"a": "x", "b": "y"}``."""
    pairs = (part.strip().partition(" ") for part in policy.split(";") if part.strip())
    return {name: value.strip() for name, _, value in pairs}


def _operation_ids(page: Page, doc_path: str) -> list[str]:
    """The operations of our OpenAPI document as Swagger UI names their blocks (by tag, the
    collection, and operationId)."""
    response = page.request.get(doc_path)
    assert response.ok
    doc: dict[str, Any] = response.json()
    return sorted(
        # Swagger UI escapes the dot of ``get_events.ics`` in the element id.
        f"operations-{operation['tags'][0]}-{operation['operationId']}".replace(".", "\\.")
        for item in doc["paths"].values()
        for operation in item.values()
    )


def _accessible_at_every_width(page: Page) -> None:
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": HEIGHT})
        assert_accessible(page)


def test_reference_lists_and_runs_our_operations(visit: Visit) -> None:
    page = visit.page
    response = page.goto(UI)
    assert response is not None and response.status == 200
    policy = _directives(response.headers["content-security-policy"])
    assert policy["script-src"] == "'self'"
    assert policy["style-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'"
    assert policy["default-src"] == "'none'"
    assert "unsafe" not in response.headers["content-security-policy"]

    listing = page.locator("#operations-events-get_events")
    expect(listing).to_be_visible()
    rendered = page.locator(".opblock").evaluate_all("blocks => blocks.map(b => b.id)")
    assert sorted(rendered) == _operation_ids(page, "/cal/events/v1/doc")

    listing.locator(".opblock-summary-control").click()
    expect(listing.locator('tr[data-param-name="per_page"]')).to_be_visible()
    listing.get_by_role("button", name="Try it out").click()
    listing.get_by_role("button", name="Execute").click()
    status = listing.locator(".live-responses-table tr.response .response-col_status")
    expect(status).to_have_text("200")
    expect(listing.locator(".request-url pre")).to_have_text(f"{visit.origin}/cal/events/v1/events")

    save_screenshots(page, "doc-ui")
    _accessible_at_every_width(page)
    assert visit.errors == []
    assert visit.foreign_requests() == []
    assert f"{visit.origin}/cal/events/v1/events" in visit.requests


def test_sign_in_dialog_and_request_body_are_accessible(visit: Visit) -> None:
    page = visit.page
    page.goto(UI)
    create = page.locator("#operations-events-post_events")
    create.locator(".opblock-summary-control").click()
    create.get_by_role("button", name="Try it out").click()
    expect(create.get_by_role("textbox", name="Request body")).to_be_editable()
    page.locator("section.models .model-box-control").first.click()
    page.get_by_role("button", name="Authorize").first.click()
    dialog = page.get_by_role("dialog", name="Available authorizations")
    expect(dialog.get_by_role("textbox", name="Username:")).to_be_visible()

    save_screenshots(page, "doc-ui-sign-in")
    _accessible_at_every_width(page)
    dialog.get_by_role("button", name="Close", exact=True).first.click()
    expect(dialog).to_have_count(0)
    assert visit.errors == []
    assert visit.foreign_requests() == []


def test_language_prefix_reads_the_document_in_that_language(visit: Visit) -> None:
    page = visit.page
    response = page.goto(f"/de{UI}/")
    assert response is not None and response.status == 200
    expect(page.locator("#operations-events-get_events")).to_be_visible()
    expect(page.get_by_role("combobox", name="Server")).to_have_value(
        f"{visit.origin}/de/cal/events/v1/"
    )
    assert f"{visit.origin}/de/cal/events/v1/doc" in visit.requests
    assert visit.errors == []
    assert visit.foreign_requests() == []

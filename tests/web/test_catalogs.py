"""The pages' interface text is in the catalogs: ``make messages`` extracts the templates."""

from __future__ import annotations

from eventcal.i18n import catalogs


def test_template_text_is_extracted_with_its_template() -> None:
    found = catalogs.extract()
    assert any(p.startswith("web/templates/calendar.html") for p in found["Next"])
    assert any(p.startswith("web/templates/month.html") for p in found["Next month"])
    assert any(p.startswith("web/describe.py") for p in found["{day}, all day"])
    for language in ("de", "es"):
        catalog = catalogs.load(language)
        assert catalog["Next month"] != "Next month"

"""The message catalogs: extraction from the source and the ``.po`` files per language.

Messages are the literal message arguments of the error constructors (and ``N_`` marks for
messages defined as data). ``make messages`` (:func:`main`) brings every
language's ``.po`` file up to date with the source: new messages arrive untranslated, gone ones
are dropped, translations are kept. The test suite fails while a message lacks a translation.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

PACKAGE = Path(__file__).resolve().parent.parent
LOCALES = Path(__file__).resolve().parent / "locales"
DOMAIN = "eventcal"
SOURCE_LANGUAGE = "en"
"""The language messages are written in."""

MESSAGE_ARGUMENT: dict[str, tuple[int, ...] | None] = {
    "N_": None,
    "ApiError": (2,),
    "NotFound": (2,),
    "Forbidden": (2,),
    "Gone": (2,),
    "Unauthorized": (2,),
    "ServiceUnavailable": (2,),
    "BodyTooLarge": (2,),
    "ParamError": (1,),
    "Invalid": (1,),
    "invalid": (2,),
    "raise_invalid": (2,),
}
"""Callables taking a message, and the (1-based) position of the message argument."""


def po_path(language: str) -> Path:
    return LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"


TEMPLATE_METHOD = [("web/templates/**.html", "jinja2.ext:babel_extract")]
"""The calendar pages' templates: their interface text is ``_("…")`` (Jinja2's extractor)."""
TEMPLATE_KEYWORDS: dict[str, tuple[int, ...] | None] = {"_": None}


def extract(package: Path = PACKAGE) -> dict[str, list[str]]:
    """Message id → where it occurs (``path:line``), for every message of the package: the
    Python source and the pages' templates."""
    found: dict[str, list[str]] = {}
    sources = (
        ([("**.py", "python")], MESSAGE_ARGUMENT),
        (TEMPLATE_METHOD, TEMPLATE_KEYWORDS),
    )
    for method_map, keywords in sources:
        for filename, lineno, message, _comments, _context in extract_from_dir(
            str(package), method_map=method_map, keywords=keywords
        ):
            if isinstance(message, str):
                found.setdefault(message, []).append(f"{filename}:{lineno}")
    return found


def load(language: str) -> dict[str, str]:
    """Message id → translation, from the language's ``.po`` file (untranslated and fuzzy
    entries left out, so the English message shows instead)."""
    path = po_path(language)
    if not path.exists():
        return {}
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=language, domain=DOMAIN)
    return {
        str(m.id): str(m.string)
        for m in catalog
        if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string
        if not m.fuzzy
    }


def update(language: str, messages: dict[str, list[str]]) -> int:
    """Bring the language's ``.po`` file up to date; returns how many lack a translation."""
    path = po_path(language)
    old: Catalog | None = None
    if path.exists():
        with path.open("rb") as handle:
            old = read_po(handle, locale=language, domain=DOMAIN)
    catalog = Catalog(
        locale=language,
        domain=DOMAIN,
        project="eventcal",
        version="1",
        copyright_holder="the eventcal authors",
        msgid_bugs_address="the eventcal issue tracker",
        last_translator="the eventcal authors",
        language_team=f"{language} <the eventcal issue tracker>",
        creation_date=old.creation_date if old is not None else datetime.now(UTC),
        revision_date=old.revision_date if old is not None else datetime.now(UTC),
        fuzzy=False,
    )
    missing = 0
    for message, places in sorted(messages.items()):
        previous = old.get(message) if old is not None else None
        translation = previous.string if previous is not None else ""
        locations = [(p.rsplit(":", 1)[0], int(p.rsplit(":", 1)[1])) for p in places]
        catalog.add(message, translation, locations=locations)
        missing += not translation
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        # No line numbers: the catalogs change when messages do, not when code moves.
        write_po(handle, catalog, width=100, sort_output=True, include_lineno=False)
    return missing


def main() -> int:
    from eventcal.i18n import LANGUAGES

    messages = extract()
    for language in (code for code in LANGUAGES if code != SOURCE_LANGUAGE):
        missing = update(language, messages)
        print(f"{po_path(language)}: {len(messages)} messages, {missing} untranslated")
    return 0

"""The message catalogs cover every message of the source, with the same placeholders."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from eventcal.i18n import LANGUAGES, catalogs, translate

TRANSLATED = [code for code in LANGUAGES if code != catalogs.SOURCE_LANGUAGE]
MESSAGES = catalogs.extract()


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_the_source_has_messages_to_translate() -> None:
    assert "Invalid parameter(s): {names}" in MESSAGES
    assert "The requested venue is not accessible" in MESSAGES
    assert "The requested organizer is not accessible" in MESSAGES


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(language: str) -> None:
    catalog = catalogs.load(language)
    missing = sorted(set(MESSAGES) - set(catalog))
    assert not missing, f"untranslated in {language} (run `make messages`): {missing}"
    for message in MESSAGES:
        assert placeholders(catalog[message]) == placeholders(message), message
        assert catalog[message] != message, message


@pytest.mark.parametrize("language", TRANSLATED)
def test_catalogs_hold_no_message_the_source_no_longer_has(language: str) -> None:
    stale = sorted(set(catalogs.load(language)) - set(MESSAGES))
    assert not stale, f"gone from the source (run `make messages`): {stale}"


def test_messages_are_literals_so_that_they_can_be_extracted() -> None:
    """A message built at run time (an f-string, a concatenation) never reaches the catalogs:
    messages naming a kind are written out once per kind instead."""
    offenders = []
    for path in catalogs.PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name not in catalogs.MESSAGE_ARGUMENT:
                continue
            index = (catalogs.MESSAGE_ARGUMENT[name] or (1,))[0] - 1
            if len(node.args) > index and isinstance(node.args[index], ast.JoinedStr | ast.BinOp):
                offenders.append(f"{Path(path).name}:{node.lineno}")
    assert not offenders


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "Event with ID 7 does not exist."),
        ("de", "Die Veranstaltung mit der ID 7 existiert nicht."),
        ("es", "El evento con el ID 7 no existe."),
    ],
)
def test_messages_are_translated_then_formatted(language: str, expected: str) -> None:
    assert translate("Event with ID {id} does not exist.", language, id=7) == expected


def test_an_unknown_message_stays_english() -> None:
    assert translate("Nothing like this exists {x}.", "de", x=1) == "Nothing like this exists 1."

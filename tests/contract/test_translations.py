"""Translations of every translated field: a write with ``translation_language=de`` stores it,
a German read shows it, a Spanish read falls back to the default text, ``""`` removes it; the
name cannot be emptied in the default language."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from eventcal.resources.spec import Field
from eventcal.storage.tables import translation
from tests.contract.helpers import Case


def _german(field: Field) -> str:
    return "deutscher-text" if field.name == "slug" else "Deutscher Text"


def _stored(case: Case, item_id: int) -> dict[tuple[str, str], str]:
    async def load() -> dict[tuple[str, str], str]:
        async with case.api.database.read() as conn:
            rows = await conn.all(
                sa.select(translation).where(
                    translation.c.item_id == item_id, translation.c.kind == case.resource.name
                )
            )
            return {(r["language"], r["field"]): r["value"] for r in rows}

    return case.api.run(load)


def _read(case: Case, item_id: int, language: str | None) -> dict[str, Any]:
    params = {"translation_language": language} if language else {}
    response = case.api.get(case.path(item_id), params=params)
    assert response.status_code == 200
    return dict(response.json())


def test_each_translated_field(case: Case) -> None:
    fields = [f for f in case.resource.fields if f.translated and f.column]
    assert fields
    item_id = case.item_id()
    default = _read(case, item_id, None)
    for field in fields:
        text, column = _german(field), str(field.column)
        path = case.path(item_id) + "?translation_language=de"
        logged = len(case.log(item_id))
        written = case.api.post(path, json={field.name: text})
        assert written.status_code == 200, (field.name, written.text)
        assert _stored(case, item_id)[("de", column)] == text, field.name
        assert [a for _, _, a, _ in case.log(item_id)[logged:]] == ["translate", "update"]
        shown = written.json()[field.name]
        assert text in shown, field.name  # as the default text is shown (descriptions in <p>)
        assert _read(case, item_id, "de")[field.name] == shown, field.name
        assert _read(case, item_id, "es").get(field.name) == default.get(field.name), field.name
        assert _read(case, item_id, None).get(field.name) == default.get(field.name), field.name
        removed = case.api.post(path, json={field.name: ""})
        assert removed.status_code == 200, (field.name, removed.text)
        if field.name != "slug":  # "" makes a new slug from the (default) name
            assert ("de", column) not in _stored(case, item_id), field.name
        assert _read(case, item_id, "de").get(field.name) == default.get(field.name), field.name


def test_the_name_cannot_be_emptied_in_the_default_language(case: Case) -> None:
    item_id = case.item_id()
    before = case.stored(item_id)
    name = case.name_field.name
    response = case.api.patch(case.path(item_id), json={name: ""})
    assert response.status_code == 400
    assert list(response.json()["data"]["params"]) == [name]
    assert case.stored(item_id) == before

"""Content translations: an item's text in languages other than the site's default.

An item's own columns hold the default language; ``translation`` rows hold the others, one row per
(item, kind, language, field). Reads overlay the requested language field by field and fall back
to the default text for fields without a translation. Writes in another language store rows and
leave the columns alone; ``""`` removes a translation.

One bulk query loads the translations of everything a response shows (a page of events with
their venues, organizers and terms), whatever the language: the query also says which languages
each item has, so an untranslated read runs exactly the same statements as a translated one.

An item is named by its kind (the collection's ``Resource.name``: ``event``, or a term's taxonomy)
and its id; the translatable columns of a kind are its declaration's translated fields.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any

import sqlalchemy as sa

from eventcal.i18n import LANGUAGES
from eventcal.resources.slugs import numbered, sanitize_slug
from eventcal.storage.db import Connection, Row, in_values
from eventcal.storage.tables import translation

# --- reading ---------------------------------------------------------------------------------


_LOAD = sa.select(
    translation.c.item_id,
    translation.c.kind,
    translation.c.language,
    translation.c.field,
    # Other languages only say that they exist; their text is not needed.
    sa.case(
        (translation.c.language == sa.bindparam("language", type_=sa.String), translation.c.value),
        else_=sa.null(),
    ).label("value"),
).where(
    in_values(translation.c.item_id, "ids"),
    in_values(translation.c.kind, "kinds", sa.String()),
)


class Texts:
    """The translations of a set of items in one language, and which languages each item has."""

    __slots__ = ("_languages", "_values", "default", "language")

    def __init__(self, language: str, default: str, rows: Iterable[Row] = ()) -> None:
        self.language = language
        self.default = default
        self._languages: dict[tuple[str, int], set[str]] = {}
        self._values: dict[tuple[str, int], dict[str, str]] = {}
        translated = language != default
        for row in rows:
            key = (str(row["kind"]), int(row["item_id"]))
            self._languages.setdefault(key, set()).add(str(row["language"]))
            if translated and row["language"] == language:
                self._values.setdefault(key, {})[str(row["field"])] = str(row["value"])

    def localize(self, kind: str, row: Row) -> Row:
        """The row with its text fields in the requested language where translated."""
        values = self._values.get((kind, int(row["id"])))
        if not values:
            return row
        data = {key: row[key] for key in row.keys()}  # noqa: SIM118 (rows are not dicts)
        data.update(values)
        return data

    def localize_all(self, kind: str, rows: Sequence[Row]) -> list[Row]:
        return [self.localize(kind, row) for row in rows]

    def languages(self, kind: str, item_id: int) -> list[str]:
        """The languages the item has text in: the default and every translated one."""
        found = self._languages.get((kind, item_id), ())
        return [code for code in LANGUAGES if code == self.default or code in found]


async def load_texts(
    conn: Connection, language: str, default: str, *, kinds: Sequence[str], ids: Iterable[int]
) -> Texts:
    """Translations of the items of the given kinds and ids: one query, always run (an id of
    one kind may stand for another item in another kind's id space: those rows are loaded too,
    and never looked at)."""
    rows = await conn.all(
        _LOAD, {"language": language, "ids": sorted(set(ids)), "kinds": list(kinds)}
    )
    return Texts(language, default, rows)


# --- slugs -----------------------------------------------------------------------------------

_SLUG_OWNERS = (
    sa.select(translation.c.item_id)
    .where(
        translation.c.kind == sa.bindparam("kind"),
        translation.c.language == sa.bindparam("language"),
        translation.c.field == "slug",
        translation.c.value == sa.bindparam("slug"),
    )
    .order_by(translation.c.item_id)
)


async def ids_by_slug(conn: Connection, kind: str, language: str, slug: str) -> list[int]:
    """Items of ``kind`` whose translated slug in ``language`` is ``slug``."""
    rows = await conn.all(_SLUG_OWNERS, {"kind": kind, "language": language, "slug": slug})
    return [int(r["item_id"]) for r in rows]


_TERM_SLUG_OWNERS = sa.select(translation.c.item_id, translation.c.value).where(
    translation.c.kind == sa.bindparam("kind"),
    translation.c.language == sa.bindparam("language"),
    translation.c.field == "slug",
    in_values(translation.c.value, "slugs", sa.String()),
)


async def ids_by_slugs(
    conn: Connection, kind: str, language: str, slugs: Sequence[str]
) -> dict[str, int]:
    """Translated slugs in ``language`` → item ids (for term filters)."""
    if not slugs:
        return {}
    rows = await conn.all(
        _TERM_SLUG_OWNERS, {"kind": kind, "language": language, "slugs": list(slugs)}
    )
    return {str(r["value"]): int(r["item_id"]) for r in rows}


SlugTaken = Callable[[str], Awaitable[bool]]
"""Whether another item of the collection uses a slug in the default language."""


class SlugInUse(Exception):
    """A slug asked for explicitly belongs to another item (when numbering is not wanted)."""

    def __init__(self, slug: str) -> None:
        super().__init__(slug)
        self.slug = slug


async def unique_slug(
    conn: Connection,
    *,
    kind: str,
    item_id: int,
    language: str,
    wanted: str,
    taken_by_default: SlugTaken,
    number_when_taken: bool = True,
) -> str:
    """``wanted`` or the first free ``wanted-N`` among the collection's slugs in ``language``
    and its default slugs (a translated slug must not hide another item's own slug); with
    ``number_when_taken`` false, a taken slug raises :class:`SlugInUse`."""
    await conn.lock(f"translated-slug:{kind}:{language}")
    candidate, number = wanted, 1
    while True:
        owners = await ids_by_slug(conn, kind, language, candidate)
        if not any(owner != item_id for owner in owners) and not await taken_by_default(candidate):
            return candidate
        if not number_when_taken:
            raise SlugInUse(candidate)
        number += 1
        candidate = numbered(wanted, number)


# --- writing ---------------------------------------------------------------------------------

_DELETE_FIELDS = sa.delete(translation).where(
    translation.c.item_id == sa.bindparam("item_id"),
    translation.c.kind == sa.bindparam("kind"),
    translation.c.language == sa.bindparam("language"),
    in_values(translation.c.field, "fields", sa.String()),
)
INSERT = sa.insert(translation).values(
    item_id=sa.bindparam("item_id"),
    kind=sa.bindparam("kind"),
    language=sa.bindparam("language"),
    field=sa.bindparam("field"),
    value=sa.bindparam("value"),
)
"""One translated field of one item (``execute_many`` inserts several)."""
_DELETE_ITEM = sa.delete(translation).where(
    translation.c.item_id == sa.bindparam("item_id"), translation.c.kind == sa.bindparam("kind")
)
_SLUG_OF = sa.select(translation.c.value).where(
    translation.c.item_id == sa.bindparam("item_id"),
    translation.c.kind == sa.bindparam("kind"),
    translation.c.language == sa.bindparam("language"),
    translation.c.field == "slug",
)


_SLUGS_OF = sa.select(translation.c.item_id, translation.c.language, translation.c.value).where(
    in_values(translation.c.item_id, "ids"),
    translation.c.kind == sa.bindparam("kind"),
    translation.c.field == "slug",
)


async def slug_of(conn: Connection, kind: str, item_id: int, language: str) -> str | None:
    value = await conn.scalar(_SLUG_OF, {"item_id": item_id, "kind": kind, "language": language})
    return None if value is None else str(value)


async def slugs_of(conn: Connection, kind: str, ids: Iterable[int]) -> dict[int, dict[str, str]]:
    """Items' translated slugs, by id and language (one query for any number of items)."""
    rows = await conn.all(_SLUGS_OF, {"kind": kind, "ids": sorted(set(ids))})
    found: dict[int, dict[str, str]] = {}
    for row in rows:
        found.setdefault(int(row["item_id"]), {})[str(row["language"])] = str(row["value"])
    return found


async def store(
    conn: Connection, kind: str, item_id: int, language: str, values: Mapping[str, Any]
) -> None:
    """Set the translated columns in ``values``; an empty value removes that translation."""
    if not values:
        return
    key = {"item_id": item_id, "kind": kind, "language": language}
    await conn.execute(_DELETE_FIELDS, {**key, "fields": sorted(values)})
    rows = [{**key, "field": f, "value": str(v)} for f, v in values.items() if str(v) != ""]
    if rows:
        await conn.execute_many(INSERT, rows)


async def delete_item(conn: Connection, kind: str, item_id: int) -> None:
    """Every translation of an item deleted for good (terms)."""
    await conn.execute(_DELETE_ITEM, {"item_id": item_id, "kind": kind})


async def translate_item(
    conn: Connection,
    kind: str,
    row: Row,
    language: str,
    values: Mapping[str, Any],
    *,
    name_field: str,
    explicit_slug: str | None,
    taken_by_default: SlugTaken,
    number_explicit_slug: bool = True,
) -> None:
    """Write a translation of an existing item.

    ``values`` are the translated columns sent (``slug`` excluded). ``explicit_slug`` is the
    slug sent with the translation (``""`` removes it; a taken one is numbered, or raises
    :class:`SlugInUse` without ``number_explicit_slug``). Without one, a translated name gives
    the item a translated slug once (later name changes keep it, as default slugs are kept),
    unless it would equal the default slug or the item has no default slug yet (a draft).
    """
    item_id = int(row["id"])
    fields = dict(values)
    numbering = True
    slug: str | None = None
    if explicit_slug is not None:
        numbering = number_explicit_slug
        slug = sanitize_slug(explicit_slug)
        if not slug:
            fields["slug"] = ""
    elif (
        row["slug"]
        and str(fields.get(name_field) or "")
        and await slug_of(conn, kind, item_id, language) is None
    ):
        slug = sanitize_slug(str(fields[name_field]))
        if slug == row["slug"]:
            slug = None
    if slug:
        fields["slug"] = await unique_slug(
            conn,
            kind=kind,
            item_id=item_id,
            language=language,
            wanted=slug,
            taken_by_default=taken_by_default,
            number_when_taken=numbering,
        )
    await store(conn, kind, item_id, language, fields)


def split(
    data: Mapping[str, Any], columns: Mapping[str, str]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(shared fields, translated fields by column) of a write; ``columns`` maps the API names
    of the translatable fields to their columns."""
    shared = {k: v for k, v in data.items() if k not in columns}
    translated = {columns[k]: v for k, v in data.items() if k in columns}
    return shared, translated

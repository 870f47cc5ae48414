"""Terms in the store: lookups by id, slug and name, the category tree, and creating terms with
unique slugs (the counts of published events are kept by the relations that count them:
``eventcal.resources.relations``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from eventcal.resources import changes, translations
from eventcal.resources.slugs import numbered, sanitize_slug
from eventcal.storage import queries as q
from eventcal.storage.db import Connection, Row, UniqueViolation

MAX_TERM_NAME = 200
MAX_TERM_ID = 2**31 - 1
"""Term ids are 32-bit on PostgreSQL."""


@dataclass(frozen=True, slots=True)
class TermValue:
    """One item of a ``categories``/``tags`` value: a number (an id) or a text (slug or name)."""

    text: str
    number: int | None


def split_term_values(value: Any) -> list[TermValue] | None:
    """Items of a term list given as one value, a list, or a CSV string; None if malformed."""
    items: list[Any]
    if isinstance(value, list):
        items = value
    elif isinstance(value, str):
        items = [part.strip() for part in value.split(",")]
    elif isinstance(value, int) and not isinstance(value, bool):
        items = [value]
    else:
        return None
    result: list[TermValue] = []
    for item in items:
        if isinstance(item, bool) or item is None:
            return None
        if isinstance(item, int):
            if not 0 < item <= MAX_TERM_ID:
                return None
            result.append(TermValue(str(item), item))
        elif isinstance(item, str):
            text = item.strip()
            if not text:
                continue
            if len(text) > MAX_TERM_NAME:
                return None
            result.append(TermValue(text, _id_in(text)))
        else:
            return None
    return result


def _id_in(text: str) -> int | None:
    """The term id a text can be (digits within the id column's range), or None: it is then a
    slug or a name only (so ``18446744073709551616`` names no term instead of reaching the
    database as an integer it cannot hold)."""
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(MAX_TERM_ID)):
        return None
    number = int(text)
    return number if 0 < number <= MAX_TERM_ID else None


async def terms_by_ids(conn: Connection, taxonomy: str, ids: Sequence[int]) -> dict[int, Row]:
    if not ids:
        return {}
    rows = await conn.all(q.TERMS_BY_IDS, {"taxonomy": taxonomy, "ids": list(ids)})
    return {int(r["id"]): r for r in rows}


async def terms_by_slugs(conn: Connection, taxonomy: str, slugs: Sequence[str]) -> dict[str, Row]:
    if not slugs:
        return {}
    rows = await conn.all(q.TERMS_BY_SLUGS, {"taxonomy": taxonomy, "slugs": list(slugs)})
    return {str(r["slug"]): r for r in rows}


async def terms_by_names(conn: Connection, taxonomy: str, names: Sequence[str]) -> dict[str, Row]:
    if not names:
        return {}
    rows = await conn.all(
        q.TERMS_BY_LOWER_NAMES, {"taxonomy": taxonomy, "names": [n.lower() for n in names]}
    )
    found: dict[str, Row] = {}
    for row in sorted(rows, key=lambda r: int(r["id"])):
        found.setdefault(str(row["name"]).lower(), row)
    return found


async def terms_by_slugs_or_names(
    conn: Connection, taxonomy: str, texts: Sequence[str]
) -> tuple[dict[str, Row], dict[str, Row]]:
    """The terms named by ``texts`` as slugs (keyed by slug) and as names (keyed by lowercase
    name, the oldest of a name), as :func:`terms_by_slugs` and :func:`terms_by_names` give
    them, in one statement."""
    if not texts:
        return {}, {}
    slugs = [sanitize_slug(t) for t in texts]
    names = [n.lower() for n in texts]
    rows = await conn.all(
        q.TERMS_BY_SLUGS_OR_NAMES,
        {"taxonomy": taxonomy, "slugs": slugs, "names": names, "named": names},
    )
    wanted = set(slugs)
    by_slug = {str(r["slug"]): r for r in rows if r["slug"] in wanted}
    by_name: dict[str, Row] = {}
    for row in sorted(rows, key=lambda r: int(r["id"])):
        if row["by_name"]:
            by_name.setdefault(str(row["name"]).lower(), row)
    return by_slug, by_name


async def resolve_filter_terms(
    conn: Connection, taxonomy: str, values: Sequence[TermValue], language: str | None = None
) -> list[int] | None:
    """Term ids for a listing filter: each value is a slug first (in ``language``, when given,
    then in the default language), then an id (the original's order); None when any value
    matches no term."""
    wanted = [sanitize_slug(v.text) for v in values]
    translated: dict[str, int] = {}
    if language is not None:
        translated = await translations.ids_by_slugs(conn, taxonomy, language, wanted)
    slugs = await terms_by_slugs(conn, taxonomy, wanted)
    numbers = [v.number for v in values if v.number is not None]
    by_id = await terms_by_ids(conn, taxonomy, numbers)
    ids: list[int] = []
    for value, slug in zip(values, wanted, strict=True):
        if slug in translated:
            ids.append(translated[slug])
            continue
        row = slugs.get(slug)
        if row is None and value.number is not None:
            row = by_id.get(value.number)
        if row is None:
            return None
        ids.append(int(row["id"]))
    return ids


async def with_descendants(conn: Connection, taxonomy: str, ids: Iterable[int]) -> list[int]:
    """The ids and every category below them."""
    seen = set(ids)
    frontier = list(seen)
    while frontier:
        rows = await conn.all(q.CHILD_TERMS, {"taxonomy": taxonomy, "ids": frontier})
        frontier = [int(r["id"]) for r in rows if int(r["id"]) not in seen]
        seen.update(frontier)
    return sorted(seen)


@dataclass(frozen=True, slots=True)
class ResolvedTerms:
    """Term ids for an event write, and the names that match no term yet."""

    ids: list[int]
    new_names: list[str]
    unknown_ids: list[int]


async def resolve_write_terms(
    conn: Connection, taxonomy: str, values: Sequence[TermValue]
) -> ResolvedTerms:
    """Numbers are ids (unknown ones are listed: the write is refused); texts are a slug, then
    a name (DEVIATIONS: tags resolve like categories); unknown texts are new names."""
    numbers = [v.number for v in values if v.number is not None]
    texts = [v.text for v in values if v.number is None]
    by_id = await terms_by_ids(conn, taxonomy, numbers)
    by_slug, by_name = await terms_by_slugs_or_names(conn, taxonomy, texts)
    ids: list[int] = []
    new_names: list[str] = []
    unknown_ids: list[int] = []
    for value in values:
        if value.number is not None:
            row = by_id.get(value.number)
            if row is None and value.number not in unknown_ids:
                unknown_ids.append(value.number)
        else:
            row = by_slug.get(sanitize_slug(value.text)) or by_name.get(value.text.lower())
            if row is None:
                if value.text.lower() not in {n.lower() for n in new_names}:
                    new_names.append(value.text)
                continue
        if row is not None and int(row["id"]) not in ids:
            ids.append(int(row["id"]))
    return ResolvedTerms(ids, new_names, unknown_ids)


async def unique_term_slug(conn: Connection, taxonomy: str, wanted: str) -> str:
    """``wanted``, or ``wanted-2``, ``wanted-3``… whichever is free in the taxonomy."""
    base = wanted or "term"
    candidate = base
    number = 1
    while await conn.scalar(q.TERM_SLUG_TAKEN, {"taxonomy": taxonomy, "slug": candidate}):
        number += 1
        candidate = numbered(base, number)
    return candidate


async def create_term(
    conn: Connection,
    taxonomy: str,
    name: str,
    *,
    slug: str = "",
    description: str = "",
    parent_id: int | None = None,
) -> int:
    """Insert a term with a slug unique in its taxonomy (retried if a concurrent writer won)."""
    wanted = sanitize_slug(slug or name)
    for _ in range(20):
        candidate = await unique_term_slug(conn, taxonomy, wanted)
        try:
            async with conn.savepoint():
                return int(
                    await conn.scalar(
                        q.INSERT_TERM,
                        {
                            "taxonomy": taxonomy,
                            "name": name,
                            "slug": candidate,
                            "description": description,
                            "parent_id": parent_id,
                        },
                    )
                )
        except UniqueViolation:
            continue
    raise UniqueViolation(f"no free slug for term {name!r}")


async def find_or_create_term(conn: Connection, taxonomy: str, name: str) -> int:
    """The term named ``name`` (by slug or name), created when missing. Concurrent writers naming
    the same new term get the same one."""
    await conn.lock(f"term:{taxonomy}:{name.strip().lower()}")
    slug = sanitize_slug(name)
    existing = await terms_by_slugs(conn, taxonomy, [slug]) if slug else {}
    row = existing.get(slug) or (await terms_by_names(conn, taxonomy, [name])).get(name.lower())
    if row is not None:
        return int(row["id"])
    term_id = await create_term(conn, taxonomy, name)
    changes.record(conn, taxonomy, term_id, "create", 1)
    return term_id

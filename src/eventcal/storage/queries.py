"""Statements several layers share: rows by id, the shared id space, term lookups, writes of a
changing set of columns, and search helpers.

Every statement is built once: module constants for fixed ones, ``lru_cache`` builders keyed by
what changes the SQL text. Values always travel as bound parameters; lists go through
:class:`~eventcal.storage.db.in_values`, so the SQL text never depends on the number of items.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import sqlalchemy as sa

from eventcal.storage.db import Connection, in_constants, in_values
from eventcal.storage.tables import (
    app_password,
    app_user,
    media,
    post,
    term,
    translation,
)

# --- single rows ---------------------------------------------------------------------------

POST_TYPE_BY_ID = sa.select(post.c.type).where(post.c.id == sa.bindparam("id"))
MEDIA_BY_ID = sa.select(media).where(media.c.id == sa.bindparam("id"))
MEDIA_BY_URL = sa.select(media).where(media.c.url == sa.bindparam("url")).limit(1)
USER_BY_ID = sa.select(app_user).where(app_user.c.id == sa.bindparam("id"))
USER_BY_LOGIN = sa.select(app_user).where(app_user.c.login == sa.bindparam("login"))
PASSWORDS_OF_USER = sa.select(app_password).where(app_password.c.user_id == sa.bindparam("user_id"))

INSERT_POST = sa.insert(post).values(type=sa.bindparam("type")).returning(post.c.id)


MEDIA_BY_IDS = sa.select(media).where(in_values(media.c.id, "ids"))

# --- terms ---------------------------------------------------------------------------------

TERMS_BY_IDS = sa.select(term).where(
    term.c.taxonomy == sa.bindparam("taxonomy"), in_values(term.c.id, "ids")
)
TERMS_BY_SLUGS = sa.select(term).where(
    term.c.taxonomy == sa.bindparam("taxonomy"),
    in_values(term.c.slug, "slugs", sa.String()),
)
TERMS_BY_LOWER_NAMES = sa.select(term).where(
    term.c.taxonomy == sa.bindparam("taxonomy"),
    in_values(sa.func.lower(term.c.name), "names", sa.String()),
)
TERMS_BY_SLUGS_OR_NAMES = sa.select(
    term, in_values(sa.func.lower(term.c.name), "named", sa.String()).label("by_name")
).where(
    term.c.taxonomy == sa.bindparam("taxonomy"),
    sa.or_(
        in_values(term.c.slug, "slugs", sa.String()),
        in_values(sa.func.lower(term.c.name), "names", sa.String()),
    ),
)
"""The terms of a taxonomy with one of the slugs or (lowercase) names, in one statement;
``by_name``: found by its name (``named`` holds the ``names`` again)."""
CHILD_TERMS = sa.select(term.c.id).where(
    term.c.taxonomy == sa.bindparam("taxonomy"), in_values(term.c.parent_id, "ids")
)
ADD_TO_TERM_COUNT = (
    sa.update(term)
    .where(term.c.id == sa.bindparam("term_id"))
    .values(count=term.c.count + sa.bindparam("delta", type_=sa.Integer))
)
INSERT_TERM = (
    sa.insert(term)
    .values(
        taxonomy=sa.bindparam("taxonomy"),
        name=sa.bindparam("name"),
        slug=sa.bindparam("slug"),
        description=sa.bindparam("description"),
        parent_id=sa.bindparam("parent_id"),
    )
    .returning(term.c.id)
)
TERM_SLUG_TAKEN = sa.select(term.c.id).where(
    term.c.taxonomy == sa.bindparam("taxonomy"), term.c.slug == sa.bindparam("slug")
)

# --- writes of a changing set of columns ---------------------------------------------------


@lru_cache(maxsize=512)
def insert_row(table: sa.Table, columns: tuple[str, ...], *, returning: bool = False) -> sa.Insert:
    """``INSERT`` of these columns, built once per column set (values: :func:`row_values`);
    ``returning``: it answers with the whole row as written (what ``SELECT`` of the table
    gives, defaults included), so a write need not read it back."""
    statement = sa.insert(table).values(
        {c: sa.bindparam(f"v_{c}", type_=table.c[c].type) for c in columns}
    )
    return statement.returning(*table.c) if returning else statement


@lru_cache(maxsize=512)
def update_row(table: sa.Table, columns: tuple[str, ...], *, returning: bool = False) -> sa.Update:
    """``UPDATE … WHERE id = :row_id`` of these columns, +1 on the row's ``revision`` when the
    table has one; built once per column set (values: :func:`row_values`); ``returning``: it
    answers with the whole row as updated (see :func:`insert_row`)."""
    values: dict[str, Any] = {c: sa.bindparam(f"v_{c}", type_=table.c[c].type) for c in columns}
    if "revision" in table.c and "revision" not in columns:
        values["revision"] = table.c.revision + 1
    statement = (
        sa.update(table)
        .where(table.c.id == sa.bindparam("row_id", type_=sa.Integer))
        .values(values)
    )
    return statement.returning(*table.c) if returning else statement


def row_values(values: dict[str, Any]) -> dict[str, Any]:
    """Parameters for :func:`insert_row`/:func:`update_row`."""
    return {f"v_{name}": value for name, value in values.items()}


async def post_type(conn: Connection, item_id: int) -> str | None:
    """``event``, ``venue``, ``organizer``, ``media`` or None for an id of the shared space."""
    value = await conn.scalar(POST_TYPE_BY_ID, {"id": item_id})
    return None if value is None else str(value)


async def new_post_id(conn: Connection, kind: str) -> int:
    """Reserve an id in the shared id space for a new item of ``kind``."""
    return int(await conn.scalar(INSERT_POST, {"type": kind}))


# --- search ---------------------------------------------------------------------------------


def like_pattern(word: str) -> str:
    """``%word%`` with LIKE metacharacters escaped (``\\`` is the escape character)."""
    escaped = word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def translated_match(
    kind: str | sa.ColumnElement[Any],
    id_column: sa.ColumnElement[Any],
    fields: Sequence[str],
    patterns: Sequence[str],
) -> sa.ColumnElement[bool]:
    """The item has a translation in ``:search_language`` where one of ``fields`` matches every
    LIKE pattern bound as ``patterns`` (``search`` in a language other than the default)."""
    return sa.exists().where(
        translation.c.item_id == id_column,
        translation.c.kind == (sa.literal(kind) if isinstance(kind, str) else kind),
        translation.c.language == sa.bindparam("search_language", type_=sa.String),
        in_constants(translation.c.field, fields),
        *(
            translation.c.value.ilike(sa.bindparam(name, type_=sa.String), escape="\\")
            for name in patterns
        ),
    )


def other_values(column: sa.Column[Any], param: str) -> sa.Select[Any]:
    """The values of an indexed ``column`` other than those bound as ``param`` (a list): a walk
    of an index led by ``column`` from one distinct value to the next (one seek each), so no
    row of the values asked is read."""
    table = column.table
    seen = sa.select(sa.func.min(column).label("value")).cte(f"seen_{column.name}", recursive=True)
    following = sa.select(sa.func.min(column)).select_from(table).where(column > seen.c.value)
    seen = seen.union_all(sa.select(following.scalar_subquery()).where(seen.c.value.is_not(None)))
    return sa.select(seen.c.value).where(
        seen.c.value.is_not(None), sa.not_(in_values(seen.c.value, param, column.type))
    )

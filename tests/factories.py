"""One factory per table. Rows go straight into the database (through the same statements and
service helpers the app uses for links and counts), so tests control ids, dates and statuses."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import orjson
import sqlalchemy as sa

from eventcal.storage import queries as q
from eventcal.storage.db import Database
from eventcal.storage.tables import (
    app_password,
    app_user,
    event,
    event_organizer,
    event_term,
    media,
    metadata,
    organizer,
    post,
    term,
    venue,
)
from eventcal.timezones import resolve_timezone, to_utc

CREATED = datetime(2026, 11, 22, 4, 10, 27, tzinfo=UTC)


async def empty_database(db: Database) -> None:
    """Delete every row and restart id sequences, so each test starts from nothing."""
    async with db.transaction() as conn:
        # The data version only ever grows (caches and ETags rely on it), so it is kept.
        tables = [t for t in reversed(metadata.sorted_tables) if t.name != "data_version"]
        if conn.dialect_name == "postgresql":
            names = ", ".join(t.name for t in tables)
            await conn.execute(sa.text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
        else:
            for table in tables:
                await conn.execute(sa.delete(table))
            await conn.execute(sa.text("DELETE FROM sqlite_sequence"))


async def add_user(db: Database, login: str, role: str, password_hash: str) -> int:
    async with db.transaction() as conn:
        user_id = int(
            await conn.scalar(
                sa.insert(app_user)
                .values(login=login, role=role, display_name=login, created_at=CREATED)
                .returning(app_user.c.id)
            )
        )
        await conn.execute(
            sa.insert(app_password).values(
                user_id=user_id, label="default", password_hash=password_hash, created_at=CREATED
            )
        )
    return user_id


async def _post_id(conn: Any, kind: str, item_id: int | None) -> int:
    if item_id is None:
        return await q.new_post_id(conn, kind)
    await conn.execute(sa.insert(post).values(id=item_id, type=kind))
    return item_id


async def reset_sequence(db: Database, table: str, next_id: int) -> None:
    """Make the next generated id of ``table`` (``post``, ``term``) ``next_id``."""
    assert table in ("post", "term", "app_user")
    async with db.transaction() as conn:
        if conn.dialect_name == "postgresql":
            await conn.execute(sa.text(f"SELECT setval('{table}_id_seq', {int(next_id) - 1})"))
        else:
            await conn.execute(sa.text(f"DELETE FROM sqlite_sequence WHERE name = '{table}'"))
            seq = int(next_id) - 1
            await conn.execute(
                sa.text(f"INSERT INTO sqlite_sequence (name, seq) VALUES ('{table}', {seq})")
            )


async def reset_post_sequence(db: Database, next_id: int) -> None:
    """Make the next generated post id ``next_id`` (after inserting explicit ids)."""
    await reset_sequence(db, "post", next_id)


def _post_values(fields: dict[str, Any], title: str) -> dict[str, Any]:
    status = fields.pop("status", "publish")
    return {
        "author_id": fields.pop("author_id", None),
        "status": status,
        "slug": fields.pop("slug", None),
        "title": title,
        "description": fields.pop("description", ""),
        "excerpt": fields.pop("excerpt", ""),
        "post_password": fields.pop("post_password", ""),
        "published_at": fields.pop("published_at", CREATED),
        "date_floating": fields.pop("date_floating", False),
        "modified_at": fields.pop("modified_at", CREATED),
        "image_id": fields.pop("image_id", None),
        "image_url": fields.pop("image_url", None),
    }


def _slug_for(values: dict[str, Any]) -> None:
    if values["slug"] is None:
        from eventcal.resources.slugs import sanitize_slug

        values["slug"] = sanitize_slug(values["title"])


async def make_venue(
    db: Database, name: str = "Main Hall", *, id: int | None = None, **fields: Any
) -> int:
    async with db.transaction() as conn:
        venue_id = await _post_id(conn, "venue", id)
        values = _post_values(fields, name)
        _slug_for(values)
        values.update(fields)
        await conn.execute(sa.insert(venue).values(id=venue_id, **values))
    return venue_id


async def make_organizer(
    db: Database, name: str = "Jane Org", *, id: int | None = None, **fields: Any
) -> int:
    async with db.transaction() as conn:
        organizer_id = await _post_id(conn, "organizer", id)
        values = _post_values(fields, name)
        _slug_for(values)
        values.update(fields)
        await conn.execute(sa.insert(organizer).values(id=organizer_id, **values))
    return organizer_id


async def make_term(
    db: Database,
    name: str,
    *,
    taxonomy: str = "tribe_events_cat",
    slug: str | None = None,
    description: str = "",
    parent_id: int | None = None,
    id: int | None = None,
) -> int:
    from eventcal.resources.slugs import sanitize_slug

    async with db.transaction() as conn:
        values = {
            "taxonomy": taxonomy,
            "name": name,
            "slug": slug if slug is not None else sanitize_slug(name),
            "description": description,
            "parent_id": parent_id,
        }
        if id is not None:
            values["id"] = id
        return int(await conn.scalar(sa.insert(term).values(**values).returning(term.c.id)))


async def make_media(db: Database, url: str, *, id: int | None = None, **fields: Any) -> int:
    async with db.transaction() as conn:
        media_id = await _post_id(conn, "media", id)
        extension = url.rsplit(".", 1)[-1].lower() if "." in url.rsplit("/", 1)[-1] else ""
        values = {
            "url": url,
            "mime_type": fields.pop("mime_type", f"image/{extension}" if extension else ""),
            "extension": extension,
            "created_at": CREATED,
            **fields,
        }
        await conn.execute(sa.insert(media).values(id=media_id, **values))
    return media_id


async def make_event(
    db: Database,
    title: str = "An event",
    *,
    start: datetime | str = "2026-12-15 19:00:00",
    end: datetime | str | None = None,
    timezone: str = "UTC",
    id: int | None = None,
    venue_id: int | None = None,
    organizer_ids: tuple[int, ...] = (),
    term_ids: tuple[int, ...] = (),
    cost: list[str] | None = None,
    **fields: Any,
) -> int:
    """An event with wall-clock ``start``/``end`` in ``timezone`` (end defaults to start + 2h)."""
    start_local = datetime.fromisoformat(start) if isinstance(start, str) else start
    if end is None:
        end_local = start_local + timedelta(hours=2)
    else:
        end_local = datetime.fromisoformat(end) if isinstance(end, str) else end
    zone = resolve_timezone(timezone)
    assert zone is not None
    async with db.transaction() as conn:
        event_id = await _post_id(conn, "event", id)
        values = _post_values(fields, title)
        if values["slug"] is None:
            if values["status"] in ("publish", "future", "private"):
                _slug_for(values)
            else:
                values["slug"] = ""
        defaults: dict[str, Any] = {
            "timezone": timezone,
            "all_day": False,
            "start_local": start_local,
            "end_local": end_local,
            "start_at": to_utc(start_local, zone),
            "end_at": to_utc(end_local, zone),
            "cost": orjson.dumps(cost).decode() if cost else "",
            "venue_id": venue_id,
        }
        defaults.update(fields)
        await conn.execute(sa.insert(event).values(id=event_id, **values, **defaults))
        for position, organizer_id in enumerate(organizer_ids):
            await conn.execute(
                sa.insert(event_organizer).values(
                    event_id=event_id, organizer_id=organizer_id, position=position
                )
            )
        for term_id in term_ids:
            await conn.execute(sa.insert(event_term).values(event_id=event_id, term_id=term_id))
            if values["status"] == "publish":
                await conn.execute(
                    sa.update(term).where(term.c.id == term_id).values(count=term.c.count + 1)
                )
    return event_id

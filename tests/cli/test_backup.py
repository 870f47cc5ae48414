"""``eventcal export`` / ``eventcal import``: a round trip SQLite → PostgreSQL → SQLite gives the
same API responses; imports are idempotent, keep other rows and move id sequences; users' secrets
travel only when asked; bad files are refused; exports stream in bounded memory.

The PostgreSQL parts run when ``EVENTCAL_TEST_POSTGRES_URL`` is set; they drop and recreate
schema ``public`` of that database and leave it migrated to the head (as the session fixture
does), so the tests that follow find the schema they expect.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import os
import sqlite3
import subprocess
import sys
import tracemalloc
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import orjson
import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from eventcal.app import create_app
from eventcal.cli import main
from eventcal.config import Settings
from eventcal.storage import backup as backup_service
from eventcal.storage import backup_values, bulk, migrate
from eventcal.storage.db import Database
from eventcal.storage.tables import app_password, event, metadata, post
from tests import factories
from tests.conftest import NS, PASSWORD, Api, Clock, reset_postgres

PG_URL = os.environ.get("EVENTCAL_TEST_POSTGRES_URL")
needs_postgres = pytest.mark.skipif(not PG_URL, reason="EVENTCAL_TEST_POSTGRES_URL is not set")


# --- helpers -----------------------------------------------------------------------------------


def sqlite_url(directory: Path, name: str, *, migrated: bool = True) -> str:
    url = f"sqlite:///{directory / name}"
    if migrated:
        migrate.upgrade(url)
    return url


def empty_postgres() -> str:
    assert PG_URL is not None
    reset_postgres(PG_URL)
    migrate.upgrade(PG_URL)
    return PG_URL


@contextlib.contextmanager
def site(url: str, password_hash: str) -> Iterator[Api]:
    """The app on ``url``, with a client (the clock frozen like the other API tests)."""
    app = create_app(Settings(database_url=url, public_url="http://127.0.0.1"), clock=Clock())
    with TestClient(app, base_url="http://127.0.0.1") as client:
        yield Api(client, app.state.runtime.database, password_hash)


def cli(monkeypatch: pytest.MonkeyPatch, url: str, *args: str) -> int:
    """``eventcal ARGS`` on the database at ``url``."""
    monkeypatch.setenv("EVENTCAL_DATABASE_URL", url)
    return main(list(args))


def rows_of(path: Path) -> list[bytes]:
    """The row lines of an export (the header holds the export time)."""
    return path.read_bytes().splitlines()[1:]


def header_of(path: Path) -> dict[str, Any]:
    header: dict[str, Any] = orjson.loads(path.read_bytes().split(b"\n", 1)[0])
    return header


def created(response: Any) -> int:
    assert response.status_code in (200, 201), response.text
    return int(response.json()["id"])


def populate(api: Api) -> dict[str, int]:
    """A bit of everything, through the API where it has a route for it."""
    db = api.database
    ids: dict[str, int] = {"admin": api.user("administrator"), "editor": api.user("editor")}
    ids["image"] = api.run(
        lambda: factories.make_media(
            db, "https://cdn.example.test/poster.jpg", width=800, height=600, filesize=12345
        )
    )
    ids["venue"] = created(
        api.post(
            f"{NS}/venues",
            json={
                "venue": "Philharmonie",
                "address": "Herbert-von-Karajan-Str. 1",
                "city": "Berlin",
                "country": "Germany",
                "latitude": 52.51,
                "longitude": 13.37,
                "status": "publish",
            },
        )
    )
    ids["organizer"] = created(
        api.post(
            f"{NS}/organizers",
            json={"organizer": "Jane Org", "email": "jane@example.test", "status": "publish"},
        )
    )
    # A category whose parent is created after it: its parent comes later in the file.
    ids["festivals"] = created(api.post(f"{NS}/categories", json={"name": "Festivals"}))
    ids["concerts"] = created(
        api.post(f"{NS}/categories", json={"name": "Concerts", "description": "Live music"})
    )
    ids["jazz"] = created(
        api.post(f"{NS}/categories", json={"name": "Jazz", "parent": ids["concerts"]})
    )
    ids["music"] = created(api.post(f"{NS}/categories", json={"name": "Music"}))
    created(api.post(f"{NS}/categories/{ids['festivals']}", json={"parent": ids["music"]}))
    created(
        api.post(
            f"{NS}/categories/{ids['concerts']}?translation_language=de",
            json={"name": "Konzerte"},
        )
    )
    ids["jazz_night"] = created(
        api.post(
            f"{NS}/events",
            json={
                "title": "Jazz night",
                "description": "<p>Live jazz until midnight.</p>",
                "start_date": "2026-12-04 20:00:00",
                "end_date": "2026-12-04 23:00:00",
                "timezone": "Europe/Berlin",
                "cost": "15 €",
                "venue": ids["venue"],
                "organizer": [
                    ids["organizer"],
                    {"organizer": "Berlin Events GmbH", "email": "info@example.org"},
                ],
                "categories": [ids["jazz"], ids["festivals"]],
                "tags": ["gala", "new year"],
                "image": ids["image"],
                "featured": True,
                "status": "publish",
            },
        )
    )
    created(
        api.post(
            f"{NS}/events/{ids['jazz_night']}?translation_language=de",
            json={"title": "Jazznacht", "description": "<p>Live-Jazz bis Mitternacht.</p>"},
        )
    )
    ids["draft"] = created(
        api.post(
            f"{NS}/events",
            json={
                "title": "Not yet",
                "start_date": "2027-01-10 10:00:00",
                "end_date": "2027-01-10 12:00:00",
                "status": "draft",
                "tags": ["gala"],
            },
        )
    )
    ids["protected"] = created(
        api.post(
            f"{NS}/events",
            json={
                "title": "Members only",
                "description": "<p>The secret programme.</p>",
                "start_date": "2026-12-12",
                "end_date": "2026-12-12",
                "all_day": True,
                "post_password": "opensesame",
                "image": "https://elsewhere.test/members.webp",
                "categories": [ids["concerts"]],
                "status": "publish",
            },
        )
    )
    ids["trashed"] = created(
        api.post(
            f"{NS}/events",
            json={
                "title": "Cancelled",
                "start_date": "2026-12-20 18:00:00",
                "end_date": "2026-12-20 19:00:00",
                "status": "publish",
                "categories": [ids["concerts"]],
            },
        )
    )
    assert api.delete(f"{NS}/events/{ids['trashed']}").status_code == 200
    # Events get no parent through the API (recurrences would): one pointing at a later event.
    ids["child"] = api.run(lambda: factories.make_event(db, "Part one", start="2026-12-27 10:00"))
    ids["parent"] = api.run(lambda: factories.make_event(db, "The series", start="2026-12-26"))
    api.run(lambda: _set_parent(db, ids["child"], ids["parent"]))
    return ids


async def _set_parent(db: Database, child: int, parent: int) -> None:
    async with db.transaction() as conn:
        await conn.execute(sa.update(event).where(event.c.id == child).values(parent_id=parent))


def responses(api: Api, ids: dict[str, int]) -> dict[str, Any]:
    """What clients see: bodies and the totals headers of the reads that show every item."""
    event_ids = [ids[k] for k in ("jazz_night", "draft", "protected", "trashed", "child")]
    reads: list[tuple[str, str | None]] = [
        (f"{NS}/events", None),
        (f"{NS}/events?status=publish,draft,private&per_page=50", "administrator"),
        (f"{NS}/events/{ids['jazz_night']}?translation_language=de", None),
        (f"{NS}/events?translation_language=de", None),
        (f"{NS}/events/{ids['protected']}", None),
        (f"{NS}/events/{ids['protected']}?password=opensesame", None),
        (f"{NS}/venues", None),
        (f"{NS}/organizers", None),
        (f"{NS}/categories?hide_empty=false", None),
        (f"{NS}/categories?hide_empty=false&translation_language=de", None),
        (f"{NS}/tags?hide_empty=false", None),
        # The search index and the listing totals' summary are rebuilt from the imported rows.
        (f"{NS}/events?search=jazz", None),
        (f"{NS}/events?search=night&status=publish,draft,private", "administrator"),
        (f"{NS}/events?start_date=2026-01-01&end_date=2028-12-31", None),
    ]
    for event_id in event_ids:
        reads.append((f"{NS}/events/{event_id}", "administrator"))
        reads.append((f"{NS}/events/{event_id}?context=edit", "administrator"))
    seen: dict[str, Any] = {}
    for path, who in reads:
        response = api.get(path, as_=who)
        assert response.status_code in (200, 401, 403), (path, response.text)
        headers = {
            k: response.headers.get(k)
            for k in ("x-wp-total", "x-wp-totalpages", "x-tec-total", "x-tec-totalpages")
        }
        seen[f"{who} {path}"] = (response.status_code, headers, response.json())
    return seen


# --- the round trip ----------------------------------------------------------------------------


def test_round_trip_sqlite_postgres_sqlite_gives_the_same_responses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, password_hash: str
) -> None:
    source = sqlite_url(tmp_path, "source.db")
    with site(source, password_hash) as api:
        ids = populate(api)
        expected = responses(api, ids)
    first = tmp_path / "first.jsonl"
    assert cli(monkeypatch, source, "export", str(first), "--with-secrets") == 0
    assert header_of(first)["tables"]["event"] == 6
    assert expected[f"None {NS}/events/{ids['jazz_night']}?translation_language=de"][2][
        "title"
    ] == ("Jazznacht")
    assert expected[f"None {NS}/events?search=jazz"][2]["total"] == 1

    def move(url: str, source: Path, name: str) -> Path:
        """Import ``source`` into ``url``: the same responses; its export: the same rows."""
        assert cli(monkeypatch, url, "import", str(source)) == 0
        with site(url, password_hash) as api:
            api.users = {"administrator": ids["admin"]}
            assert responses(api, ids) == expected
        exported = tmp_path / name
        assert cli(monkeypatch, url, "export", str(exported), "--with-secrets") == 0
        assert rows_of(exported) == rows_of(first)
        return exported

    between = move(empty_postgres(), first, "between.jsonl") if PG_URL else first
    move(sqlite_url(tmp_path, "target.db", migrated=False), between, "last.jsonl")


# --- import semantics --------------------------------------------------------------------------


def targets() -> list[Any]:
    found: list[Any] = ["sqlite"]
    if PG_URL:
        found.append(pytest.param("postgresql", marks=pytest.mark.postgres))
    return found


def target_url(kind: str, tmp_path: Path, name: str = "target.db") -> str:
    """An empty, migrated database of that kind."""
    return sqlite_url(tmp_path, name) if kind == "sqlite" else empty_postgres()


@pytest.mark.parametrize("kind", targets())
def test_importing_twice_changes_nothing_keeps_other_rows_and_new_ids_follow(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, password_hash: str
) -> None:
    source = sqlite_url(tmp_path, "source.db")
    with site(source, password_hash) as api:
        ids = populate(api)
    exported = tmp_path / "export.jsonl"
    assert cli(monkeypatch, source, "export", str(exported), "--with-secrets") == 0

    target = target_url(kind, tmp_path)
    with site(target, password_hash) as api:
        db = api.database
        api.run(lambda: factories.make_venue(db, "Local hall", id=5000))
        local_tag = api.run(lambda: factories.make_term(db, "local", taxonomy="post_tag", id=900))
    once, twice = tmp_path / "once.jsonl", tmp_path / "twice.jsonl"
    assert cli(monkeypatch, target, "import", str(exported)) == 0
    assert cli(monkeypatch, target, "export", str(once), "--with-secrets") == 0
    assert cli(monkeypatch, target, "import", str(exported)) == 0
    assert cli(monkeypatch, target, "export", str(twice), "--with-secrets") == 0
    assert rows_of(once) == rows_of(twice)
    assert set(rows_of(exported)) < set(rows_of(once))
    assert header_of(once)["tables"]["venue"] == header_of(exported)["tables"]["venue"] + 1

    with site(target, password_hash) as api:
        api.users = {"administrator": ids["admin"]}
        assert api.get(f"{NS}/venues/5000").json()["venue"] == "Local hall"
        assert api.get(f"{NS}/tags/{local_tag}").json()["name"] == "local"
        new_event = created(
            api.post(
                f"{NS}/events",
                json={
                    "title": "After the move",
                    "start_date": "2026-12-30 10:00:00",
                    "end_date": "2026-12-30 11:00:00",
                },
            )
        )
        new_tag = created(api.post(f"{NS}/tags", json={"name": "fresh"}))
        new_user = api.user("author", "newcomer")
    assert new_event == 5001
    assert new_tag == local_tag + 1
    assert new_user == max(ids["admin"], ids["editor"]) + 1


@pytest.mark.parametrize("kind", targets())
def test_users_come_without_their_passwords_unless_asked(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, password_hash: str
) -> None:
    source = sqlite_url(tmp_path, "source.db")
    with site(source, password_hash) as api:
        admin = api.user("administrator")
        draft = created(
            api.post(
                f"{NS}/events",
                json={
                    "title": "Draft",
                    "start_date": "2027-01-10 10:00",
                    "end_date": "2027-01-10 11:00",
                    "status": "draft",
                },
            )
        )
    plain, secret = tmp_path / "plain.jsonl", tmp_path / "secret.jsonl"
    assert cli(monkeypatch, source, "export", str(plain)) == 0
    assert cli(monkeypatch, source, "export", str(secret), "--with-secrets") == 0
    assert "app_password" not in header_of(plain)["tables"]
    assert header_of(secret)["tables"]["app_password"] == 1
    assert b"argon2" not in plain.read_bytes()
    assert PASSWORD.encode() not in secret.read_bytes()
    assert oct(plain.stat().st_mode & 0o777) == "0o600"

    target = target_url(kind, tmp_path)
    assert cli(monkeypatch, target, "import", str(plain)) == 0
    with site(target, password_hash) as api:
        api.users = {"administrator": admin}
        refused = api.get(f"{NS}/events/{draft}", as_="administrator")
        assert refused.status_code == 401
        assert refused.json()["code"] == "incorrect_password"
        api.run(lambda: _give_password(api.database, admin, password_hash))
        assert api.get(f"{NS}/events/{draft}", as_="administrator").status_code == 200

    target = target_url(kind, tmp_path, "again.db")
    assert cli(monkeypatch, target, "import", str(secret)) == 0
    with site(target, password_hash) as api:
        api.users = {"administrator": admin}
        assert api.get(f"{NS}/events/{draft}", as_="administrator").status_code == 200


async def _give_password(db: Database, user_id: int, password_hash: str) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            sa.insert(app_password).values(
                user_id=user_id,
                label="new",
                password_hash=password_hash,
                created_at=factories.CREATED,
            )
        )


def test_standard_streams_and_compressed_files(tmp_path: Path, password_hash: str) -> None:
    source = sqlite_url(tmp_path, "source.db")
    with site(source, password_hash) as api:
        populate(api)
    eventcal = [sys.executable, "-m", "eventcal"]
    env = {**os.environ, "EVENTCAL_DATABASE_URL": source}
    exported = subprocess.run(  # noqa: S603 (our own console script)
        [*eventcal, "export", "-"], env=env, capture_output=True, check=True
    )
    assert exported.stdout.startswith(b'{"format":"eventcal-export"')
    assert b"exported" in exported.stderr
    env["EVENTCAL_DATABASE_URL"] = sqlite_url(tmp_path, "target.db", migrated=False)
    imported = subprocess.run(  # noqa: S603 (our own console script)
        [*eventcal, "import", "-"], env=env, input=exported.stdout, capture_output=True, check=True
    )
    assert imported.stdout.startswith(b"imported ")
    packed = tmp_path / "again.jsonl.gz"
    subprocess.run(  # noqa: S603 (our own console script)
        [*eventcal, "export", str(packed)], env=env, check=True, capture_output=True
    )
    again = gzip.decompress(packed.read_bytes()).splitlines()[1:]
    assert again == exported.stdout.splitlines()[1:]


# --- refusals ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def good_export(tmp_path_factory: pytest.TempPathFactory, password_hash: str) -> Path:
    """An export of :func:`populate`'s data, shared by the tests that spoil or clash with it."""
    directory = tmp_path_factory.mktemp("good")
    source = sqlite_url(directory, "source.db")
    with site(source, password_hash) as api:
        populate(api)
    exported = directory / "good.jsonl"
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert cli(monkeypatch, source, "export", str(exported)) == 0
    return exported


def _replace_row(lines: list[str], table: str, **changes: Any) -> list[str]:
    """The lines with the first row of ``table`` changed."""
    for number, line in enumerate(lines):
        item = orjson.loads(line)
        if item.get("table") == table:
            item["row"].update(changes)
            return [*lines[:number], orjson.dumps(item).decode(), *lines[number + 1 :]]
    raise AssertionError(table)


def _header(lines: list[str], **changes: Any) -> list[str]:
    return [orjson.dumps({**orjson.loads(lines[0]), **changes}).decode(), *lines[1:]]


def _line_of(lines: list[str], table: str) -> int:
    return next(n for n, line in enumerate(lines, 1) if f'"table":"{table}"' in line)


BAD_FILES: dict[str, Any] = {
    "empty": (lambda lines: [], "the file is empty"),
    "no header": (lambda lines: lines[1:], "line 1: not an eventcal export"),
    "newer format": (lambda lines: _header(lines, version=2), "line 1: format version 2"),
    "newer schema": (
        lambda lines: _header(lines, revision="9999"),
        "line 1: the file is from schema revision '9999', newer than this eventcal",
    ),
    "not JSON": (lambda lines: [*lines[:2], "{oops", *lines[3:]], "line 3: not JSON"),
    "not a row": (lambda lines: [*lines[:2], "[1, 2]", *lines[3:]], "line 3: expected"),
    "unknown column": (
        lambda lines: _replace_row(lines, "venue", colour="red"),
        "columns of venue missing: [], unknown: ['colour']",
    ),
    "boolean as number": (
        lambda lines: _replace_row(lines, "venue", show_map=1),
        "venue.show_map: expected true or false",
    ),
    "instant without offset": (
        lambda lines: _replace_row(lines, "event", start_at="2026-12-04 19:00:00"),
        "event.start_at: expected an ISO 8601 date-time with an offset",
    ),
    "wall clock with offset": (
        lambda lines: _replace_row(lines, "event", start_local="2026-12-04T20:00:00+01:00"),
        "event.start_local: expected an ISO 8601 date-time without an offset",
    ),
    "too long": (
        lambda lines: _replace_row(lines, "term", slug="x" * 201),
        "term.slug: longer than 200 characters",
    ),
    "missing value": (
        lambda lines: _replace_row(lines, "event", title=None),
        "event.title: must not be null",
    ),
    "truncated": (lambda lines: lines[:-2], "the file is truncated after line"),
    "tables out of order": (
        lambda lines: [
            *lines[:-1],
            lines[_line_of(lines, "venue") - 1],
        ],
        "rows of 'venue' here: the file's tables must follow the header's order",
    ),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_bad_files_are_refused_saying_where(
    case: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    good_export: Path,
) -> None:
    edit, message = BAD_FILES[case]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(f"{line}\n" for line in edit(good_export.read_text().splitlines())))
    capsys.readouterr()
    target = sqlite_url(tmp_path, "target.db")
    assert cli(monkeypatch, target, "import", str(bad)) == 1
    assert message in capsys.readouterr().err


def test_rows_that_clash_with_other_data_are_refused(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    password_hash: str,
    good_export: Path,
) -> None:
    lines = good_export.read_text().splitlines()
    target = sqlite_url(tmp_path, "target.db")
    with site(target, password_hash) as api:
        db = api.database
        api.run(lambda: factories.make_organizer(db, "Someone else", id=1))
    capsys.readouterr()
    assert cli(monkeypatch, target, "import", str(good_export)) == 1
    assert capsys.readouterr().err.splitlines(keepends=True)[-1] == (
        f"eventcal: lines 2-{_line_of(lines, 'app_user') - 1} (post): id 1 is a organizer "
        "in the database and a media in the file: the database holds other data with the same "
        "ids\n"
    )


def test_databases_at_another_revision_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    older = bulk.known_revisions()[1]
    url = sqlite_url(tmp_path, "old.db", migrated=False)
    migrate.upgrade(url, older)
    # An embedded database that is behind is migrated first (and the command says so).
    assert cli(monkeypatch, url, "export", str(tmp_path / "x.jsonl")) == 0
    assert f"migrated the database from revision {older}" in capsys.readouterr().err
    assert (tmp_path / "x.jsonl").exists()
    # One newer than this code cannot be exported by it.
    raw = sqlite3.connect(tmp_path / "old.db")
    with raw:
        raw.execute("UPDATE alembic_version SET version_num = '9999'")
    raw.close()
    assert cli(monkeypatch, url, "export", str(tmp_path / "y.jsonl")) == 1
    assert "the database is at schema revision 9999" in capsys.readouterr().err
    assert not (tmp_path / "y.jsonl").exists()
    assert list(tmp_path.glob(".y.jsonl.*")) == []
    missing = f"sqlite:///{tmp_path / 'nothing.db'}"
    assert cli(monkeypatch, missing, "export", str(tmp_path / "x.jsonl")) == 1
    assert "no database at" in capsys.readouterr().err
    assert not (tmp_path / "nothing.db").exists()


def test_every_table_is_exported_or_left_out_with_a_reason() -> None:
    exported = [t.name for t in backup_service.TABLES]
    assert sorted(exported + list(backup_service.NOT_EXPORTED)) == sorted(metadata.tables)
    for position, tbl in enumerate(backup_service.TABLES):
        for fk in tbl.foreign_keys:
            if fk.column.table is not tbl:
                assert exported.index(fk.column.table.name) < position, fk
        row = {c.name: None for c in tbl.columns}
        with pytest.raises(ValueError, match="must not be null"):
            backup_values.decode_row(tbl, row)  # every column has a decoder


# --- bounded memory ----------------------------------------------------------------------------


async def _add_events(url: str, count: int) -> None:
    """``count`` published events, by bulk inserts (the service would take minutes)."""
    from eventcal.storage.db import create_database

    db = create_database(url)
    await db.startup()
    try:
        start = factories.CREATED + timedelta(days=30)
        for first in range(1, count + 1, 5000):
            numbers = range(first, min(first + 5000, count + 1))
            async with db.transaction() as conn:
                await conn.execute_many(
                    sa.insert(post).values(id=sa.bindparam("id"), type=sa.bindparam("type")),
                    [{"id": n, "type": "event"} for n in numbers],
                )
                rows = [_event_row(n, start + timedelta(minutes=n)) for n in numbers]
                await conn.execute_many(
                    sa.insert(event).values({name: sa.bindparam(name) for name in rows[0]}), rows
                )
    finally:
        await db.shutdown()


def _event_row(number: int, start: Any) -> dict[str, Any]:
    return {
        "id": number,
        "status": "publish",
        "slug": f"event-{number}",
        "title": f"Event {number}",
        "description": "Doors open thirty minutes before the start. " * 4,
        "published_at": factories.CREATED,
        "modified_at": factories.CREATED,
        "timezone": "Europe/Berlin",
        "start_local": start.replace(tzinfo=None),
        "end_local": start.replace(tzinfo=None),
        "start_at": start,
        "end_at": start,
        "cost": '["15"]',
    }


def _peak(monkeypatch: pytest.MonkeyPatch, command: str, url: str, path: Path) -> int:
    """The peak of traced memory while ``eventcal <command> <path>`` runs."""
    tracemalloc.start()
    try:
        assert cli(monkeypatch, url, command, str(path)) == 0
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_export_and_import_stream_in_bounded_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ten times the events, about the same peak (Python allocations, traced): a few batches,
    never the table. Holding the rows would cost more than the file's size."""
    small, large = sqlite_url(tmp_path, "small.db"), sqlite_url(tmp_path, "large.db")
    asyncio.run(_add_events(small, 2_000))
    asyncio.run(_add_events(large, 20_000))
    # Warm up once: the first run imports modules and fills statement caches.
    _peak(monkeypatch, "export", small, tmp_path / "warm.jsonl")
    small_peak = _peak(monkeypatch, "export", small, tmp_path / "small.jsonl")
    large_peak = _peak(monkeypatch, "export", large, tmp_path / "large.jsonl")
    size = (tmp_path / "large.jsonl").stat().st_size
    assert size > 15_000_000
    assert large_peak < small_peak * 1.3
    assert large_peak < size / 3

    # Import is slower to trace: 2,000 against 10,000 events (two transactions of 10,000 rows).
    lines = (tmp_path / "large.jsonl").read_bytes().splitlines(keepends=True)
    header = orjson.loads(lines[0])
    for events in (2_000, 10_000):
        part = tmp_path / f"part-{events}.jsonl"
        counts = {**header["tables"], "post": events, "event": events}
        rows = [line for line in lines[1:] if int(orjson.loads(line)["row"]["id"]) <= events]
        part.write_bytes(orjson.dumps({**header, "tables": counts}) + b"\n" + b"".join(rows))
    _peak(monkeypatch, "import", sqlite_url(tmp_path, "warm.db"), tmp_path / "part-2000.jsonl")
    small_import = _peak(
        monkeypatch, "import", sqlite_url(tmp_path, "a.db"), tmp_path / "part-2000.jsonl"
    )
    large_import = _peak(
        monkeypatch, "import", sqlite_url(tmp_path, "b.db"), tmp_path / "part-10000.jsonl"
    )
    assert large_import < small_import * 1.3
    assert large_import < (tmp_path / "part-10000.jsonl").stat().st_size / 2

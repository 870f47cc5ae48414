"""``eventcal user …``: add, list, set-role, remove, password and revoke, on a real database;
unknown users, labels and roles are one-line errors with exit status 1; the API sees every
change at once (a revoked password is refused on the next request)."""

from __future__ import annotations

import asyncio
import base64
import re
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from argon2 import PasswordHasher

from eventcal.cli import main
from eventcal.storage import migrate
from eventcal.storage.db import create_database
from eventcal.storage.tables import app_password, app_user, venue
from tests.conftest import NS, Api

DATE = r"\d{4}-\d{2}-\d{2}"


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``eventcal ARGS``: exit status, standard output, standard error after the line naming
    the database."""
    capsys.readouterr()
    status = main(list(args))
    out, err = capsys.readouterr()
    named, _, rest = err.partition("\n")  # every command names its database first
    assert named.startswith("eventcal: database ")
    return status, out, rest


def basic(login: str, password: str) -> dict[str, str]:
    token = base64.b64encode(f"{login}:{password}".encode()).decode()
    return {"Authorization": f"Basic {token}"}


def rows(url: str, table: sa.Table) -> list[dict[str, Any]]:
    async def read() -> list[dict[str, Any]]:
        db = create_database(url)
        await db.startup()
        try:
            async with db.read() as conn:
                found = await conn.all(sa.select(table).order_by(*table.primary_key.columns))
            return [{column.name: row[column.name] for column in table.columns} for row in found]
        finally:
            await db.shutdown()

    return asyncio.run(read())


@pytest.fixture
def fresh_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A new embedded database file, migrated (the commands refuse a missing one)."""
    url = f"sqlite:///{tmp_path / 'users.db'}"
    migrate.upgrade(url)
    monkeypatch.setenv("EVENTCAL_DATABASE_URL", url)
    return url


@pytest.fixture
def shared_url(api: Api, database_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """The API tests' database (each backend), emptied, for commands next to a running app."""
    monkeypatch.setenv("EVENTCAL_DATABASE_URL", database_url)
    return database_url


# --- the commands on their own ------------------------------------------------------------


def test_list_shows_roles_labels_and_dates_never_secrets(
    fresh_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = cli(capsys, "user", "add", "admin", "--role", "administrator")
    assert status == 0
    first_secret = out.splitlines()[1]
    assert re.fullmatch(r"(\w{4} ){5}\w{4}", first_secret)
    status, out, _ = cli(capsys, "user", "password", "admin", "--label", "laptop")
    assert status == 0
    assert out.splitlines()[0] == (
        "application password 'laptop' added to user admin (shown only now):"
    )
    second_secret = out.splitlines()[1]
    assert cli(capsys, "user", "add", "ed", "--role", "Editor", "--password", "ed pass")[0] == 0

    status, out, err = cli(capsys, "user", "list")
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert len(lines) == 2
    assert re.fullmatch(
        rf"admin  id 1  administrator  passwords: default \(created {DATE}, last used never\); "
        rf"laptop \(created {DATE}, last used never\)",
        lines[0],
    )
    assert re.fullmatch(
        rf"ed  id 2  editor  passwords: default \(created {DATE}, last used never\)", lines[1]
    )
    for secret in (first_secret, second_secret, "ed pass"):
        assert secret not in out and secret.replace(" ", "") not in out
    assert "$argon2" not in out


def test_list_without_users(fresh_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(capsys, "user", "list") == (0, "no users\n", "")


def test_new_passwords_are_stored_as_argon2id_hashes(
    fresh_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    cli(capsys, "user", "add", "admin", "--role", "administrator", "--password", "first one")
    status, out, _ = cli(capsys, "user", "password", "admin", "--password", "second one")
    assert status == 0
    assert "'password-2'" in out.splitlines()[0]
    assert out.splitlines()[1] == "second one"
    stored = rows(fresh_url, app_password)
    assert [r["label"] for r in stored] == ["default", "password-2"]
    assert all(r["password_hash"].startswith("$argon2id$") for r in stored)
    assert PasswordHasher().verify(stored[1]["password_hash"], "secondone")
    assert "second one" not in str(stored)


def test_default_labels_skip_taken_ones_and_labels_are_unique_per_user(
    fresh_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    cli(capsys, "user", "add", "admin", "--role", "administrator")
    cli(capsys, "user", "add", "ed", "--role", "editor")
    assert cli(capsys, "user", "password", "admin", "--label", "password-2")[0] == 0
    assert "'password-3'" in cli(capsys, "user", "password", "admin")[1]
    status, out, err = cli(capsys, "user", "password", "admin", "--label", "password-3")
    assert (status, out) == (1, "")
    assert err == (
        "eventcal: User admin already has an application password labelled password-3.\n"
    )
    # Labels are per user.
    assert cli(capsys, "user", "password", "ed", "--label", "password-3")[0] == 0
    assert [r["label"] for r in rows(fresh_url, app_password)] == [
        "default",
        "default",
        "password-2",
        "password-3",
        "password-3",
    ]


def test_set_role(fresh_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    cli(capsys, "user", "add", "ed", "--role", "editor")
    assert cli(capsys, "user", "set-role", "ed", "contributor") == (
        0,
        "user ed (id 1) is now contributor\n",
        "",
    )
    assert [r["role"] for r in rows(fresh_url, app_user)] == ["contributor"]


def test_remove_and_revoke(fresh_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    cli(capsys, "user", "add", "admin", "--role", "administrator")
    cli(capsys, "user", "add", "ed", "--role", "editor")
    cli(capsys, "user", "password", "ed", "--label", "laptop")
    assert cli(capsys, "user", "revoke", "admin", "default") == (
        0,
        "application password 'default' of user admin revoked\n",
        "",
    )
    status, out, _ = cli(capsys, "user", "remove", "ed")
    assert status == 0
    assert out == (
        "user ed (id 2) removed with their application passwords; "
        "the 0 items they wrote are kept, without an author\n"
    )
    assert [r["login"] for r in rows(fresh_url, app_user)] == ["admin"]
    assert rows(fresh_url, app_password) == []
    assert cli(capsys, "user", "list")[1] == "admin  id 1  administrator  passwords: none\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("user", "remove", "ghost"), "There is no user ghost."),
        (("user", "password", "ghost"), "There is no user ghost."),
        (("user", "revoke", "ghost", "default"), "There is no user ghost."),
        (("user", "set-role", "ghost", "editor"), "There is no user ghost."),
        (
            ("user", "revoke", "admin", "phone"),
            "User admin has no application password labelled phone.",
        ),
        (
            ("user", "set-role", "admin", "wizard"),
            "Unknown role wizard; the roles are "
            "administrator, editor, author, contributor, subscriber.",
        ),
        (
            ("user", "add", "merlin", "--role", "wizard"),
            "Unknown role wizard; the roles are "
            "administrator, editor, author, contributor, subscriber.",
        ),
        (("user", "add", "admin", "--role", "editor"), "Sorry, that username already exists!"),
        (("user", "password", "admin", "--label", " "), "A label is 1 to 100 characters."),
        (("user", "password", "admin", "--password", "  "), "The password must not be empty."),
    ],
)
def test_mistakes_are_one_line_errors_with_status_1(
    fresh_url: str, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    cli(capsys, "user", "add", "admin", "--role", "administrator", "--password", "admin pass")
    before = (rows(fresh_url, app_user), rows(fresh_url, app_password))
    assert cli(capsys, *args) == (1, "", f"eventcal: {message}\n")
    assert (rows(fresh_url, app_user), rows(fresh_url, app_password)) == before


# --- next to a running app (SQLite and PostgreSQL) ------------------------------------------


def test_a_revoked_password_is_refused_at_once(
    api: Api, shared_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    cli(capsys, "user", "add", "bob", "--role", "editor", "--password", "bob default")
    assert cli(capsys, "user", "password", "bob", "--label", "laptop", "--password", "bob laptop")
    assert cli(capsys, "user", "password", "bob", "--label", "laptop")[0] == 1
    laptop, default = basic("bob", "bob laptop"), basic("bob", "bob default")
    # Verified now, so remembered by this process: revoking must still take effect.
    assert api.get(f"{NS}/events", headers=laptop).status_code == 200
    assert api.get(f"{NS}/events", headers=default).status_code == 200
    assert cli(capsys, "user", "revoke", "bob", "laptop")[0] == 0
    refused = api.get(f"{NS}/events", headers=laptop)
    assert refused.status_code == 401
    assert refused.json()["code"] == "incorrect_password"
    assert api.get(f"{NS}/events", headers=default).status_code == 200
    # A new password with the same secret is a new credential, and works.
    cli(capsys, "user", "password", "bob", "--label", "laptop", "--password", "bob laptop")
    assert api.get(f"{NS}/events", headers=laptop).status_code == 200


def test_list_shows_the_day_a_password_was_last_used(
    api: Api, shared_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    cli(capsys, "user", "add", "bob", "--role", "editor", "--password", "bob default")
    cli(capsys, "user", "password", "bob", "--label", "laptop", "--password", "bob laptop")
    assert api.get(f"{NS}/events", headers=basic("bob", "bob laptop")).status_code == 200
    assert api.get(f"{NS}/events", headers=basic("bob", "bob laptop")).status_code == 200
    line = cli(capsys, "user", "list")[1]
    # The app's clock is frozen on the day the reference exchanges were recorded.
    assert re.fullmatch(
        rf"bob  id 1  editor  passwords: default \(created {DATE}, last used never\); "
        rf"laptop \(created {DATE}, last used 2026-11-22\)\n",
        line,
    )


def test_a_new_role_applies_to_the_next_request(
    api: Api, shared_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    cli(capsys, "user", "add", "dave", "--role", "subscriber", "--password", "dave pass")
    event = {"title": "Gig", "start_date": "2027-01-01 20:00", "end_date": "2027-01-01 23:00"}
    dave = basic("dave", "dave pass")
    assert api.client.post(f"{NS}/events", json=event, headers=dave).status_code == 403
    assert cli(capsys, "user", "set-role", "dave", "author")[0] == 0
    created = api.client.post(f"{NS}/events", json=event, headers=dave)
    assert created.status_code == 201
    assert created.json()["status"] == "publish"


def test_removing_a_user_keeps_what_they_wrote(
    api: Api, shared_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    cli(capsys, "user", "add", "carol", "--role", "author", "--password", "carol pass")
    cli(capsys, "user", "password", "carol", "--label", "phone", "--password", "carol phone")
    carol = basic("carol", "carol pass")
    event = {
        "title": "Carol's gig",
        "start_date": "2027-01-01 20:00",
        "end_date": "2027-01-01 23:00",
        "venue": {"venue": "Carol's bar"},
    }
    created = api.client.post(f"{NS}/events", json=event, headers=carol).json()
    assert created["author"] == "1"
    status, out, _ = cli(capsys, "user", "remove", "carol")
    assert status == 0
    assert "the 2 items they wrote are kept" in out
    refused = api.get(f"{NS}/events", headers=carol)
    assert refused.status_code == 401
    assert refused.json()["code"] == "invalid_username"
    kept = api.get(f"{NS}/events/{created['id']}")
    assert kept.status_code == 200
    assert kept.json()["author"] == "0"
    assert api.get(f"{NS}/venues/{kept.json()['venue']['id']}").status_code == 200
    assert [(r["title"], r["author_id"]) for r in rows(shared_url, venue)] == [
        ("Carol's bar", None)
    ]
    assert rows(shared_url, app_password) == []
    assert rows(shared_url, app_user) == []

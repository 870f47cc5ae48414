"""Which database a command uses, and what it does with one that does not fit the code: every
command names its database first; a missing embedded file is created only by ``serve``,
``migrate`` and ``import``; an embedded file that is behind is migrated (and the command says
so); a PostgreSQL database that is behind is refused with one line (``serve`` too, as JSON);
a newer schema is served; concurrent ``eventcal migrate`` runs do not race.

The unmigrated PostgreSQL tests use ``EVENTCAL_TEST_POSTGRES_UNMIGRATED_URL``, a database they
empty at will (skipped without it)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from eventcal.cli import main
from eventcal.cli.database import describe
from eventcal.storage import migrate
from tests.conftest import reset_postgres

UNMIGRATED = os.environ.get("EVENTCAL_TEST_POSTGRES_UNMIGRATED_URL")
needs_unmigrated = pytest.mark.skipif(
    not UNMIGRATED, reason="EVENTCAL_TEST_POSTGRES_UNMIGRATED_URL is not set"
)
EVENTCAL = Path(sys.executable).parent / "eventcal"
REFUSAL = (
    f"eventcal: database not migrated: at revision none, the code needs "
    f"{migrate.SCHEMA_REVISION}; run `eventcal migrate`"
)


def run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, url: str, *args: str
) -> tuple[int, str, list[str]]:
    """``eventcal ARGS`` on ``url``: exit status, standard output, lines of standard error."""
    monkeypatch.setenv("EVENTCAL_DATABASE_URL", url)
    capsys.readouterr()
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err.splitlines()


@pytest.fixture
def unmigrated() -> Iterator[str]:
    """The unmigrated PostgreSQL database, empty before and after."""
    assert UNMIGRATED is not None
    reset_postgres(UNMIGRATED)
    yield UNMIGRATED
    reset_postgres(UNMIGRATED)


def set_revision(path: Path, revision: str) -> None:
    raw = sqlite3.connect(path)
    with raw:
        raw.execute("UPDATE alembic_version SET version_num = ?", (revision,))
    raw.close()


# --- naming the database -------------------------------------------------------------------


def test_the_database_is_named_absolute_and_without_password(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert describe("sqlite:///./eventcal.db") == str(tmp_path / "eventcal.db")
    assert describe("sqlite:////srv/cal.db") == "/srv/cal.db"
    assert (
        describe("postgresql://cal:s3cret@db.internal:5432/cal?sslmode=require")
        == "postgresql://cal@db.internal:5432/cal?sslmode=require"
    )
    assert describe("postgresql://cal@db/cal") == "postgresql://cal@db/cal"


# --- the embedded database -----------------------------------------------------------------


def test_a_missing_embedded_database_is_not_created_by_other_commands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    for args in (("user", "list"), ("user", "add", "a", "--role", "editor"), ("export", "-")):
        status, out, err = run(capsys, monkeypatch, "sqlite:///./eventcal.db", *args)
        assert status == 1
        assert out == ""
        path = tmp_path / "eventcal.db"
        assert err == [
            f"eventcal: database {path}",
            f"eventcal: no database at {path}; run `eventcal migrate`",
        ]
        assert not path.exists()


def test_migrate_creates_the_embedded_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "new.db"
    status, _, err = run(capsys, monkeypatch, f"sqlite:///{path}", "migrate")
    assert status == 0
    assert err == [f"eventcal: database {path}"]
    assert migrate.current_revision_sqlite(str(path)) == migrate.SCHEMA_REVISION
    status, out, err = run(capsys, monkeypatch, f"sqlite:///{path}", "user", "list")
    assert (status, out, err) == (0, "no users\n", [f"eventcal: database {path}"])


def test_an_embedded_database_that_is_behind_is_migrated_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "old.db"
    migrate.upgrade(f"sqlite:///{path}", "0011")
    status, out, err = run(capsys, monkeypatch, f"sqlite:///{path}", "user", "list")
    assert status == 0
    assert out == "no users\n"
    assert err == [
        f"eventcal: database {path}",
        f"eventcal: migrated the database from revision 0011 to {migrate.SCHEMA_REVISION}",
    ]
    assert migrate.current_revision_sqlite(str(path)) == migrate.SCHEMA_REVISION


def test_an_embedded_database_newer_than_the_code_is_used_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "newer.db"
    migrate.upgrade(f"sqlite:///{path}")
    set_revision(path, "9999")
    status, out, err = run(capsys, monkeypatch, f"sqlite:///{path}", "user", "list")
    assert (status, out, err) == (0, "no users\n", [f"eventcal: database {path}"])
    assert migrate.current_revision_sqlite(str(path)) == "9999"


def test_revisions_compare_as_numbers() -> None:
    assert migrate.is_behind(None)
    assert migrate.is_behind("0001")
    assert migrate.is_behind("not-ours")
    assert not migrate.is_behind(migrate.SCHEMA_REVISION)
    assert not migrate.is_behind("9999")


# --- PostgreSQL not migrated ---------------------------------------------------------------


@needs_unmigrated
def test_commands_refuse_an_unmigrated_postgres_in_one_line(
    unmigrated: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: ``user add`` died with a 40-line traceback (relation "app_user" does not exist)."""
    for args in (("user", "add", "a", "--role", "editor"), ("user", "list"), ("export", "-")):
        status, out, err = run(capsys, monkeypatch, unmigrated, *args)
        assert status == 1
        assert out == ""
        assert err == [f"eventcal: database {describe(unmigrated)}", REFUSAL]


@needs_unmigrated
def test_serve_refuses_an_unmigrated_postgres_with_one_json_line(unmigrated: str) -> None:
    """Before: ``serve`` started and answered 500."""
    env = {**os.environ, "EVENTCAL_DATABASE_URL": unmigrated, "EVENTCAL_POSTS_PER_PAGE": "7"}
    done = subprocess.run(  # noqa: S603 (our own console script)
        [str(EVENTCAL), "serve", "--port", "1"],
        check=False,
        env=env,
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 1
    lines = done.stderr.decode().splitlines()
    assert len(lines) == 1
    entry = orjson.loads(lines[0])
    assert entry["level"] == "ERROR"
    assert entry["message"] == REFUSAL.removeprefix("eventcal: ")
    assert entry["database"] == describe(unmigrated)
    assert entry["settings"] == {"posts_per_page": 7}


@needs_unmigrated
def test_three_concurrent_migrates_do_not_race(unmigrated: str) -> None:
    """`eventcal migrate && eventcal serve` in every container: all three succeed."""
    env = {**os.environ, "EVENTCAL_DATABASE_URL": unmigrated}
    runs = [
        subprocess.Popen(  # noqa: S603 (our own console script)
            [str(EVENTCAL), "migrate"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        for _ in range(3)
    ]
    results = [(p.communicate(timeout=120)[1].decode(), p.returncode) for p in runs]
    assert [status for _, status in results] == [0, 0, 0], results
    check = subprocess.run(  # noqa: S603 (our own console script)
        [str(EVENTCAL), "user", "list"], check=False, env=env, capture_output=True, timeout=60
    )
    assert check.returncode == 0
    assert check.stdout == b"no users\n"

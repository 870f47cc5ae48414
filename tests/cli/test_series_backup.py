"""``eventcal export`` / ``eventcal import`` of recurring series: a series with an override (its
own time, title and German title), a cancelled occurrence (EXDATE) and a split, round trip
SQLite → PostgreSQL → SQLite: the same responses, the same rows, and the imported series still
edits like the original (ids kept, the override kept, new ids after the imported ones)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests import factories
from tests.cli.test_backup import PG_URL, cli, empty_postgres, rows_of, site, sqlite_url
from tests.conftest import NS, Api

FIRST = {"start_date": "2026-12-01 10:00:00", "end_date": "2026-12-01 11:30:00"}


def populate(api: Api) -> dict[str, Any]:
    yoga = api.run(lambda: factories.make_term(api.database, "Yoga"))
    body = {
        "title": "Yoga",
        **FIRST,
        "timezone": "Europe/Berlin",
        "recurrence": ["RRULE:FREQ=WEEKLY;COUNT=8"],
        "categories": [yoga],
    }
    series = api.post(f"{NS}/events", json=body).json()["id"]
    api.patch(f"{NS}/events/{series}?translation_language=de", json={"title": "Joga"})
    ids = [e["id"] for e in api.get(f"{NS}/events").json()["events"]]
    moved = api.patch(
        f"{NS}/events/{ids[1]}",
        json={"start_date": "2026-12-09 18:00:00", "end_date": "2026-12-09 19:00:00"},
    )
    assert moved.status_code == 200, moved.text
    api.patch(f"{NS}/events/{ids[1]}?translation_language=de", json={"title": "Joga abends"})
    assert api.delete(f"{NS}/events/{ids[2]}").status_code == 200
    split = api.patch(f"{NS}/events/{ids[5]}?scope=following", json={"title": "Yoga II"})
    assert split.status_code == 200, split.text
    return {"series": series, "ids": ids, "split": split.json()["series_id"], "yoga": yoga}


def responses(api: Api, made: dict[str, Any]) -> dict[str, Any]:
    series, split = made["series"], made["split"]
    paths = [
        f"{NS}/events?per_page=50",
        f"{NS}/events?per_page=50&translation_language=de",
        f"{NS}/events?collapse_recurring=true",
        f"{NS}/events?categories={made['yoga']}",
        f"{NS}/events/{series}",
        f"{NS}/events/{split}",
        f"{NS}/events/{series}/occurrences?translation_language=de",
        f"{NS}/events/{split}/occurrences",
        f"{NS}/categories/{made['yoga']}",
    ]
    paths += [f"{NS}/events/{i}?context=edit" for i in made["ids"]]
    seen = {}
    for path in paths:
        response = api.get(path, as_="administrator")
        seen[path] = (response.status_code, response.json())
    return seen


def test_series_round_trip_through_export_and_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, password_hash: str
) -> None:
    source = sqlite_url(tmp_path, "source.db")
    with site(source, password_hash) as api:
        admin = api.user("administrator")
        made = populate(api)
        expected = responses(api, made)
    listed = expected[f"{NS}/events?per_page=50"][1]["events"]
    assert len(listed) == 7 and listed[1]["start_date"] == "2026-12-09 18:00:00"
    first = tmp_path / "first.jsonl"
    assert cli(monkeypatch, source, "export", str(first), "--with-secrets") == 0

    def move(url: str, source: Path, name: str) -> Path:
        assert cli(monkeypatch, url, "import", str(source)) == 0
        with site(url, password_hash) as api:
            api.users = {"administrator": admin}
            assert responses(api, made) == expected
        exported = tmp_path / name
        assert cli(monkeypatch, url, "export", str(exported), "--with-secrets") == 0
        assert rows_of(exported) == rows_of(first)
        return exported

    between = move(empty_postgres(), first, "between.jsonl") if PG_URL else first
    target = sqlite_url(tmp_path, "target.db", migrated=False)
    move(target, between, "last.jsonl")
    with site(target, password_hash) as api:
        api.users = {"administrator": admin}
        edited = api.patch(f"{NS}/events/{made['series']}", json={"title": "Hatha"})
        assert edited.status_code == 200, edited.text
        events = api.get(f"{NS}/events?per_page=50").json()["events"]
        assert [e["id"] for e in events] == [e["id"] for e in listed]
        assert [e["title"] for e in events[:4]] == ["Hatha", "Hatha", "Hatha", "Hatha"]
        german = api.get(f"{NS}/events/{made['ids'][1]}?translation_language=de").json()
        assert (german["title"], german["start_date"]) == ("Joga abends", "2026-12-09 18:00:00")
        body = {"title": "New", **FIRST, "recurrence": ["RRULE:FREQ=DAILY;COUNT=3"]}
        fresh = api.post(f"{NS}/events", json=body).json()
        news = api.get(f"{NS}/events/{fresh['id']}/occurrences").json()["events"]
        assert min(e["id"] for e in news) > max(made["ids"] + [made["split"]])

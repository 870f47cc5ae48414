"""The README's tour runs top to bottom as written, on a new database, against a real
``eventcal serve``: every shell block of "A short tour" (Languages included) is run by bash, and
every request answers as the README says. The README links nothing outside the repository."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import orjson
import pytest

from tests.processes.conftest import start_server

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
EVENTCAL = Path(sys.executable).parent / "eventcal"
MARK = "@@answer"


@dataclass
class Answer:
    status: int
    method: str
    url: str
    body: str


def tour_blocks(text: str) -> list[str]:
    """The ``sh`` blocks between "## A short tour" and the next second-level heading."""
    start = text.index("## A short tour")
    end = text.index("\n## ", start + 1)
    return re.findall(r"```sh\n(.*?)```", text[start:end], flags=re.DOTALL)


def answers(output: str) -> list[Answer]:
    found = []
    for chunk in output.split(f"\n{MARK} ")[1:]:
        head, _, rest = chunk.partition("\n")
        status, method, url = head.split(" ", 2)
        found.append(Answer(int(status), method, url, rest))
    return found


@pytest.mark.slow
def test_the_tour_runs_top_to_bottom_on_a_new_database(tmp_path: Path) -> None:
    """Before: the tour trashed event 1 and then used it for the language examples (403)."""
    database = f"sqlite:///{tmp_path / 'tour.db'}"
    server = start_server(database, tmp_path / "server.log", public_url=None)
    try:
        base = server.base
        script = "\n".join(tour_blocks(README.read_text()))
        script = script.replace("http://127.0.0.1:8000", base)
        script = script.replace(".venv/bin/eventcal", str(EVENTCAL))
        # Each answer is printed after a marker line with its status, method and URL.
        wrapper = (
            "set -euo pipefail\n"
            f"curl() {{ printf '\\n{MARK} '; command curl -sS "
            '-w \'%{http_code} %{method} %{url_effective}\\n\' -o "$BODY" "$@"; '
            'cat "$BODY"; }\n'
        )
        env = {**os.environ, "EVENTCAL_DATABASE_URL": database, "BODY": str(tmp_path / "body")}
        done = subprocess.run(  # noqa: S603 (bash running the README's own commands)
            ["/bin/bash", "-c", wrapper + script],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        server.stop()
    assert done.returncode == 0, done.stderr
    assert "user admin (id 1, administrator) added" in done.stdout
    found = answers(done.stdout)
    assert len(found) == script.count("curl -s")
    trashed = found[-1]  # the last request reads the trashed event
    wrong = [a for a in found[:-1] if a.status >= 400 and "/events/999" not in a.url]
    assert wrong == []
    assert (trashed.status, trashed.url) == (403, f"{base}/cal/events/v1/events/1")
    assert "event-no-longer-available" in trashed.body
    by_call = {(a.method, a.url.removeprefix(base)): a for a in found}
    ns = "/cal/events/v1"
    creates = [a for a in found if (a.method, a.url.removeprefix(base)) == ("POST", f"{ns}/events")]
    titles = [orjson.loads(a.body)["title"] for a in creates]
    assert titles == ["Jazz night", "Gala", "Yoga class"]
    classes = orjson.loads(
        by_call[("GET", f"{ns}/events?search=yoga&translation_language=de")].body
    )
    assert [e["title"] for e in classes["events"]] == [
        "Yogakurs",
        "Yogakurs (19 Uhr)",
        *["Yogakurs"] * 3,
    ]
    assert [e["start_date"][11:16] for e in classes["events"]] == ["18:00", "19:00", *["18:00"] * 3]
    assert {e["recurrence_text"] for e in classes["events"]} == {
        "Wöchentlich am Dienstag, 6-mal; 1 Termin ausgenommen"
    }
    german = orjson.loads(by_call[("GET", f"{ns}/events/1?translation_language=de")].body)
    assert (german["title"], german["translations"]) == ("Jazznacht", ["en", "de"])
    spanish = orjson.loads(by_call[("GET", f"{ns}/events/1?translation_language=es")].body)
    assert spanish["title"] == "Jazz night"
    missing = by_call[("GET", f"{ns}/events/999?translation_language=es")]
    assert missing.status == 404
    assert "El evento con el ID 999 no existe." in missing.body


def test_the_readme_links_nothing_outside_the_repository() -> None:
    """Before: it linked ../shared/spec/DEVIATIONS.md."""
    text = README.read_text()
    assert "../" not in text
    for target in re.findall(r"\]\(([^)#]+)", text):
        if not target.startswith("http"):
            assert (ROOT / target).exists(), target

"""Text at the edges (issue 14): the renderers read hostile markup the way they read any text
(their speed is measured in ``bench/text_bench.py``), and the longest description a write may
send is a setting."""

from __future__ import annotations

import pytest

from eventcal.config import Settings, load_settings
from eventcal.errors import ConfigError
from eventcal.resources.text import autop, clean_line, plain_text
from tests.conftest import NS, Api
from tests.http.helpers import NEW_EVENT, assert_error


def test_placeholder_look_alikes_in_the_text_stay_text() -> None:
    """``autop`` sets ``<pre>`` blocks aside under placeholders; text that looks like one is
    not replaced by a block."""
    text = "<pre>a\n\nb</pre>\n\nx <pre-kept-0> y"
    assert autop(text) == "<pre>a\n\nb</pre>\n<p>x <pre-kept-0> y</p>"


def test_preformatted_blocks_keep_their_blank_lines_and_unclosed_ones_are_text() -> None:
    assert autop("x\n\n<PRE>1\n\n2</pre>\n\ny") == "<p>x</p>\n<PRE>1\n\n2</pre>\n<p>y</p>"
    assert autop("<pre>a\n\nb") == "<pre>a\n<p>b</p>"
    assert autop("<pre>a</pre><pre>b\n\nc</pre>") == "<pre>a</pre><pre>b\n\nc</pre>"


def test_a_lone_angle_bracket_is_text_and_a_tag_ends_at_its_bracket() -> None:
    assert plain_text("a < b and <em>c</em>") == "a < b and c"
    assert plain_text("<<<<x>") == "<<<"
    assert clean_line("1 < 2 <br>street") == "1 < 2 street"


def test_hostile_markup_of_64_kb_renders(api: Api) -> None:
    description = "<pre " * 13_000
    created = api.post(f"{NS}/events", json={**NEW_EVENT, "description": description})
    assert created.status_code == 201, created.text[:200]
    assert created.json()["description"] == description.strip()  # starts with a block tag


def test_the_longest_description_is_a_setting(api: Api) -> None:
    limit = api.client.app.state.runtime.site.max_text_chars  # type: ignore[attr-defined]
    assert limit == 65_535
    too_long = api.post(f"{NS}/events", json={**NEW_EVENT, "description": "x" * (limit + 1)})
    body = assert_error(too_long, 400, "rest_invalid_param")
    assert "65535" in body["data"]["params"]["description"]
    venue = api.post(f"{NS}/venues", json={"venue": "V", "description": "x" * (limit + 1)})
    assert "description" in venue.json()["data"]["params"]


def test_max_text_chars_is_read_from_the_environment_and_checked() -> None:
    env = {"EVENTCAL_DATABASE_URL": "sqlite:///x.db", "EVENTCAL_MAX_TEXT_CHARS": "200000"}
    assert load_settings(env).max_text_chars == 200_000
    with pytest.raises(ConfigError, match="EVENTCAL_MAX_TEXT_CHARS"):
        Settings(database_url="sqlite:///x.db", max_text_chars=10).validate()

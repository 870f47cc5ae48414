"""Creating events: ``POST /events`` (spec events §4, DEVIATIONS)."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa

from eventcal.storage.tables import event, term
from tests import factories
from tests.conftest import NS, Api

MINIMAL = {
    "title": "An event",
    "start_date": "2027-04-01 10:00:00",
    "end_date": "2027-04-01 11:00:00",
}


def create(api: Api, as_: str | None = "administrator", **fields: Any) -> Any:
    return api.post(f"{NS}/events", json={**MINIMAL, **fields}, as_=as_)


def column(api: Api, event_id: int, name: str) -> Any:
    async def read() -> Any:
        async with api.database.read() as conn:
            return await conn.scalar(sa.select(event.c[name]).where(event.c.id == event_id))

    return api.run(read)


def term_count(api: Api, term_id: int) -> int:
    async def read() -> int:
        async with api.database.read() as conn:
            return int(await conn.scalar(sa.select(term.c.count).where(term.c.id == term_id)))

    return api.run(read)


def event_rows(api: Api) -> int:
    async def read() -> int:
        async with api.database.read() as conn:
            return int(await conn.scalar(sa.select(sa.func.count()).select_from(event)))

    return api.run(read)


def test_create_with_every_field(api: Api) -> None:
    db = api.database
    concerts = api.run(lambda: factories.make_term(db, "Concerts"))
    festivals = api.run(lambda: factories.make_term(db, "Festivals"))
    outdoor = api.run(lambda: factories.make_term(db, "Outdoor", taxonomy="post_tag"))
    venue = api.run(lambda: factories.make_venue(db, "Philharmonie Berlin", country="Germany"))
    jane = api.run(lambda: factories.make_organizer(db, "Jane Org"))
    gmbh = api.run(lambda: factories.make_organizer(db, "Berlin Events GmbH"))
    image = api.run(
        lambda: factories.make_media(db, "https://cdn.example.test/logo.png", width=80, height=80)
    )
    admin = api.user("administrator")
    response = create(
        api,
        title="Berlin Winter Gala",
        description="<p>A gala evening with orchestra.</p>",
        excerpt="<p>Gala night</p>",
        slug="berlin-winter-gala",
        author=admin,
        status="publish",
        timezone="Europe/Berlin",
        all_day=False,
        start_date="2026-12-31 19:00:00",
        end_date="2026-12-31 23:30:00",
        image=str(image),
        cost="$10",
        website="https://example.test/gala",
        show_map=True,
        show_map_link=True,
        hide_from_listings=False,
        sticky=True,
        featured=True,
        categories=[concerts, festivals],
        tags=["outdoor", "Brand New"],
        venue=venue,
        organizer=[jane, gmbh],
    )
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["title"] == "Berlin Winter Gala"
    assert body["slug"] == "berlin-winter-gala"
    assert body["url"] == "http://127.0.0.1/event/berlin-winter-gala/"
    assert body["description"] == "<p>A gala evening with orchestra.</p>"
    assert (body["start_date"], body["end_date"]) == ("2026-12-31 19:00:00", "2026-12-31 23:30:00")
    assert (body["utc_start_date"], body["utc_end_date"]) == (
        "2026-12-31 18:00:00",
        "2026-12-31 22:30:00",
    )
    assert (body["timezone"], body["timezone_abbr"]) == ("Europe/Berlin", "CET")
    assert body["image"] == {
        "url": "https://cdn.example.test/logo.png",
        "id": image,
        "extension": "png",
        "width": 80,
        "height": 80,
    }
    assert body["cost"] == "$10" and body["cost_details"]["currency_position"] == "prefix"
    assert body["website"] == "https://example.test/gala"
    assert (body["show_map"], body["show_map_link"], body["sticky"], body["featured"]) == (
        True,
        True,
        True,
        True,
    )
    assert [c["id"] for c in body["categories"]] == [concerts, festivals]
    assert [t["name"] for t in body["tags"]] == ["Brand New", "Outdoor"]
    assert body["tags"][1]["id"] == outdoor
    assert body["venue"]["id"] == venue
    assert [o["id"] for o in body["organizer"]] == [jane, gmbh]
    assert "json_ld" not in body
    assert response.headers["allow"] == "GET, POST"
    assert response.headers["cache-control"].startswith("no-cache")
    assert term_count(api, concerts) == 1 and term_count(api, outdoor) == 1
    read_back = api.get(f"{NS}/events/{body['id']}").json()
    del read_back["json_ld"], read_back["venue"]["json_ld"]
    for organizer in read_back["organizer"]:
        del organizer["json_ld"]
    assert read_back == body


def test_create_minimal_defaults(api: Api) -> None:
    body = create(api).json()
    assert body["status"] == "publish"
    assert body["slug"] == "an-event"
    assert body["website"] == body["url"] == "http://127.0.0.1/event/an-event/"
    assert body["show_map"] is False and body["show_map_link"] is False
    assert (body["timezone"], body["all_day"]) == ("UTC", False)
    assert body["venue"] == [] and body["organizer"] == [] and body["categories"] == []
    assert body["cost"] == "" and body["cost_details"]["values"] == []
    assert body["date"] == "2026-11-22 04:46:00"
    assert body["author"] == str(api.users["administrator"])


@pytest.mark.parametrize("status", ["draft", "pending"])
def test_drafts_get_no_slug_and_a_plain_url(api: Api, status: str) -> None:
    body = create(api, status=status).json()
    assert body["status"] == status
    assert body["slug"] == ""
    assert (
        body["url"] == body["website"] == f"http://127.0.0.1/?post_type=tribe_events&p={body['id']}"
    )
    assert body["date_utc"] == "0000-00-00 00:00:00"


def test_private_events_get_a_slug(api: Api) -> None:
    body = create(api, title="Private Event", status="private").json()
    assert (body["status"], body["slug"]) == ("private", "private-event")


def test_duplicate_slugs_get_a_number(api: Api) -> None:
    first = create(api, title="Gala", slug="gala").json()
    second = create(api, title="Gala", slug="gala").json()
    third = create(api, title="Gala").json()
    assert [first["slug"], second["slug"], third["slug"]] == ["gala", "gala-2", "gala-3"]


def test_form_encoded_body_with_php_arrays(api: Api) -> None:
    concerts = api.run(lambda: factories.make_term(api.database, "Concerts"))
    festivals = api.run(lambda: factories.make_term(api.database, "Festivals"))
    response = api.post(
        f"{NS}/events",
        content=(
            "title=Form+Encoded+Event&start_date=2027-03-06+10%3A00%3A00"
            f"&end_date=2027-03-06+11%3A00%3A00&categories%5B%5D={concerts}"
            "&categories%5B%5D=festivals&featured=true&cost=10"
        ),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert response.status_code == 201, response.text
    body = response.json()
    assert [c["id"] for c in body["categories"]] == [concerts, festivals]
    assert body["featured"] is True
    assert body["cost"] == "$10" and body["cost_details"]["currency_symbol"] == ""


def test_multipart_form_body(api: Api) -> None:
    fields = {name: (None, value) for name, value in {**MINIMAL, "title": "Multipart"}.items()}
    response = api.post(f"{NS}/events", files=fields)  # form fields only (a file is refused)
    assert response.status_code == 201, response.text
    assert response.json()["title"] == "Multipart"


def test_publication_dates(api: Api) -> None:
    backdated = create(api, date="2026-10-01 08:00:00", date_utc="2026-10-01 08:00:00").json()
    assert (backdated["date"], backdated["date_utc"]) == (
        "2026-10-01 08:00:00",
        "2026-10-01 08:00:00",
    )
    scheduled = create(api, title="Later", date="2026-12-24 08:00:00").json()
    assert scheduled["status"] == "future"
    assert api.get(f"{NS}/events/{scheduled['id']}").status_code == 403


def test_end_before_start_is_refused(api: Api) -> None:
    response = create(api, start_date="2027-03-08 10:00:00", end_date="2027-03-07 11:00:00")
    assert response.status_code == 400
    assert response.json()["data"]["params"] == {
        "end_date": "The end date must not be before the start date."
    }
    assert event_rows(api) == 0


def test_time_zones_and_offsets(api: Api) -> None:
    offset = create(
        api, timezone="UTC+2", start_date="2027-03-09 10:00:00", end_date="2027-03-09 11:00:00"
    ).json()
    assert (offset["timezone"], offset["timezone_abbr"]) == ("UTC+2", "UTC+2")
    assert offset["utc_start_date"] == "2027-03-09 08:00:00"
    summer = create(
        api,
        title="S",
        timezone="america/new_york",
        start_date="2027-07-01 18:00",
        end_date="2027-07-01 20:00",
    ).json()
    assert (summer["timezone"], summer["timezone_abbr"]) == ("America/New_York", "EDT")
    assert summer["utc_start_date"] == "2027-07-01 22:00:00"


def test_all_day_events_snap_to_whole_days(api: Api) -> None:
    body = create(
        api,
        all_day=True,
        timezone="America/New_York",
        start_date="2027-01-15",
        end_date="2027-01-15",
    ).json()
    assert (body["start_date"], body["end_date"]) == ("2027-01-15 00:00:00", "2027-01-15 23:59:59")
    assert (body["utc_start_date"], body["utc_end_date"]) == (
        "2027-01-15 05:00:00",
        "2027-01-16 04:59:59",
    )
    multi = create(
        api, title="M", all_day=True, start_date="2027-01-20 09:00", end_date="2027-01-22 11:00"
    ).json()
    assert (multi["start_date"], multi["end_date"]) == (
        "2027-01-20 00:00:00",
        "2027-01-22 23:59:59",
    )


def test_natural_language_dates_use_the_event_zone(api: Api) -> None:
    body = create(
        api, timezone="Asia/Hong_Kong", start_date="tomorrow 9am", end_date="tomorrow 11am"
    ).json()
    assert body["start_date"] == "2026-11-23 09:00:00"
    assert body["utc_start_date"] == "2026-11-23 01:00:00"


@pytest.mark.parametrize(
    ("cost", "expected", "symbol", "position", "values"),
    [
        ("$10", "$10", "$", "prefix", ["10"]),
        ("10 - 20", "$10 \u2013 $20", "", "", ["10", "20"]),
        ("15 \u20ac", "15\u20ac", "\u20ac", "postfix", ["15"]),
        (25, "$25", "", "", ["25"]),
        ("Free", "Free", "", "", ["free"]),
        (["0$", "20$", "30$"], "Free \u2013 30$", "$", "postfix", ["0", "20", "30"]),
        ("25,55", "$25.55", "", "", ["25.55"]),
    ],
)
def test_cost_is_stored_as_given_and_shown_the_original_way(
    api: Api, cost: Any, expected: str, symbol: str, position: str, values: list[str]
) -> None:
    body = create(api, cost=cost).json()
    assert body["cost"] == expected
    assert body["cost_details"] == {
        "currency_symbol": symbol,
        "currency_code": "",
        "currency_position": position,
        "values": values,
    }


def test_missing_required_parameters(api: Api) -> None:
    no_title = api.post(f"{NS}/events", json={"start_date": "2027-04-01", "end_date": "2027-04-01"})
    assert no_title.status_code == 400
    assert no_title.json() == {
        "code": "rest_missing_callback_param",
        "message": "Missing parameter(s): title",
        "data": {"status": 400, "params": ["title"]},
    }
    no_dates = api.post(f"{NS}/events", json={"title": "No dates"})
    assert no_dates.json()["message"] == "Missing parameter(s): start_date, end_date"
    null_title = api.post(f"{NS}/events", json={**MINIMAL, "title": None})
    assert null_title.json()["data"]["params"] == ["title"]
    plain = api.post(
        f"{NS}/events", content='{"title": "x"}', headers={"Content-Type": "text/plain"}
    )
    # JSON labelled as text is named for what it is (issue 14), not "missing parameters"
    assert plain.json()["code"] == "rest_invalid_content_type"
    anonymous_missing = api.post(f"{NS}/events", json={"title": "x"}, as_=None)
    assert anonymous_missing.status_code == 400


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("title", ""),
        ("title", 12),
        ("start_date", "notadate"),
        ("end_date", ""),
        ("timezone", "Mars/Olympus"),
        ("status", "bogus"),
        ("status", "inherit"),
        ("author", 99999),
        ("author", ""),
        ("date", "foo"),
        ("date_utc", "foo"),
        ("website", "not a url"),
        ("website", "javascript:alert(1)"),
        ("website", "example.com"),
        ("featured", "yes"),
        ("all_day", ""),
        ("sticky", 2),
        ("venue", 99999),
        ("venue", {"city": "Nowhere"}),
        ("venue", "4,210"),
        ("organizer", [99999]),
        ("organizer", "abc"),
        ("image", "foo bar"),
        ("image", 99999),
        ("image", "ftp://example.test/a.png"),
        ("cost", {"a": 1}),
        ("categories", {"a": 1}),
        ("slug", ""),
        ("description", ["x"]),
        ("title", "x" * 1001),
        ("translation_language", "fr"),
    ],
)
def test_invalid_fields_are_400_and_create_nothing(api: Api, field: str, value: Any) -> None:
    response = create(api, **{field: value})
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["code"] == "rest_invalid_param"
    assert list(body["data"]["params"]) == [field]
    assert event_rows(api) == 0


def test_invalid_json_body(api: Api) -> None:
    response = api.post(
        f"{NS}/events",
        content='{"title": "Broken", "start_date": ',
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == 400
    assert response.json() == {
        "code": "rest_invalid_json",
        "message": "Invalid JSON body passed.",
        "data": {"status": 400, "json_error_code": 4, "json_error_message": "Syntax error"},
    }


def test_permissions_on_create(api: Api) -> None:
    anonymous = create(api, as_=None)
    assert anonymous.status_code == 401
    assert anonymous.json() == {
        "code": "rest_forbidden",
        "message": "Sorry, you are not allowed to do that.",
        "data": {"status": 401},
    }
    assert anonymous.headers["allow"] == "GET"
    subscriber = create(api, as_="subscriber")
    assert subscriber.status_code == 403
    assert subscriber.json()["data"]["status"] == 403
    assert event_rows(api) == 0
    contributor = create(api, as_="contributor", status="publish").json()
    assert contributor["status"] == "pending"
    assert create(api, as_="contributor", title="Plain").json()["status"] == "draft"
    assert create(api, as_="author", title="By author").json()["status"] == "publish"


def test_setting_another_author_needs_edit_others(api: Api) -> None:
    editor = api.user("editor")
    forbidden = create(api, as_="author", author=editor)
    assert forbidden.status_code == 403
    assert forbidden.json()["code"] == "rest_cannot_edit_others"
    assert create(api, as_="administrator", author=editor).json()["author"] == str(editor)


def test_wrong_credentials_are_401_before_anything_else(api: Api) -> None:
    api.user("administrator", "admin")
    wrong = api.post(
        f"{NS}/events", json=MINIMAL, headers={"Authorization": "Basic YWRtaW46d3Jvbmc="}, as_=None
    )
    assert wrong.status_code == 401
    assert wrong.json()["code"] == "incorrect_password"
    assert "allow" not in wrong.headers


def test_images_by_id_or_url(api: Api) -> None:
    db = api.database
    image = api.run(lambda: factories.make_media(db, "https://cdn.example.test/poster.jpg"))
    document = api.run(
        lambda: factories.make_media(
            db, "https://cdn.example.test/file.raw", mime_type="application/octet-stream"
        )
    )
    assert create(api, image=image).json()["image"]["id"] == image
    by_url = create(api, title="U", image="https://cdn.example.test/poster.jpg").json()
    assert by_url["image"]["id"] == image
    external = create(api, title="E", image="https://elsewhere.test/a.webp?x=1").json()
    assert external["image"] == {"url": "https://elsewhere.test/a.webp?x=1", "extension": "webp"}
    assert create(api, title="D", image=document).status_code == 400
    contributor = create(api, as_="contributor", title="C", image="https://elsewhere.test/b.png")
    assert contributor.status_code == 400
    assert create(api, as_="contributor", title="C2", image=image).status_code == 201


def test_terms_by_id_slug_or_name(api: Api) -> None:
    db = api.database
    concerts = api.run(lambda: factories.make_term(db, "Concerts"))
    live = api.run(lambda: factories.make_term(db, "live", taxonomy="post_tag"))
    body = create(api, categories=["concerts"], tags=["LIVE", "Brand New Tag"]).json()
    assert [c["id"] for c in body["categories"]] == [concerts]
    assert [t["name"] for t in body["tags"]] == ["Brand New Tag", "live"]
    assert body["tags"][1]["id"] == live
    csv = create(api, title="CSV", categories=f"{concerts}, Brand New Category").json()
    assert [c["name"] for c in csv["categories"]] == ["Brand New Category", "Concerts"]
    again = create(api, title="Again", categories=["brand-new-category"]).json()
    assert again["categories"][0]["id"] == csv["categories"][0]["id"]
    assert again["categories"][0]["count"] == 2


def test_only_term_managers_create_terms_by_name(api: Api) -> None:
    refused = create(api, as_="contributor", tags=["Newly Made"])
    assert refused.status_code == 400
    assert list(refused.json()["data"]["params"]) == ["tags"]
    assert event_rows(api) == 0
    assert create(api, as_="author", categories=["Author Category"]).status_code == 201
    assert create(api, as_="author", title="T", tags=["Author Tag"]).status_code == 400


def test_term_counts_follow_published_events_only(api: Api) -> None:
    concerts = api.run(lambda: factories.make_term(api.database, "Concerts"))
    create(api, categories=[concerts])
    create(api, title="Draft", status="draft", categories=[concerts])
    assert term_count(api, concerts) == 1


def test_venue_and_organizer_links_by_id(api: Api) -> None:
    db = api.database
    hall = api.run(lambda: factories.make_venue(db, "Hall"))
    loft = api.run(lambda: factories.make_venue(db, "Loft", status="draft"))
    jane = api.run(lambda: factories.make_organizer(db, "Jane"))
    joe = api.run(lambda: factories.make_organizer(db, "Joe"))
    assert create(api, venue=str(hall)).json()["venue"]["id"] == hall
    assert create(api, title="B", venue={"id": loft}).json()["venue"]["status"] == "draft"
    assert create(api, title="C", venue=[hall]).json()["venue"]["id"] == hall
    two = create(api, title="D", venue=[hall, loft])
    assert two.status_code == 400
    assert two.json()["data"]["params"] == {"venue": "An event can have only one venue."}
    ordered = create(api, title="E", organizer=[joe, {"id": jane}, joe]).json()
    assert [o["id"] for o in ordered["organizer"]] == [joe, jane]
    csv = create(api, title="F", organizer=f"{jane},{joe}").json()
    assert [o["id"] for o in csv["organizer"]] == [jane, joe]
    single = create(api, title="G", organizer=str(joe)).json()
    assert [o["id"] for o in single["organizer"]] == [joe]
    assert create(api, title="H", venue=0, organizer=[]).json()["venue"] == []


def test_translation_language_is_accepted_on_writes(api: Api) -> None:
    assert create(api, translation_language="de").status_code == 201


def test_post_password_protects_the_event_and_is_never_returned(api: Api) -> None:
    body = create(api, post_password="s3cret", description="Hidden").json()
    assert "post_password" not in body and "s3cret" not in str(body)
    assert api.get(f"{NS}/events/{body['id']}").json()["code"] == "event-password-protected"
    assert column(api, body["id"], "post_password") == "s3cret"

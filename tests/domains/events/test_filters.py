"""``GET /events`` filters: search, terms, venues and organizers, flags, statuses
and visibility, ``include``, ``post_parent``, ``geoloc`` (spec events §2)."""

from __future__ import annotations

from functools import partial

from tests import factories
from tests.conftest import NS, Api
from tests.domains.events.listing_helpers import listed, query_of


def test_search_needs_every_word_in_title_excerpt_or_description(api: Api) -> None:
    db = api.database
    foo = api.run(lambda: factories.make_event(db, "foo night"))
    foobar = api.run(lambda: factories.make_event(db, "Foo Bar"))
    bar = api.run(lambda: factories.make_event(db, "bar", description="<p>quiet 100% evening</p>"))
    excerpt = api.run(lambda: factories.make_event(db, "other", excerpt="all about foo"))
    assert sorted(listed(api.get(f"{NS}/events?search=foo"))) == sorted([foo, foobar, excerpt])
    assert listed(api.get(f"{NS}/events?search=foo bar")) == [foobar]
    assert listed(api.get(f'{NS}/events?search="foo bar"')) == [foobar]
    assert sorted(listed(api.get(f"{NS}/events?search=foo -bar"))) == sorted([foo, excerpt])
    assert listed(api.get(f"{NS}/events?search=100%25")) == [bar]
    assert listed(api.get(f"{NS}/events?search=_")) == []
    assert listed(api.get(f"{NS}/events?search=%27 OR 1=1 --")) == []
    body = api.get(f"{NS}/events?search=foo bar").json()
    assert query_of(body["rest_url"])["search"] == "foo bar"


def test_category_filter_by_id_or_slug_includes_children_and_ors_values(api: Api) -> None:
    db = api.database
    festivals = api.run(lambda: factories.make_term(db, "Festivals"))
    jazz = api.run(lambda: factories.make_term(db, "Jazz Nights", parent_id=festivals))
    concerts = api.run(lambda: factories.make_term(db, "Concerts"))
    in_parent = api.run(lambda: factories.make_event(db, "P", term_ids=(festivals,)))
    in_child = api.run(
        lambda: factories.make_event(db, "C", start="2026-12-16 10:00:00", term_ids=(jazz,))
    )
    other = api.run(
        lambda: factories.make_event(db, "O", start="2026-12-17 10:00:00", term_ids=(concerts,))
    )
    for value in (str(festivals), "festivals", f"festivals,{jazz}"):
        assert listed(api.get(f"{NS}/events?categories={value}")) == [in_parent, in_child], value
    array = api.get(f"{NS}/events?categories[]=festivals&categories[]={concerts}")
    assert listed(array) == [in_parent, in_child, other]
    body = array.json()
    assert query_of(body["rest_url"])["categories"] == f"festivals,{concerts}"


def test_tag_filter_prefers_slugs_over_ids_and_ands_with_categories(api: Api) -> None:
    db = api.database
    live = api.run(lambda: factories.make_term(db, "live", taxonomy="post_tag"))
    named_like_id = api.run(lambda: factories.make_term(db, str(live), taxonomy="post_tag"))
    concerts = api.run(lambda: factories.make_term(db, "Concerts"))
    tagged_live = api.run(lambda: factories.make_event(db, "A", term_ids=(live, concerts)))
    tagged_number = api.run(
        lambda: factories.make_event(
            db, "B", start="2026-12-16 10:00:00", term_ids=(named_like_id,)
        )
    )
    live_only = api.run(
        lambda: factories.make_event(db, "C", start="2026-12-17 10:00:00", term_ids=(live,))
    )
    assert listed(api.get(f"{NS}/events?tags={live}")) == [tagged_number]
    assert listed(api.get(f"{NS}/events?tags=live")) == [tagged_live, live_only]
    assert listed(api.get(f"{NS}/events?categories=concerts&tags=live")) == [tagged_live]


def test_venue_and_organizer_filters_accept_several_ids(api: Api) -> None:
    db = api.database
    hall = api.run(lambda: factories.make_venue(db, "Hall"))
    loft = api.run(lambda: factories.make_venue(db, "Loft"))
    jane = api.run(lambda: factories.make_organizer(db, "Jane"))
    joe = api.run(lambda: factories.make_organizer(db, "Joe"))
    at_hall = api.run(
        lambda: factories.make_event(db, "H", venue_id=hall, organizer_ids=(jane, joe))
    )
    at_loft = api.run(
        lambda: factories.make_event(
            db, "L", start="2026-12-16 10:00:00", venue_id=loft, organizer_ids=(joe,)
        )
    )
    api.run(lambda: factories.make_event(db, "N", start="2026-12-17 10:00:00"))
    assert listed(api.get(f"{NS}/events?venue={hall}")) == [at_hall]
    assert listed(api.get(f"{NS}/events?venue={hall},{loft}")) == [at_hall, at_loft]
    assert listed(api.get(f"{NS}/events?organizer={jane}")) == [at_hall]
    assert listed(api.get(f"{NS}/events?organizer[]={jane}&organizer[]={joe}")) == [
        at_hall,
        at_loft,
    ]
    body = api.get(f"{NS}/events?venue={hall},{loft}").json()
    assert query_of(body["rest_url"])["venue"] == f"{hall},{loft}"


def test_featured_filter(api: Api) -> None:
    db = api.database
    featured = api.run(lambda: factories.make_event(db, "F", featured=True))
    plain = api.run(lambda: factories.make_event(db, "P", start="2026-12-16 10:00:00"))
    assert listed(api.get(f"{NS}/events?featured=true")) == [featured]
    assert listed(api.get(f"{NS}/events?featured=0")) == [plain]
    assert query_of(api.get(f"{NS}/events?featured=1").json()["rest_url"])["featured"] == "1"


def test_status_visibility_per_role(api: Api) -> None:
    db = api.database
    author = api.user("author")
    other = api.user("contributor")
    published = api.run(lambda: factories.make_event(db, "Pub"))
    own_draft = api.run(
        lambda: factories.make_event(
            db, "Mine", status="draft", author_id=author, start="2026-12-16 10:00:00"
        )
    )
    other_draft = api.run(
        lambda: factories.make_event(
            db, "Theirs", status="draft", author_id=other, start="2026-12-17 10:00:00"
        )
    )
    private = api.run(
        lambda: factories.make_event(
            db, "Priv", status="private", author_id=other, start="2026-12-18 10:00:00"
        )
    )
    trashed = api.run(
        lambda: factories.make_event(db, "Bin", status="trash", start="2026-12-19 10:00:00")
    )
    assert listed(api.get(f"{NS}/events")) == [published]
    assert listed(api.get(f"{NS}/events", as_="subscriber")) == [published]
    admin = api.get(f"{NS}/events", as_="administrator")
    assert listed(admin) == [published, own_draft, other_draft, private]
    assert query_of(admin.json()["rest_url"])["status"] == "any"
    assert listed(api.get(f"{NS}/events", as_="author")) == [published, own_draft]
    assert listed(api.get(f"{NS}/events?status=draft", as_="administrator")) == [
        own_draft,
        other_draft,
    ]
    assert listed(api.get(f"{NS}/events?status=draft", as_="author")) == [own_draft]
    assert listed(api.get(f"{NS}/events?status=trash", as_="editor")) == [trashed]
    csv = api.get(f"{NS}/events?status=draft, private", as_="editor")
    assert listed(csv) == [own_draft, other_draft, private]
    assert query_of(csv.json()["rest_url"])["status"] == "draft,private"
    assert api.get(f"{NS}/events?status=publish").status_code == 200
    assert api.get(f"{NS}/events?status=publish,draft").status_code == 400
    assert api.get(f"{NS}/events?status=foo,publish", as_="editor").status_code == 400


def test_include_ignores_dates_but_not_visibility(api: Api) -> None:
    db = api.database
    near = api.run(lambda: factories.make_event(db, "Near"))
    far = api.run(lambda: factories.make_event(db, "Far", start="2031-01-01 10:00:00"))
    draft = api.run(lambda: factories.make_event(db, "Draft", status="draft"))
    hidden = api.run(lambda: factories.make_event(db, "Hidden", hide_from_listings=True))
    response = api.get(
        f"{NS}/events?include={far},{near}&start_date=2030-01-01&end_date=2030-01-02"
    )
    assert listed(response) == [near, far]
    assert "start_date" not in query_of(response.json()["rest_url"])
    assert query_of(response.json()["rest_url"])["include"] == f"{far},{near}"
    assert listed(api.get(f"{NS}/events?include[]={draft}&include[]={hidden}")) == []


def test_hidden_events_are_never_listed(api: Api) -> None:
    hidden = api.run(lambda: factories.make_event(api.database, "Hidden", hide_from_listings=True))
    assert listed(api.get(f"{NS}/events", as_="administrator")) == []
    assert api.get(f"{NS}/events/{hidden}").status_code == 200


def test_password_protected_events_are_listed_blanked(api: Api) -> None:
    venue = api.run(lambda: factories.make_venue(api.database, "Hall"))
    event_id = api.run(
        lambda: factories.make_event(
            api.database,
            "Secret",
            post_password="s3cret",
            description="hidden words",
            cost=["$5"],
            featured=True,
            venue_id=venue,
        )
    )
    item = api.get(f"{NS}/events").json()["events"][0]
    assert item["id"] == event_id and item["title"] == "Secret"
    assert (item["description"], item["excerpt"], item["cost"], item["website"]) == ("", "", "", "")
    assert item["image"] is False and item["all_day"] is None and item["featured"] is None
    assert item["venue"] == [] and item["organizer"] == [] and item["categories"] == []
    assert item["cost_details"] == {
        "currency_symbol": "",
        "currency_position": "",
        "currency_code": "",
        "values": [],
    }
    unlocked = api.get(f"{NS}/events?context=edit", as_="administrator").json()["events"][0]
    assert unlocked["description"] == "<p>hidden words</p>"
    assert api.get(f"{NS}/events?password=s3cret").json()["events"][0]["description"] == ""


def test_post_parent_filter(api: Api) -> None:
    parent = api.run(lambda: factories.make_event(api.database, "Series"))
    child = api.run(
        lambda: factories.make_event(
            api.database, "Child", parent_id=parent, start="2026-12-16 10:00:00"
        )
    )
    assert listed(api.get(f"{NS}/events?post_parent={parent}")) == [child]
    assert listed(api.get(f"{NS}/events?post_parent={child}")) == []


def test_geoloc_filters_on_venue_coordinates(api: Api) -> None:
    db = api.database
    berlin = api.run(lambda: factories.make_venue(db, "Berlin", latitude=52.51, longitude=13.39))
    potsdam = api.run(lambda: factories.make_venue(db, "Spandau", latitude=52.535, longitude=13.2))
    paris = api.run(lambda: factories.make_venue(db, "Paris", latitude=48.85, longitude=2.35))
    nowhere = api.run(lambda: factories.make_venue(db, "Nowhere"))
    events = [
        api.run(partial(factories.make_event, db, f"E{i}", venue_id=v, start=f"2026-12-1{i} 10:00"))
        for i, v in enumerate((berlin, potsdam, paris, nowhere))
    ]
    no_venue = api.run(lambda: factories.make_event(db, "No venue", start="2026-12-19 10:00:00"))
    assert listed(api.get(f"{NS}/events?geoloc=1")) == events[:3]
    # Without coordinates: a venue that has none, and no venue at all.
    assert listed(api.get(f"{NS}/events?geoloc=false")) == [events[3], no_venue]
    near_berlin = api.get(f"{NS}/events?geoloc_lat=52.5&geoloc_lng=13.4")
    assert listed(near_berlin) == events[:2]
    assert query_of(near_berlin.json()["rest_url"])["geoloc_lat"] == "52.5"
    assert listed(api.get(f"{NS}/events?geoloc_lat=48.8566&geoloc_lng=2.3522")) == [events[2]]


def test_ticketed_filters_on_the_stored_flag(api: Api) -> None:
    ticketed = api.run(lambda: factories.make_event(api.database, "T", ticketed=True))
    free = api.run(lambda: factories.make_event(api.database, "F", start="2026-12-16 10:00:00"))
    assert listed(api.get(f"{NS}/events?ticketed=true")) == [ticketed]
    assert listed(api.get(f"{NS}/events?ticketed=false")) == [free]

"""Replaying the recorded exchanges of the original against eventcal.

The reference instance's starting state is rebuilt with the same ids; then every exchange runs in
recording order. Before an exchange that creates objects, the id sequences are moved so that the
new objects get the ids the original gave them (the original skips ids for revisions and media),
so recorded requests and bodies can be used as they are.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import sqlalchemy as sa

from eventcal.storage.db import Database
from eventcal.storage.tables import (
    app_password,
    app_user,
    event,
    event_organizer,
    event_term,
    media,
    organizer,
    post,
    term,
    venue,
)
from tests import factories

REFERENCE = Path(__file__).parent / "reference"
PUBLIC_URL = "http://127.0.0.1:8080"
ADMIN_PASSWORD = "admin application password"
SUBSCRIBER_PASSWORD = "subscriber application password"
AUTHORIZATION = {
    "Basic <admin>": ("admin", ADMIN_PASSWORD),
    "Basic <subscriber>": ("subscriber", SUBSCRIBER_PASSWORD),
    "Basic <wrong>": ("admin", "not the password"),
    "Basic <unknown-user>": ("nobody", "whatever"),
}
SEEDED = datetime(2026, 11, 22, 4, 10, 27, tzinfo=UTC)


@dataclass
class Exchange:
    name: str
    seq: int
    data: dict[str, Any]

    @property
    def request(self) -> dict[str, Any]:
        return self.data["request"]  # type: ignore[no-any-return]

    @property
    def response(self) -> dict[str, Any]:
        return self.data["response"]  # type: ignore[no-any-return]


def load_exchanges() -> list[Exchange]:
    exchanges = []
    for path in REFERENCE.glob("*.json"):
        data = json.loads(path.read_text())
        exchanges.append(Exchange(data["name"], data["seq"], data))
    exchanges.sort(key=lambda e: e.seq)
    by_name = {e.name: e for e in exchanges}
    for exchange in exchanges:
        same_as = exchange.response.get("body_same_as")
        if same_as:
            exchange.response["body"] = by_name[same_as.removesuffix(".json")].response["body"]
    return exchanges


# --- the starting state ----------------------------------------------------------------------


def _recorded_objects(exchanges: list[Exchange]) -> dict[int, dict[str, Any]]:
    """The first recorded view of every event (for the seeded events' publication dates)."""
    seen: dict[int, dict[str, Any]] = {}

    def visit(node: Any) -> None:
        if isinstance(node, dict):
            if "start_date" in node and isinstance(node.get("id"), int):
                seen.setdefault(node["id"], node)
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    for exchange in exchanges:
        visit(exchange.response.get("body"))
    return seen


def _local(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


async def seed(db: Database, exchanges: list[Exchange], password_hashes: dict[str, str]) -> None:
    """The reference instance's database dump, as the recordings' README describes it."""
    recorded = _recorded_objects(exchanges)
    async with db.transaction() as conn:
        for user_id, login, role in (
            (1, "admin", "administrator"),
            (2, "subscriber", "subscriber"),
        ):
            await conn.execute(
                sa.insert(app_user).values(
                    id=user_id, login=login, role=role, display_name=login, created_at=SEEDED
                )
            )
            await conn.execute(
                sa.insert(app_password).values(
                    user_id=user_id,
                    label="default",
                    password_hash=password_hashes[login],
                    created_at=SEEDED,
                )
            )
        if conn.dialect_name == "postgresql":
            await conn.execute(sa.text("SELECT setval('app_user_id_seq', 2)"))
        await conn.execute(sa.insert(post).values(id=209, type="revision"))
    await factories.make_venue(
        db,
        "Main Hall",
        id=4,
        author_id=1,
        address="1 Main St",
        city="Springfield",
        country="United States",
        state="IL",
        zip="62701",
        phone="555-0100",
        website="http://example.test/hall",
        stateprovince="IL",
    )
    await factories.make_organizer(
        db,
        "Jane Org",
        id=5,
        author_id=1,
        phone="555-0200",
        website="http://example.test/jane",
        email="jane@example.test",
    )
    await factories.make_term(db, "Concerts", id=2, description="Live music")
    await factories.make_term(db, "live", id=3, taxonomy="post_tag")
    await factories.make_term(db, "jazz", id=4, taxonomy="post_tag")

    def published(event_id: int, default: str) -> dict[str, Any]:
        shown = recorded.get(event_id, {})
        at = _local(shown.get("date", default))
        return {"published_at": at, "modified_at": at}

    await factories.make_event(
        db,
        "Reference Concert",
        id=6,
        start="2026-12-15 19:00:00",
        end="2026-12-15 22:00:00",
        author_id=1,
        description="<p>An evening of music.</p>",
        excerpt="<p>Music night</p>",
        featured=True,
        cost=["$10"],
        currency_symbol="$",
        currency_position="prefix",
        website="http://example.test/concert",
        venue_id=4,
        organizer_ids=(5,),
        term_ids=(2, 3, 4),
        **published(6, "2026-11-22 04:10:30"),
    )
    await factories.make_event(
        db,
        "Minimal Event",
        id=7,
        start="2026-12-20 10:00:00",
        end="2026-12-20 11:00:00",
        author_id=1,
        **published(7, "2026-11-22 04:10:37"),
    )
    first = datetime(2026, 12, 1, 9, 0)
    for i in range(200):
        start = first + timedelta(days=i // 4, hours=2 * (i % 4))
        await factories.make_event(
            db,
            f"Seed Event {i:03d}",
            id=8 + i,
            start=start,
            end=start + timedelta(minutes=90),
            author_id=1,
            description=f"<p>Seeded event number {i}.</p>",
            cost=[str(i % 50)] if i % 50 else None,
            venue_id=4,
            organizer_ids=(5,),
            term_ids=(2,),
            **published(8 + i, "2026-11-22 04:10:44"),
        )
    await factories.make_event(
        db,
        "Throwaway updated",
        id=208,
        start="2026-12-21 10:00:00",
        end="2026-12-21 11:00:00",
        author_id=1,
        status="trash",
        status_before_trash="publish",
        slug="throwaway__trashed",
        website="",
    )
    await factories.reset_post_sequence(db, 210)
    await reset_term_sequence(db, 5)


async def reset_term_sequence(db: Database, next_id: int) -> None:
    await factories.reset_sequence(db, "term", next_id)


async def max_ids(db: Database) -> tuple[int, int]:
    async with db.read() as conn:
        post_max = await conn.scalar(sa.select(sa.func.max(post.c.id)))
        term_max = await conn.scalar(sa.select(sa.func.max(term.c.id)))
    return int(post_max or 0), int(term_max or 0)


def created_ids(exchange: Exchange) -> tuple[set[int], set[int]]:
    """Post ids and term ids appearing in a successful write's recorded response."""
    posts: set[int] = set()
    terms: set[int] = set()
    body = exchange.response.get("body")
    if exchange.request["method"] == "GET" or not isinstance(body, dict):
        return posts, terms
    if exchange.name.startswith(("6", "7")):
        if isinstance(body.get("id"), int):
            terms.add(body["id"])
        return posts, terms
    if isinstance(body.get("id"), int):
        posts.add(body["id"])
    venue = body.get("venue")
    if isinstance(venue, dict) and isinstance(venue.get("id"), int):
        posts.add(venue["id"])
    for linked in body.get("organizer") or []:
        if isinstance(linked, dict):
            posts.add(linked["id"])
    for key in ("categories", "tags"):
        for item in body.get(key) or []:
            if isinstance(item, dict):
                terms.add(item["id"])
    return posts, terms


async def uploaded_image(db: Database) -> None:
    """The original downloaded exchange 200's image into its media library as item 223; we
    never fetch URLs (DEVIATIONS), so the item the later exchanges use is registered here."""
    await factories.make_media(
        db,
        f"{PUBLIC_URL}/wp-content/uploads/2026/11/w-logo-blue-jzyKxy.png",
        id=223,
        width=80,
        height=80,
        filesize=3113,
    )


async def align_ids(db: Database, exchange: Exchange) -> None:
    """Make the next ids those the original gave the objects this exchange creates."""
    if exchange.name == "200-event-create-full-berlin":
        await uploaded_image(db)
    posts, terms = created_ids(exchange)
    post_max, term_max = await max_ids(db)
    new_posts = {i for i in posts if i > post_max}
    new_terms = {i for i in terms if i > term_max}
    if new_posts:
        await factories.reset_post_sequence(db, min(new_posts))
    if new_terms:
        await reset_term_sequence(db, min(new_terms))


async def discard_created_since(db: Database, post_max: int, term_max: int) -> None:
    """Undo what an exchange created when the original refused it (a deliberate deviation such
    as accepting a boolean ``show_map``), so the ids of later exchanges still line up."""
    async with db.transaction() as conn:
        for table in (event_term, event_organizer):
            column = table.c.event_id
            await conn.execute(sa.delete(table).where(column > post_max))
        await conn.execute(sa.delete(event_term).where(event_term.c.term_id > term_max))
        await conn.execute(
            sa.update(event).where(event.c.venue_id > post_max).values(venue_id=None)
        )
        for table in (event, venue, organizer, media):
            await conn.execute(sa.delete(table).where(table.c.id > post_max))
        await conn.execute(sa.delete(post).where(post.c.id > post_max))
        await conn.execute(sa.delete(term).where(term.c.id > term_max))
    await factories.reset_post_sequence(db, post_max + 1)
    await reset_term_sequence(db, term_max + 1)


# --- requests --------------------------------------------------------------------------------


def substitute(text: str) -> str:
    return text.replace("{base_url}", PUBLIC_URL).replace("{site_url}", PUBLIC_URL)


def build_request(exchange: Exchange) -> dict[str, Any]:
    request = exchange.request
    headers: dict[str, str] = {}
    for name, value in request["headers"].items():
        if name == "Authorization" and value in AUTHORIZATION:
            login, password = AUTHORIZATION[value]
            token = base64.b64encode(f"{login}:{password}".encode()).decode()
            headers[name] = f"Basic {token}"
        else:
            headers[name] = value
    body = request["body"]
    content: bytes | None = None
    if isinstance(body, dict | list):
        content = substitute(json.dumps(body)).encode()
    elif isinstance(body, str):
        content = substitute(body).encode()
    query = request["query_string"]
    path = request["path"] + (f"?{query}" if query else "")
    return {"method": request["method"], "url": path, "headers": headers, "content": content}


# Requests run after an exchange (not compared) where a deliberate deviation left our state
# different from the original's, so that later exchanges start from the same state.
FOLLOW_UPS: dict[str, list[tuple[str, str, dict[str, Any]]]] = {
    # The original's password was set in its database; we have a writable post_password.
    "212-event-create-secret": [
        ("PATCH", "/cal/events/v1/events/238", {"post_password": "s3cret"})
    ],
    # DEVIATIONS #16 refuses an end before the start; create the event the recording has.
    "216-event-create-end-before-start": [
        (
            "POST",
            "/cal/events/v1/events",
            {
                "title": "Backwards Event",
                "start_date": "2027-03-08 10:00:00",
                "end_date": "2027-03-08 10:00:00",
            },
        )
    ],
    # The same refusal on update; the original clamped the end to the start.
    "269-event-update-patch-end-before-start": [
        (
            "PATCH",
            "/cal/events/v1/events/233",
            {
                "start_date": "2027-02-05 12:00:00",
                "end_date": "2027-02-05 12:00:00",
                "all_day": False,
            },
        )
    ],
    # DEVIATIONS #1: an update without status keeps a trashed event in the trash; the original
    # restored it.
    "284-event-update-trashed": [("PATCH", "/cal/events/v1/events/244", {"status": "publish"})],
    # DEVIATIONS #3: the body slug renames the event (the original answered 404); rename back.
    "310-event-by-slug-patch-slug-in-body": [
        ("PATCH", "/cal/events/v1/events/by-slug/slug-target-renamed", {"slug": "slug-target"})
    ],
}


def follow_up_requests(exchange: Exchange) -> list[dict[str, Any]]:
    login, password = AUTHORIZATION["Basic <admin>"]
    token = base64.b64encode(f"{login}:{password}".encode()).decode()
    return [
        {
            "method": method,
            "url": path,
            "headers": {"Authorization": f"Basic {token}", "Content-Type": "application/json"},
            "content": json.dumps(body).encode(),
        }
        for method, path, body in FOLLOW_UPS.get(exchange.name, [])
    ]


# --- comparing -------------------------------------------------------------------------------

VOLATILE_KEYS = {"date", "date_utc", "modified", "modified_utc"}
URL_KEYS = {"rest_url", "next_rest_url", "previous_rest_url"}
ADDED_KEYS: dict[str, Any] = {
    "translations": ["en"],
    "event_status": "scheduled",
    "status_reason": "",
    "attendance_mode": "offline",
    "online_url": "",
    "recurrence": [],
    "recurrence_text": "",
    "series_id": None,
    "occurrence_start": None,
}
"""Keys we add to the original's objects, with their value for content in the default language
only (everything the recordings create)."""
ADDED_URLS = ("ical_url", "webcal_url")
"""URLs we add to event objects and archives: checked against the recorded object's
``rest_url`` and the recorded request's query."""
FEED_DROPPED = ("page", "per_page")


def added_url(key: str, value: Any, recorded: dict[str, Any], request_query: str) -> bool:
    """``ical_url``/``webcal_url``: the recorded ``rest_url``'s path with ``.ics`` (an archive's
    ``events/`` becomes ``events.ics``), carrying an archive request's parameters as sent,
    without paging; ``webcal_url`` is the same URL with the ``webcal`` scheme."""
    rest = recorded.get("rest_url")
    if not isinstance(rest, str) or not isinstance(value, str):
        return False
    if key == "webcal_url":
        if not value.startswith("webcal://"):
            return False
        value = normalise(urlsplit(PUBLIC_URL).scheme + value[len("webcal") :])
    archive = urlsplit(rest).path.endswith("/")
    ours = urlsplit(value)
    if ours.path != urlsplit(rest).path.rstrip("/") + ".ics":
        return False
    sent = parse_qsl(request_query, keep_blank_values=True) if archive else []
    wanted = [(k, v) for k, v in sent if k not in FEED_DROPPED and not k.startswith("_")]
    return parse_qsl(ours.query, keep_blank_values=True) == wanted


def normalise(value: Any) -> Any:
    """Our URLs written as the recordings write theirs (our REST root is the site root)."""
    if isinstance(value, str):
        if value == f"{PUBLIC_URL}/":
            return "{base_url}/"
        return value.replace(f"{PUBLIC_URL}/cal/", "{base_url}/cal/").replace(
            PUBLIC_URL, "{site_url}"
        )
    if isinstance(value, dict):
        return {k: normalise(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normalise(v) for v in value]
    return value


def _url_shape(url: str) -> tuple[str, str | None]:
    parts = urlsplit(url)
    return parts.path.rstrip("/"), dict(parse_qsl(parts.query)).get("page")


@dataclass
class Difference:
    path: str
    expected: Any
    actual: Any

    def __str__(self) -> str:
        return f"{self.path}: expected {self.expected!r:.120}, got {self.actual!r:.120}"


@dataclass
class Comparison:
    differences: list[Difference] = field(default_factory=list)

    def add(self, path: str, expected: Any, actual: Any) -> None:
        self.differences.append(Difference(path, expected, actual))

    @property
    def paths(self) -> set[str]:
        return {d.path for d in self.differences}


def _identified(items: list[Any]) -> bool:
    return bool(items) and all(isinstance(i, dict) and isinstance(i.get("id"), int) for i in items)


def compare(
    expected: Any, actual: Any, path: str, result: Comparison, request_query: str = ""
) -> None:
    """Structural comparison with the normalisations the README names (volatile dates, URLs
    compared by path and page, JSON-LD by presence, WordPress-internal ``_links`` ignored)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual)):
            child = f"{path}.{key}"
            if key == "_links":
                continue
            if key not in actual:
                result.add(child, expected[key], "<missing>")
            elif key not in expected and key in ADDED_URLS:
                if not added_url(key, actual[key], expected, request_query):
                    result.add(child, "<missing>", actual[key])
            elif key not in expected:
                # Our additions (docs/deviations.md) must hold what untranslated content has.
                if ADDED_KEYS.get(key, object()) != actual[key]:
                    result.add(child, "<missing>", actual[key])
            elif key in VOLATILE_KEYS or key == "json_ld":
                continue
            elif (
                key in URL_KEYS and isinstance(expected[key], str) and isinstance(actual[key], str)
            ):
                if _url_shape(expected[key]) != _url_shape(actual[key]):
                    result.add(child, expected[key], actual[key])
            else:
                compare(expected[key], actual[key], child, result, request_query)
        return
    if isinstance(expected, list) and isinstance(actual, list):
        if _identified(expected) and _identified(actual):
            # Objects with ids are matched by id: a list that differs reports its ids once.
            expected_ids = [item["id"] for item in expected]
            actual_ids = [item["id"] for item in actual]
            if expected_ids != actual_ids:
                result.add(f"{path}[ids]", expected_ids, actual_ids)
            ours = {item["id"]: item for item in actual}
            for item in expected:
                if item["id"] in ours:
                    compare(
                        item, ours[item["id"]], f"{path}[id={item['id']}]", result, request_query
                    )
            return
        if len(expected) != len(actual):
            result.add(f"{path}[len]", len(expected), len(actual))
        for i, (e, a) in enumerate(zip(expected, actual, strict=False)):
            compare(e, a, f"{path}[{i}]", result, request_query)
        return
    if expected != actual:
        result.add(path, expected, actual)


def compare_arguments(expected: Any, actual: Any, path: str, result: Comparison) -> None:
    """Route descriptions (index, OPTIONS): every recorded parameter must be there with the
    same type, requirement and default; parameters we add (``translation_language``…) and our
    own wording of descriptions are not differences."""
    if not isinstance(expected, dict) or not isinstance(actual, dict):
        compare(expected, actual, path, result)
        return
    for name, spec in expected.items():
        ours = actual.get(name)
        if ours is None:
            result.add(f"{path}.{name}", spec, "<missing>")
            continue
        for key, value in spec.items():
            if key == "description":
                continue
            if key not in ours:
                result.add(f"{path}.{name}.{key}", value, "<missing>")
            elif (key == "default" and str(value) == str(ours[key])) or (
                key == "default" and name in ("start_date", "end_date")
            ):
                continue
            elif ours[key] != value:
                result.add(f"{path}.{name}.{key}", value, ours[key])


def compare_route(expected: Any, actual: Any, path: str, result: Comparison) -> None:
    for key in ("namespace", "methods", "_links"):
        if key in expected or key in actual:
            compare(expected.get(key), actual.get(key), f"{path}.{key}", result)
    ours_endpoints = actual.get("endpoints", [])
    if len(expected["endpoints"]) != len(ours_endpoints):
        result.add(f"{path}.endpoints[len]", len(expected["endpoints"]), len(ours_endpoints))
    for i, (e, a) in enumerate(zip(expected["endpoints"], ours_endpoints, strict=False)):
        compare(e["methods"], a["methods"], f"{path}.endpoints[{i}].methods", result)
        args = a["args"] if a["args"] != [] else {}
        compare_arguments(e["args"] or {}, args, f"{path}.endpoints[{i}].args", result)


def compare_doc(expected: Any, actual: Any, result: Comparison) -> None:
    """Our OpenAPI document describes our real responses, so only the tested structure of the
    original's document is compared (spec index-and-doc §2)."""
    for key in ("openapi", "info", "servers", "components", "paths"):
        if key not in actual:
            result.add(f"body.{key}", "<present>", "<missing>")
    for key in ("version", "title", "description"):
        if key not in actual.get("info", {}):
            result.add(f"body.info.{key}", "<present>", "<missing>")
    if actual.get("servers", [{}])[0].get("url") != "{base_url}/cal/events/v1/":
        result.add("body.servers[0].url", "{base_url}/cal/events/v1/", actual.get("servers"))
    for doc_path, item in expected["paths"].items():
        ours = actual.get("paths", {}).get(doc_path)
        if ours is None:
            result.add(f"body.paths.{doc_path}", "<present>", "<missing>")
            continue
        for method in item:
            if method not in ours:
                result.add(f"body.paths.{doc_path}.{method}", "<present>", "<missing>")


def compare_exchange(exchange: Exchange, status: int, headers: Any, body: Any) -> Comparison:
    result = Comparison()
    response = exchange.response
    if status != response["status"]:
        result.add("status", response["status"], status)
    for name in ("Allow", "X-TEC-Total", "X-TEC-TotalPages"):
        recorded = response["headers"].get(name)
        ours = headers.get(name)
        if (recorded is not None or (ours is not None and name != "Allow")) and recorded != ours:
            result.add(f"header.{name}", recorded, ours)
    expected = response.get("body")
    if expected is None or exchange.request["method"] == "HEAD":
        return result
    actual = normalise(body)
    if isinstance(expected, dict) and "openapi" in expected and isinstance(actual, dict):
        compare_doc(expected, actual, result)
        return result
    if isinstance(expected, dict) and "routes" in expected and isinstance(actual, dict):
        compare(expected.get("namespace"), actual.get("namespace"), "body.namespace", result)
        compare(expected.get("_links"), actual.get("_links"), "body._links", result)
        for route, description in expected["routes"].items():
            if route not in actual.get("routes", {}):
                result.add(f"body.routes.{route}", "<present>", "<missing>")
            else:
                compare_route(description, actual["routes"][route], f"body.routes.{route}", result)
        return result
    if isinstance(expected, dict) and "endpoints" in expected and isinstance(actual, dict):
        compare_route(expected, actual, "body", result)
        return result
    trimmed = response.get("trimmed_list")
    if trimmed and isinstance(actual, dict) and isinstance(actual.get(trimmed), list):
        ours = [item.get("id") for item in actual[trimmed]]
        if ours != response["original_ids"]:
            result.add(f"body.{trimmed}[ids]", response["original_ids"], ours)
        shown = {item["id"] for item in expected[trimmed]}
        actual = {**actual, trimmed: [i for i in actual[trimmed] if i.get("id") in shown]}
    compare(expected, actual, "body", result, exchange.request["query_string"])
    return result


def iter_exchanges(exchanges: list[Exchange]) -> Iterator[Exchange]:
    yield from exchanges

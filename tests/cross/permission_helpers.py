"""What ``test_permissions_reading.py``, ``test_permissions_terms_and_allow.py``,
``test_permissions_writing.py`` share. They were one module:

Role × operation × item-state matrix (issue 6; spec README §6.2–6.4, §7, errors.md,
events.md §2.4/§3–6, venues.md, organizers.md, terms.md; DEVIATIONS #1, #2, #13, #18).

The expected outcomes are written out below as data, from the spec, one row per role. Each test
seeds one item per cell (the caller's own items and another user's, in every status), runs one
operation on every cell and compares the whole outcome table at once, so a failure shows every
cell that differs. Writes are checked in storage too: a refused write must change nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple

import pytest
import sqlalchemy as sa

from eventcal.storage.tables import CATEGORY_TAXONOMY, TAG_TAXONOMY, event, organizer, term, venue
from tests import factories
from tests.conftest import NS, Api

ROLES = ("anonymous", "subscriber", "contributor", "author", "editor", "administrator")


WRITERS = ("contributor", "author", "editor", "administrator")


OWNER = "owner"


# "trash<publish": in the trash, published before (rights on it follow that status, §6.2).
STATUSES = ("publish", "future", "draft", "pending", "private", "trash<publish", "trash<draft")


LIVE = ("publish", "future", "draft", "pending", "private")


OWN = frozenset(f"own {s}" for s in STATUSES)


OTHERS = frozenset(f"other {s}" for s in STATUSES)


EVERY = OWN | OTHERS


PUBLISHED = frozenset({"own publish", "other publish"})


NOTHING: frozenset[str] = frozenset()


# §6.2 "read item": publish → everybody; own item → every logged-in role; others' future,
# draft, pending, private and trashed items → editors and administrators only.
READABLE = {
    "anonymous": PUBLISHED,
    "subscriber": PUBLISHED | OWN,
    "contributor": PUBLISHED | OWN,
    "author": PUBLISHED | OWN,
    "editor": EVERY,
    "administrator": EVERY,
}


# §6.2 "edit item" and "delete item" (the delete_* capabilities follow the same pattern for
# every role): contributors their own unpublished items (a trashed one counts with the status it
# had before), authors all their own, editors and administrators everything. DEVIATIONS #2: the
# same by slug.
WRITABLE = {
    "anonymous": NOTHING,
    "subscriber": NOTHING,
    "contributor": frozenset({"own draft", "own pending", "own private", "own trash<draft"}),
    "author": OWN,
    "editor": EVERY,
    "administrator": EVERY,
}


# Archives without `status` (events.md §2.4, venues.md §2.3, DEVIATIONS #18): callers who cannot
# edit see published items; contributors and authors also their own unpublished ones; editors and
# administrators every status; the trash never.
_OWN_LIVE = frozenset(f"own {s}" for s in LIVE)


_ALL_LIVE = _OWN_LIVE | frozenset(f"other {s}" for s in LIVE)


LISTED = {
    "anonymous": PUBLISHED,
    "subscriber": PUBLISHED,
    "contributor": PUBLISHED | _OWN_LIVE,
    "author": PUBLISHED | _OWN_LIVE,
    "editor": _ALL_LIVE,
    "administrator": _ALL_LIVE,
}


# Archives asking for every status, trash included: refused (400 rest_invalid_param) for callers
# who cannot edit (they may ask for exactly `publish`), else as above with the trash.
LISTED_EVERY_STATUS: dict[str, frozenset[str] | None] = {
    "anonymous": None,
    "subscriber": None,
    "contributor": PUBLISHED | OWN,
    "author": PUBLISHED | OWN,
    "editor": EVERY,
    "administrator": EVERY,
}


FUTURE_DATE = "2027-03-01 10:00:00"


# §6.3 scale-back: (status sent, publication date sent) → stored status for a caller who can
# publish (author and up) / who cannot (contributor). WordPress then turns `publish` dated ahead
# into `future`, and `future` not dated ahead into `publish`. On update, no `status` keeps the
# stored one (DEVIATIONS #1), so the first row only applies to create.
SCALE_BACK = (
    (None, None, "publish", "draft"),
    ("publish", None, "publish", "pending"),
    ("publish", FUTURE_DATE, "future", "pending"),
    ("future", FUTURE_DATE, "future", "pending"),
    ("future", None, "publish", "pending"),
    ("draft", None, "draft", "draft"),
    ("pending", None, "pending", "pending"),
    ("private", None, "private", "private"),
)


PUBLISHERS = frozenset({"author", "editor", "administrator"})


@dataclass(frozen=True)
class Kind:
    name: str
    plural: str
    table: sa.Table
    required: dict[str, str]
    """Fields a create needs besides the name."""

    @property
    def name_field(self) -> str:
        return "title" if self.name == "event" else self.name

    @property
    def not_accessible(self) -> str:
        return f"{self.name}-not-accessible"

    def make(self, api: Api, title: str, **fields: Any) -> int:
        maker: Any = {
            "event": factories.make_event,
            "venue": factories.make_venue,
            "organizer": factories.make_organizer,
        }[self.name]
        return int(api.run(lambda: maker(api.database, title, **fields)))


EVENTS = Kind(
    "event",
    "events",
    event,
    {"start_date": "2027-04-01 10:00:00", "end_date": "2027-04-01 11:00:00"},
)


VENUES = Kind("venue", "venues", venue, {})


ORGANIZERS = Kind("organizer", "organizers", organizer, {})


KINDS = [pytest.param(k, id=k.plural) for k in (EVENTS, VENUES, ORGANIZERS)]


ROUTES = ("by-id", "by-slug")


class Item(NamedTuple):
    id: int
    slug: str


def path(kind: Kind, route: str, item: Item) -> str:
    key = str(item.id) if route == "by-id" else f"by-slug/{item.slug}"
    return f"{NS}/{kind.plural}/{key}"


def caller(role: str) -> str | None:
    return None if role == "anonymous" else role


def refused(role: str) -> tuple[int, str]:
    """errors.md: `rest_forbidden`, 401 for anonymous callers and 403 for the others."""
    return (401 if role == "anonymous" else 403), "rest_forbidden"


def error(response: Any) -> str | None:
    return str(response.json()["code"]) if response.status_code >= 400 else None


def stored(api: Api, table: sa.Table, item_id: int) -> dict[str, Any] | None:
    async def load() -> dict[str, Any] | None:
        async with api.database.read() as conn:
            row = await conn.first(sa.select(table).where(table.c.id == item_id))
        return None if row is None else {c.name: row[c.name] for c in table.columns}

    return api.run(load)


def seed(api: Api, kind: Kind, role: str) -> dict[str, Item]:
    """One item per cell: the caller's own (logged-in roles only) and the owner's, per status."""
    authors = {"other": api.user("administrator", OWNER)}
    if role != "anonymous":
        authors["own"] = api.user(role)
    items: dict[str, Item] = {}
    for whose, author_id in authors.items():
        for cell_status in STATUSES:
            status, _, before = cell_status.partition("<")
            slug = f"{whose}-{status}-{before}".rstrip("-") + ("__trashed" if before else "")
            fields: dict[str, Any] = {"slug": slug, "status": status, "author_id": author_id}
            if before:
                fields["status_before_trash"] = before
            if status == "future":
                fields["published_at"] = datetime(2027, 1, 1, tzinfo=UTC)
            cell = f"{whose} {cell_status}"
            items[cell] = Item(kind.make(api, f"{kind.name} {cell}", **fields), slug)
    return items


# --- unknown items: validation or 404 before/after the permission check ---------------------


def unknown_expected(kind: Kind, route: str, operation: str, role: str) -> tuple[int, str]:
    """errors.md §3 and events.md §5/§6: event ids (and event slugs on update) are checked
    against the type-level capability first, then answer 404; every other unknown id or slug is a
    parameter error, found before permissions (pain point 5, kept)."""
    if operation == "read":
        if kind is EVENTS and route == "by-id":
            return 404, "rest-event-not-found"
        return 400, "rest_invalid_param"
    if kind is EVENTS and (route == "by-id" or operation == "update"):
        return (404, "rest-event-not-found") if role in WRITERS else refused(role)
    return 400, "rest_invalid_param"


def authors_of(api: Api, table: sa.Table, title: str) -> list[int]:
    """Authors of the stored items with this title."""

    async def load() -> list[int]:
        async with api.database.read() as conn:
            rows = await conn.all(sa.select(table.c.author_id).where(table.c.title == title))
        return [int(row["author_id"]) for row in rows]

    return api.run(load)


def _scale_back_fields(status: str | None, date: str | None) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    if status is not None:
        fields["status"] = status
    if date is not None:
        fields["date"] = date
    return fields


# --- capabilities behind single fields -------------------------------------------------------

MEDIA = "<media id>"


# §6.2 rows that guard fields rather than items: an image given by URL needs "upload files"
# (author and up; events.md §1.2: others get 400 naming `image`), an image by media id nothing
# more; naming an unknown term creates it only for callers who may manage that taxonomy (A5:
# categories author and up, tags editor and up), an existing one is fine for every writer.
FIELD_CASES = (
    ("image url", (EVENTS, VENUES, ORGANIZERS), "image", "https://example.test/p.png", PUBLISHERS),
    ("image id", (EVENTS, VENUES, ORGANIZERS), "image", MEDIA, frozenset(WRITERS)),
    ("new category", (EVENTS,), "categories", "Fresh category", PUBLISHERS),
    ("new tag", (EVENTS,), "tags", "Fresh tag", frozenset({"editor", "administrator"})),
    ("known tag", (EVENTS,), "tags", "Known", frozenset(WRITERS)),
)


# --- password-protected items (§6.4, DEVIATIONS #13) -----------------------------------------

SECRET = "s3cret"


# (caller, query) → may the caller see the protected content? The item is published and owned by
# the author; `context=edit` helps only callers who may edit it; recording 255: an administrator
# without the password or `context=edit` is refused like anybody.
PASSWORD_CASES = (
    ("anonymous", "", False),
    ("anonymous", "?password=wrong", False),
    ("anonymous", f"?password={SECRET}", True),
    ("subscriber", "?context=edit", False),
    ("contributor", "?context=edit", False),
    ("author", "", False),
    ("author", "?context=edit", True),
    ("editor", "?context=edit", True),
    ("administrator", "", False),
    ("administrator", "?context=edit", True),
)


def _protected_item(api: Api, kind: Kind) -> Item:
    item_id = kind.make(
        api,
        f"Protected {kind.name}",
        slug="protected",
        author_id=api.user("author"),
        post_password=SECRET,
        description="<p>Secret notes</p>",
    )
    return Item(item_id, "protected")


def _shows_secret(response: Any) -> bool:
    return "Secret notes" in str(response.json().get("description", ""))


# --- categories and tags (terms.md §4–6) -----------------------------------------------------


@dataclass(frozen=True)
class Taxonomy:
    plural: str
    value: str
    managers: frozenset[str]


# README §6.2: categories need "edit events" and "manage event categories" (author and up);
# tags need "edit events" and "manage tags" (editor and up). Reads are public.
TAXONOMIES = [
    pytest.param(
        Taxonomy("categories", CATEGORY_TAXONOMY, frozenset({"author", "editor", "administrator"})),
        id="categories",
    ),
    pytest.param(Taxonomy("tags", TAG_TAXONOMY, frozenset({"editor", "administrator"})), id="tags"),
]


def term_names(api: Api, taxonomy: str) -> set[str]:
    async def load() -> set[str]:
        async with api.database.read() as conn:
            rows = await conn.all(sa.select(term.c.name).where(term.c.taxonomy == taxonomy))
        return {str(row["name"]) for row in rows}

    return api.run(load)


# --- Allow header (README §9, A13: the methods the caller's role may use on the route) -------

POST_LIKE_ALLOW = ("GET", "GET, POST", "GET, DELETE, POST, PUT, PATCH")


TERM_ALLOW = ("GET", "GET, POST", "GET, POST, PUT, PATCH, DELETE")

"""Role × operation × item-state matrix (issue 6; spec README §6.2–6.4, §7, errors.md,
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
"""Login of the administrator who owns the "other" items."""

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


# --- list ------------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("kind", KINDS)
def test_list_shows_published_items_plus_what_the_role_may_see(
    api: Api, kind: Kind, role: str
) -> None:
    items = seed(api, kind, role)
    names = {item.id: cell for cell, item in items.items()}

    def listed(query: str) -> tuple[int, set[str] | None]:
        response = api.get(f"{NS}/{kind.plural}?per_page=50{query}", as_=caller(role))
        if response.status_code != 200:
            return response.status_code, None
        return 200, {names[entry["id"]] for entry in response.json()[kind.plural]}

    every = LISTED_EVERY_STATUS[role]
    assert listed("") == (200, set(LISTED[role] & items.keys()))
    assert listed("&status=publish") == (200, set(PUBLISHED & items.keys()))
    assert listed("&status=publish,future,draft,pending,private,trash") == (
        (400, None) if every is None else (200, set(every & items.keys()))
    )


# --- read single -----------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("kind", KINDS)
def test_read_single(api: Api, kind: Kind, route: str, role: str) -> None:
    items = seed(api, kind, role)
    actual: dict[str, Any] = {}
    expected: dict[str, Any] = {}
    for cell, item in items.items():
        response = api.get(path(kind, route, item), as_=caller(role))
        actual[cell] = (response.status_code, error(response))
        if kind is EVENTS and "trash" in cell:
            # events.md §3.1: a trashed event is gone for everybody, administrators included.
            expected[cell] = (403, "event-no-longer-available")
        elif cell in READABLE[role]:
            expected[cell] = (200, None)
        else:
            expected[cell] = (403, kind.not_accessible)
    assert actual == expected


# --- update ----------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("kind", KINDS)
def test_update(api: Api, kind: Kind, route: str, role: str) -> None:
    items = seed(api, kind, role)
    actual: dict[str, Any] = {}
    expected: dict[str, Any] = {}
    for cell, item in items.items():
        before = stored(api, kind.table, item.id)
        assert before is not None
        response = api.patch(
            path(kind, route, item), json={kind.name_field: "Changed"}, as_=caller(role)
        )
        after = stored(api, kind.table, item.id)
        assert after is not None
        actual[cell] = (
            response.status_code,
            error(response),
            after["status"],
            after["title"],
            after == before,
        )
        if cell in WRITABLE[role]:
            # Only the name changes; the status stays (DEVIATIONS #1), even in the trash.
            expected[cell] = (200, None, before["status"], "Changed", False)
        else:
            expected[cell] = (*refused(role), before["status"], before["title"], True)
    assert actual == expected


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("kind", KINDS)
def test_post_put_and_patch_share_one_permission_check(api: Api, kind: Kind, route: str) -> None:
    items = seed(api, kind, "contributor")
    actual = {}
    for method in ("POST", "PUT", "PATCH"):
        for cell in ("own draft", "own publish", "other draft"):
            response = api.request(
                method,
                path(kind, route, items[cell]),
                json={kind.name_field: f"{method} {cell}"},
                as_="contributor",
            )
            actual[f"{method} {cell}"] = response.status_code
    assert actual == {
        f"{method} {cell}": 200 if cell in WRITABLE["contributor"] else 403
        for method in ("POST", "PUT", "PATCH")
        for cell in ("own draft", "own publish", "other draft")
    }


# --- delete ----------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("kind", KINDS)
def test_delete_moves_to_the_trash(api: Api, kind: Kind, route: str, role: str) -> None:
    items = seed(api, kind, role)
    actual: dict[str, Any] = {}
    expected: dict[str, Any] = {}
    for cell, item in items.items():
        before = stored(api, kind.table, item.id)
        assert before is not None
        response = api.delete(path(kind, route, item), as_=caller(role))
        after = stored(api, kind.table, item.id)
        assert after is not None, f"{cell}: deleted for good"
        actual[cell] = (
            response.status_code,
            error(response),
            after["status"],
            after["status_before_trash"],
            after == before,
        )
        unchanged = (before["status"], before["status_before_trash"], True)
        if cell not in WRITABLE[role]:
            expected[cell] = (*refused(role), *unchanged)
        elif before["status"] == "trash":
            # §7: deleting an item already in the trash → 410 (after the permission check).
            expected[cell] = (410, f"{kind.name}-is-in-trash", *unchanged)
        else:
            expected[cell] = (200, None, "trash", before["status"], False)
    assert actual == expected


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("kind", KINDS)
def test_force_deletes_for_good_with_the_delete_permission(
    api: Api, kind: Kind, route: str
) -> None:
    """docs/deviations.md E1 (issue 14): `force` deletes for good, as wp/v2 (recording 286
    only trashed); without the delete permission nothing changes."""
    items = seed(api, kind, "contributor")
    target = items["other publish"]
    denied = api.delete(f"{path(kind, route, target)}?force=true", as_="contributor")
    assert (denied.status_code, error(denied)) == (403, "rest_forbidden")
    response = api.delete(f"{path(kind, route, target)}?force=true", as_="administrator")
    assert response.status_code == 200
    assert response.json()["deleted"] is True
    assert stored(api, kind.table, target.id) is None
    again = api.delete(f"{path(kind, route, target)}?force=true", as_="administrator")
    assert again.status_code in (400, 404)


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


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("kind", KINDS)
def test_unknown_items(api: Api, kind: Kind, route: str) -> None:
    missing = Item(987654, "no-such-item")
    actual: dict[str, Any] = {}
    expected: dict[str, Any] = {}
    for role in ROLES:
        for operation, method in (("read", "GET"), ("update", "PATCH"), ("delete", "DELETE")):
            body = {kind.name_field: "x"} if method == "PATCH" else None
            response = api.request(method, path(kind, route, missing), json=body, as_=caller(role))
            actual[f"{role} {operation}"] = (response.status_code, error(response))
            expected[f"{role} {operation}"] = unknown_expected(kind, route, operation, role)
    assert actual == expected


# --- create and the status scale-back --------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_create_needs_the_create_capability(api: Api, kind: Kind) -> None:
    actual: dict[str, Any] = {}
    expected: dict[str, Any] = {}
    for role in ROLES:
        # README §2.4: parameters are validated before permissions, for every caller.
        incomplete = api.post(f"{NS}/{kind.plural}", json={}, as_=caller(role))
        actual[f"{role} incomplete"] = (incomplete.status_code, error(incomplete))
        expected[f"{role} incomplete"] = (400, "rest_missing_callback_param")
        name = f"Made by {role}"
        response = api.post(
            f"{NS}/{kind.plural}", json={kind.name_field: name, **kind.required}, as_=caller(role)
        )
        made = authors_of(api, kind.table, name)
        actual[role] = (response.status_code, error(response), made)
        if role in WRITERS:
            expected[role] = (201, None, [api.users[role]])
        else:
            expected[role] = (*refused(role), [])
    assert actual == expected


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


@pytest.mark.parametrize("role", WRITERS)
@pytest.mark.parametrize("kind", KINDS)
def test_create_scales_the_status_back(api: Api, kind: Kind, role: str) -> None:
    actual: dict[str, Any] = {}
    expected: dict[str, Any] = {}
    for number, (status, date, publisher, other) in enumerate(SCALE_BACK):
        row_id = f"{status} {date or ''}".strip()
        fields = {
            kind.name_field: f"Scaled {number}",
            **kind.required,
            **_scale_back_fields(status, date),
        }
        response = api.post(f"{NS}/{kind.plural}", json=fields, as_=role)
        assert response.status_code == 201, response.json()
        row = stored(api, kind.table, int(response.json()["id"]))
        assert row is not None
        actual[row_id] = (response.json()["status"], row["status"])
        wanted = publisher if role in PUBLISHERS else other
        expected[row_id] = (wanted, wanted)
    assert actual == expected


@pytest.mark.parametrize("role", WRITERS)
@pytest.mark.parametrize("kind", KINDS)
def test_update_scales_the_status_back(api: Api, kind: Kind, role: str) -> None:
    author_id = api.user(role)
    actual: dict[str, Any] = {}
    expected: dict[str, Any] = {}
    for number, (status, date, publisher, other) in enumerate(SCALE_BACK):
        row_id = f"{status} {date or ''}".strip()
        item_id = kind.make(
            api, f"Draft {number}", slug=f"draft-{number}", status="draft", author_id=author_id
        )
        fields = {kind.name_field: f"Edited {number}", **_scale_back_fields(status, date)}
        response = api.patch(f"{NS}/{kind.plural}/{item_id}", json=fields, as_=role)
        assert response.status_code == 200, response.json()
        row = stored(api, kind.table, item_id)
        assert row is not None
        actual[row_id] = (response.json()["status"], row["status"])
        wanted = "draft" if status is None else publisher if role in PUBLISHERS else other
        expected[row_id] = (wanted, wanted)
    assert actual == expected


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


@pytest.mark.parametrize("kind", KINDS)
def test_capabilities_behind_fields(api: Api, kind: Kind) -> None:
    db = api.database
    media = api.run(lambda: factories.make_media(db, "https://example.test/media.png"))
    api.run(lambda: factories.make_term(db, "Known", taxonomy=TAG_TAXONOMY))
    actual: dict[str, Any] = {}
    expected: dict[str, Any] = {}
    for label, kinds, field, value, allowed in FIELD_CASES:
        if kind not in kinds:
            continue
        for role in WRITERS:
            sent: Any = media if value == MEDIA else value
            if field in ("categories", "tags"):
                sent = [f"{value} {role}" if value.startswith("Fresh") else value]
            name = f"{label} by {role}"
            created = api.post(
                f"{NS}/{kind.plural}",
                json={kind.name_field: name, **kind.required, field: sent},
                as_=role,
            )
            own = kind.make(
                api,
                f"Own {name}",
                slug=f"own-{len(actual)}",
                status="draft",
                author_id=api.users[role],
            )
            before = stored(api, kind.table, own)
            updated = api.patch(f"{NS}/{kind.plural}/{own}", json={field: sent}, as_=role)
            actual[f"{label} by {role}"] = (
                created.status_code,
                sorted(created.json().get("data", {}).get("params", {})),
                authors_of(api, kind.table, name) != [],
                updated.status_code,
                stored(api, kind.table, own) == before,
            )
            ok = role in allowed
            expected[f"{label} by {role}"] = (
                201 if ok else 400,
                [] if ok else [field],
                ok,
                200 if ok else 400,
                not ok,
            )
    assert actual == expected
    if kind is EVENTS:
        # Refused names created no term.
        assert term_names(api, TAG_TAXONOMY) == {
            "Known",
            "Fresh tag editor",
            "Fresh tag administrator",
        }
        assert term_names(api, CATEGORY_TAXONOMY) == {
            f"Fresh category {role}" for role in PUBLISHERS
        }


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


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("kind", KINDS)
def test_password_protected_single_read(api: Api, kind: Kind, route: str) -> None:
    item = _protected_item(api, kind)
    actual: dict[str, Any] = {}
    expected: dict[str, Any] = {}
    for role, query, access in PASSWORD_CASES:
        response = api.get(f"{path(kind, route, item)}{query}", as_=caller(role))
        key = f"{role} {query}"
        if kind is EVENTS:
            # events.md §3.1: no access → 403 event-password-protected.
            actual[key] = (response.status_code, error(response))
            expected[key] = (200, None) if access else (403, "event-password-protected")
        else:
            # Venues and organizers: 200, the protected content blanked, the name kept (#13).
            body = response.json()
            actual[key] = (response.status_code, _shows_secret(response), body.get(kind.name))
            expected[key] = (200, access, f"Protected {kind.name}")
    assert actual == expected


@pytest.mark.parametrize("kind", KINDS)
def test_password_protected_items_are_listed_blanked(api: Api, kind: Kind) -> None:
    _protected_item(api, kind)
    actual: dict[str, Any] = {}
    expected: dict[str, Any] = {}
    for role, query, access in PASSWORD_CASES:
        if "password" in query:
            continue  # the archives take no `password` (DEVIATIONS #13)
        separator = "&" if query else "?"
        response = api.get(f"{NS}/{kind.plural}{query}{separator}per_page=50", as_=caller(role))
        entries = response.json()[kind.plural]
        key = f"{role} {query}"
        shown = ["Secret notes" in str(e.get("description", "")) for e in entries]
        actual[key] = (response.status_code, shown)
        expected[key] = (200, [access])
    assert actual == expected


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


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("taxonomy", TAXONOMIES)
def test_terms(api: Api, taxonomy: Taxonomy, role: str) -> None:
    db, base, who, tv = api.database, f"{NS}/{taxonomy.plural}", caller(role), taxonomy.value
    keep = api.run(lambda: factories.make_term(db, "Keep", taxonomy=taxonomy.value))
    doomed = api.run(lambda: factories.make_term(db, "Doomed", taxonomy=taxonomy.value))

    def outcome(response: Any) -> tuple[int, str | None, set[str]]:
        return response.status_code, error(response), term_names(api, tv)

    listing = api.get(f"{base}?hide_empty=0", as_=who)
    actual: dict[str, Any] = {
        "list": (listing.status_code, sorted(t["id"] for t in listing.json()[taxonomy.plural])),
        "read": api.get(f"{base}/{keep}", as_=who).status_code,
        "create": outcome(api.post(base, json={"name": "Fresh"}, as_=who)),
        "update": outcome(api.patch(f"{base}/{keep}", json={"name": "Renamed"}, as_=who)),
        "delete": outcome(api.delete(f"{base}/{doomed}", as_=who)),
        "delete again": outcome(api.delete(f"{base}/{doomed}", as_=who)),
        "update unknown": outcome(api.patch(f"{base}/987654", json={"name": "x"}, as_=who)),
        "delete unknown": outcome(api.delete(f"{base}/987654", as_=who)),
    }
    untouched = {"Keep", "Doomed"}
    invalid = (400, "rest_invalid_param")
    if role in taxonomy.managers:
        expected: dict[str, Any] = {
            "create": (201, None, {"Keep", "Doomed", "Fresh"}),
            "update": (200, None, {"Renamed", "Doomed", "Fresh"}),
            # Terms are deleted for good: no trash, and a second delete finds nothing (400).
            "delete": (200, None, {"Renamed", "Fresh"}),
            "delete again": (*invalid, {"Renamed", "Fresh"}),
            "update unknown": (*invalid, {"Renamed", "Fresh"}),
            "delete unknown": (*invalid, {"Renamed", "Fresh"}),
        }
    else:
        expected = {
            "create": (*refused(role), untouched),
            "update": (*refused(role), untouched),
            "delete": (*refused(role), untouched),
            "delete again": (*refused(role), untouched),
            # An unknown id is a parameter error, found before permissions (terms.md §5/§6).
            "update unknown": (*invalid, untouched),
            "delete unknown": (*invalid, untouched),
        }
    expected = {"list": (200, sorted([keep, doomed])), "read": 200, **expected}
    assert actual == expected


# --- Allow header (README §9, A13: the methods the caller's role may use on the route) -------

POST_LIKE_ALLOW = ("GET", "GET, POST", "GET, DELETE, POST, PUT, PATCH")
TERM_ALLOW = ("GET", "GET, POST", "GET, POST, PUT, PATCH, DELETE")


@pytest.mark.parametrize("role", ROLES)
def test_allow_header_lists_what_the_role_may_do(api: Api, role: str) -> None:
    db = api.database
    items = {
        "events": api.run(lambda: factories.make_event(db, "E", slug="e")),
        "venues": api.run(lambda: factories.make_venue(db, "V")),
        "organizers": api.run(lambda: factories.make_organizer(db, "O")),
        "categories": api.run(lambda: factories.make_term(db, "C")),
        "tags": api.run(lambda: factories.make_term(db, "T", taxonomy=TAG_TAXONOMY)),
    }
    writers = {
        "events": WRITERS,
        "venues": WRITERS,
        "organizers": WRITERS,
        "categories": ("author", "editor", "administrator"),
        "tags": ("editor", "administrator"),
    }
    actual: dict[str, Any] = {}
    expected: dict[str, Any] = {}
    for plural, item_id in items.items():
        read_only, collection, single = (
            TERM_ALLOW if plural in ("categories", "tags") else POST_LIKE_ALLOW
        )
        allowed = role in writers[plural]
        for suffix, full in (("", collection), (f"/{item_id}", single)):
            response = api.get(f"{NS}/{plural}{suffix}", as_=caller(role))
            actual[f"{plural}{suffix}"] = (response.status_code, response.headers["Allow"])
            expected[f"{plural}{suffix}"] = (200, full if allowed else read_only)
    assert actual == expected

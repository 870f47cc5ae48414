"""Who may write what (role × item state, issue 6; spec README §6.2–6.3): create,
update, delete, status scale-back and the capabilities behind fields. A refused
write changes nothing in storage."""

from __future__ import annotations

from typing import Any

import pytest

from eventcal.storage.tables import CATEGORY_TAXONOMY, TAG_TAXONOMY
from tests import factories
from tests.conftest import NS, Api
from tests.cross.permission_helpers import (
    EVENTS,
    FIELD_CASES,
    KINDS,
    MEDIA,
    PUBLISHERS,
    ROLES,
    ROUTES,
    SCALE_BACK,
    WRITABLE,
    WRITERS,
    Kind,
    _scale_back_fields,
    authors_of,
    caller,
    error,
    path,
    refused,
    seed,
    stored,
    term_names,
)

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

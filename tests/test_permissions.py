"""Roles, capabilities and per-item rules (spec README §6.2–6.3, DEVIATIONS #18)."""

from __future__ import annotations

import pytest

from eventcal.permissions import (
    ANONYMOUS,
    CAPABILITIES,
    Actor,
    Cap,
    ItemState,
    Role,
    can_delete,
    can_edit,
    can_read,
    publish_status,
    sees_all_statuses,
)

OWNER_ID = 7
OTHER_ID = 99

ACTORS: dict[str, Actor] = {
    "administrator": Actor(OWNER_ID, Role.ADMINISTRATOR, "admin"),
    "editor": Actor(OWNER_ID, Role.EDITOR, "editor"),
    "author": Actor(OWNER_ID, Role.AUTHOR, "author"),
    "contributor": Actor(OWNER_ID, Role.CONTRIBUTOR, "contributor"),
    "subscriber": Actor(OWNER_ID, Role.SUBSCRIBER, "subscriber"),
    "anonymous": ANONYMOUS,
}
ALL = frozenset(ACTORS)
EDITORS = frozenset({"administrator", "editor"})
AUTHORS = EDITORS | {"author"}
CONTRIBUTORS = AUTHORS | {"contributor"}
LOGGED_IN = CONTRIBUTORS | {"subscriber"}
NOBODY: frozenset[str] = frozenset()


# --- the capability table (§6.2) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("cap", "holders"),
    [
        (Cap.READ, LOGGED_IN),
        (Cap.EDIT_POSTS, CONTRIBUTORS),
        (Cap.DELETE_POSTS, CONTRIBUTORS),
        (Cap.EDIT_PUBLISHED, AUTHORS),
        (Cap.PUBLISH, AUTHORS),
        (Cap.DELETE_PUBLISHED, AUTHORS),
        (Cap.UPLOAD_FILES, AUTHORS),
        (Cap.MANAGE_CATEGORIES, AUTHORS),
        (Cap.EDIT_OTHERS, EDITORS),
        (Cap.DELETE_OTHERS, EDITORS),
        (Cap.READ_PRIVATE, EDITORS),
        (Cap.EDIT_PRIVATE, EDITORS),
        (Cap.DELETE_PRIVATE, EDITORS),
        (Cap.MANAGE_TAGS, EDITORS),
    ],
)
def test_capability_table(cap: Cap, holders: frozenset[str]) -> None:
    allowed = {name for name, actor in ACTORS.items() if actor.can(cap)}
    assert allowed == holders


def test_every_role_has_a_capability_set() -> None:
    assert set(CAPABILITIES) == set(Role)


def test_anonymous_owns_nothing_not_even_items_without_author() -> None:
    assert ANONYMOUS.is_anonymous
    assert not ANONYMOUS.owns(None)
    assert not ACTORS["subscriber"].is_anonymous
    assert ACTORS["subscriber"].owns(OWNER_ID)
    assert not ACTORS["subscriber"].owns(OTHER_ID)


# --- per-item rules --------------------------------------------------------------------------

# (author, status, status before trash) → who may edit / delete it.
EDIT_DELETE_CASES = [
    pytest.param(OWNER_ID, "draft", None, CONTRIBUTORS, id="own-draft"),
    pytest.param(OWNER_ID, "pending", None, CONTRIBUTORS, id="own-pending"),
    pytest.param(OWNER_ID, "private", None, CONTRIBUTORS, id="own-private"),
    pytest.param(OWNER_ID, "publish", None, AUTHORS, id="own-publish"),
    pytest.param(OWNER_ID, "future", None, AUTHORS, id="own-future"),
    pytest.param(OWNER_ID, "trash", "publish", AUTHORS, id="own-trash-was-publish"),
    pytest.param(OWNER_ID, "trash", "future", AUTHORS, id="own-trash-was-future"),
    pytest.param(OWNER_ID, "trash", "draft", CONTRIBUTORS, id="own-trash-was-draft"),
    pytest.param(OWNER_ID, "trash", None, CONTRIBUTORS, id="own-trash-unknown"),
    pytest.param(OTHER_ID, "draft", None, EDITORS, id="others-draft"),
    pytest.param(OTHER_ID, "pending", None, EDITORS, id="others-pending"),
    pytest.param(OTHER_ID, "private", None, EDITORS, id="others-private"),
    pytest.param(OTHER_ID, "publish", None, EDITORS, id="others-publish"),
    pytest.param(OTHER_ID, "future", None, EDITORS, id="others-future"),
    pytest.param(OTHER_ID, "trash", "publish", EDITORS, id="others-trash"),
    pytest.param(None, "publish", None, EDITORS, id="no-author-publish"),
]


@pytest.mark.parametrize(("author", "status", "before_trash", "allowed"), EDIT_DELETE_CASES)
def test_can_edit(
    author: int | None, status: str, before_trash: str | None, allowed: frozenset[str]
) -> None:
    item = ItemState(author, status, before_trash)
    assert {name for name, actor in ACTORS.items() if can_edit(actor, item)} == allowed


@pytest.mark.parametrize(("author", "status", "before_trash", "allowed"), EDIT_DELETE_CASES)
def test_can_delete(
    author: int | None, status: str, before_trash: str | None, allowed: frozenset[str]
) -> None:
    item = ItemState(author, status, before_trash)
    assert {name for name, actor in ACTORS.items() if can_delete(actor, item)} == allowed


def test_edit_and_delete_use_their_own_capabilities(monkeypatch: pytest.MonkeyPatch) -> None:
    """The roles' edit and delete capabilities follow one pattern, so take some delete ones away
    from an editor: edits stay allowed, deletes do not."""
    caps = CAPABILITIES[Role.EDITOR] - {Cap.DELETE_PUBLISHED, Cap.DELETE_OTHERS}
    monkeypatch.setitem(CAPABILITIES, Role.EDITOR, caps)
    editor = ACTORS["editor"]
    own_published = ItemState(OWNER_ID, "publish")
    others_draft = ItemState(OTHER_ID, "draft")
    assert can_edit(editor, own_published)
    assert not can_delete(editor, own_published)
    assert can_edit(editor, others_draft)
    assert not can_delete(editor, others_draft)


@pytest.mark.parametrize(
    ("author", "status", "allowed"),
    [
        pytest.param(OTHER_ID, "publish", ALL, id="others-publish"),
        pytest.param(None, "publish", ALL, id="no-author-publish"),
        pytest.param(OWNER_ID, "draft", LOGGED_IN, id="own-draft"),
        pytest.param(OWNER_ID, "private", LOGGED_IN, id="own-private"),
        pytest.param(OWNER_ID, "future", LOGGED_IN, id="own-future"),
        pytest.param(OWNER_ID, "trash", LOGGED_IN, id="own-trash"),
        pytest.param(OTHER_ID, "private", EDITORS, id="others-private"),
        pytest.param(OTHER_ID, "draft", EDITORS, id="others-draft"),
        pytest.param(OTHER_ID, "pending", EDITORS, id="others-pending"),
        pytest.param(OTHER_ID, "future", EDITORS, id="others-future"),
        pytest.param(OTHER_ID, "trash", EDITORS, id="others-trash"),
    ],
)
def test_can_read(author: int | None, status: str, allowed: frozenset[str]) -> None:
    item = ItemState(author, status)
    assert {name for name, actor in ACTORS.items() if can_read(actor, item)} == allowed


def test_only_editors_and_administrators_see_all_statuses() -> None:
    assert {name for name, actor in ACTORS.items() if sees_all_statuses(actor)} == EDITORS


# --- status scale-back (§6.3) ----------------------------------------------------------------


@pytest.mark.parametrize("role", ["administrator", "editor", "author"])
@pytest.mark.parametrize(
    ("requested", "stored"),
    [
        (None, "publish"),
        ("", "publish"),
        ("publish", "publish"),
        ("future", "future"),
        ("draft", "draft"),
        ("pending", "pending"),
        ("private", "private"),
        ("trash", "trash"),
    ],
)
def test_publishers_get_what_they_ask_for(role: str, requested: str | None, stored: str) -> None:
    assert publish_status(ACTORS[role], requested) == stored


@pytest.mark.parametrize("role", ["contributor", "subscriber", "anonymous"])
@pytest.mark.parametrize(
    ("requested", "stored"),
    [
        (None, "draft"),
        ("", "draft"),
        ("publish", "pending"),
        ("future", "pending"),
        ("draft", "draft"),
        ("pending", "pending"),
        ("private", "private"),
    ],
)
def test_non_publishers_are_scaled_back(role: str, requested: str | None, stored: str) -> None:
    assert publish_status(ACTORS[role], requested) == stored

"""Roles, capabilities and the per-item rules of spec README §6.

Events, venues and organizers each have their own capabilities in the original, but every role
gets the same pattern for the three types, so one table serves all three.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Role(StrEnum):
    ADMINISTRATOR = "administrator"
    EDITOR = "editor"
    AUTHOR = "author"
    CONTRIBUTOR = "contributor"
    SUBSCRIBER = "subscriber"


class Cap(StrEnum):
    READ = "read"
    EDIT_POSTS = "edit_posts"
    EDIT_PUBLISHED = "edit_published_posts"
    EDIT_OTHERS = "edit_others_posts"
    EDIT_PRIVATE = "edit_private_posts"
    PUBLISH = "publish_posts"
    DELETE_POSTS = "delete_posts"
    DELETE_PUBLISHED = "delete_published_posts"
    DELETE_OTHERS = "delete_others_posts"
    DELETE_PRIVATE = "delete_private_posts"
    READ_PRIVATE = "read_private_posts"
    UPLOAD_FILES = "upload_files"
    MANAGE_CATEGORIES = "manage_event_categories"
    MANAGE_TAGS = "manage_tags"
    UNFILTERED_HTML = "unfiltered_html"


_EVERYONE_LOGGED_IN = {Cap.READ}
_CONTRIBUTOR = _EVERYONE_LOGGED_IN | {Cap.EDIT_POSTS, Cap.DELETE_POSTS}
_AUTHOR = _CONTRIBUTOR | {
    Cap.EDIT_PUBLISHED,
    Cap.PUBLISH,
    Cap.DELETE_PUBLISHED,
    Cap.UPLOAD_FILES,
    Cap.MANAGE_CATEGORIES,
}
_EDITOR = _AUTHOR | {
    Cap.EDIT_OTHERS,
    Cap.EDIT_PRIVATE,
    Cap.DELETE_OTHERS,
    Cap.DELETE_PRIVATE,
    Cap.READ_PRIVATE,
    Cap.MANAGE_TAGS,
    Cap.UNFILTERED_HTML,
}

CAPABILITIES: dict[Role, frozenset[Cap]] = {
    Role.ADMINISTRATOR: frozenset(_EDITOR),
    Role.EDITOR: frozenset(_EDITOR),
    Role.AUTHOR: frozenset(_AUTHOR),
    Role.CONTRIBUTOR: frozenset(_CONTRIBUTOR),
    Role.SUBSCRIBER: frozenset(_EVERYONE_LOGGED_IN),
}

PUBLISHED = ("publish", "future")


@dataclass(frozen=True, slots=True)
class Actor:
    """Who is calling: a user with a role, or nobody (anonymous)."""

    user_id: int | None = None
    role: Role | None = None
    login: str = ""

    @property
    def is_anonymous(self) -> bool:
        return self.user_id is None

    def can(self, cap: Cap) -> bool:
        return self.role is not None and cap in CAPABILITIES[self.role]

    def owns(self, author_id: int | None) -> bool:
        return self.user_id is not None and author_id == self.user_id


ANONYMOUS = Actor()


@dataclass(frozen=True, slots=True)
class ItemState:
    """What the per-item rules look at."""

    author_id: int | None
    status: str
    status_before_trash: str | None = None


def _item_cap(
    actor: Actor, item: ItemState, *, own: Cap, published: Cap, others: Cap, private: Cap
) -> bool:
    if actor.owns(item.author_id):
        status = item.status
        if status == "trash":
            status = item.status_before_trash or "draft"
        needed = published if status in PUBLISHED else own
        return actor.can(needed)
    if not actor.can(others):
        return False
    if item.status in PUBLISHED:
        return actor.can(published)
    if item.status == "private":
        return actor.can(private)
    return True


def can_edit(actor: Actor, item: ItemState) -> bool:
    """WordPress ``edit_post`` meta capability."""
    return _item_cap(
        actor,
        item,
        own=Cap.EDIT_POSTS,
        published=Cap.EDIT_PUBLISHED,
        others=Cap.EDIT_OTHERS,
        private=Cap.EDIT_PRIVATE,
    )


def can_delete(actor: Actor, item: ItemState) -> bool:
    """WordPress ``delete_post`` meta capability."""
    return _item_cap(
        actor,
        item,
        own=Cap.DELETE_POSTS,
        published=Cap.DELETE_PUBLISHED,
        others=Cap.DELETE_OTHERS,
        private=Cap.DELETE_PRIVATE,
    )


def can_read(actor: Actor, item: ItemState) -> bool:
    """WordPress ``read_post``: published for all; own items; private needs read_private."""
    if item.status == "publish":
        return True
    if actor.owns(item.author_id):
        return actor.can(Cap.READ)
    if item.status == "private":
        return actor.can(Cap.READ_PRIVATE)
    return can_edit(actor, item)


def sees_all_statuses(actor: Actor) -> bool:
    """Editors and administrators list every item; others see published items plus their own
    (DEVIATIONS #18: the original showed contributors everyone's drafts)."""
    return actor.can(Cap.EDIT_OTHERS)


def publish_status(actor: Actor, requested: str | None) -> str:
    """The stored status for a write (spec §6.3 "scale back"), before date adjustments."""
    if actor.can(Cap.PUBLISH):
        return requested or "publish"
    if requested in (None, ""):
        return "draft"
    if requested in PUBLISHED:
        return "pending"
    return requested

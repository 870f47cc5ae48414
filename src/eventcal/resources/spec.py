"""The declaration of a collection: what one collection is, in one place.

A :class:`Resource` names the collection and its table, lists its writable :class:`Field`s (each
with its column, its argument parser, whether it has a text per language, and its description
for the index and ``/doc``), its list parameters and their SQL conditions, its
:class:`Relation`s to other collections, how it is presented, and its behaviour — the
rules of its family (posts: statuses, trash, per-item permissions; terms: taxonomies, counts,
deletion for good). The generic pipeline (:mod:`eventcal.resources.service`) and the generic
routes (:mod:`eventcal.resources.routes`) consume declarations; nothing generic asks which
collection it has.

Other collections are named, never imported: a relation names its target collection and the
:class:`~eventcal.resources.registry.Registry` binds the names, so the domain packages stay
independent of each other.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

import sqlalchemy as sa

from eventcal.http.args import MISSING, Arg, Parser
from eventcal.http.request import RequestState
from eventcal.i18n import N_

if TYPE_CHECKING:
    from eventcal.context import Call, Site
    from eventcal.http.args import Params
    from eventcal.http.responses import Reply
    from eventcal.http.router import Prepare, Route
    from eventcal.resources.listing import Listing, ListQuery
    from eventcal.resources.present import Presented
    from eventcal.resources.references import Reference
    from eventcal.resources.registry import Registry
    from eventcal.storage.db import Database, Row


def _translatable(parse: Parser) -> Parser:
    """A text that must not be empty, except in an update in another language than the site's
    default: there ``""`` removes that language's text (the default shows again)."""

    def parse_translatable(value: Any, state: RequestState) -> Any:
        if value == "" and state.language != state.site.default_language:
            return ""
        return parse(value, state)

    return parse_translatable


@dataclass(frozen=True, slots=True, eq=False)
class Field:
    """One writable field: its argument (parsing, index, ``/doc``) and where it is stored."""

    name: str
    """The API name in writes (``venue`` for a venue's name, ``start_date``…)."""
    description: str
    parse: Parser
    column: str | None = None
    """The column the parsed value is stored in (after ``store``); None when the collection's
    ``derive`` hook or a relation stores it."""
    store: Callable[[Any], Any] | None = None
    """Parsed value → column value (``bool``, ``clean_line``…); default: as parsed."""
    columns: Callable[[Any], dict[str, Any]] | None = None
    """Parsed value → several column values (an image: ``image_id`` and ``image_url``)."""
    translated: bool = False
    """It has a text per language (its ``column`` is also a translation field)."""
    required: bool = False
    """Required on create (updates change only what is sent)."""
    default: Any = MISSING
    type: str | None = None
    items: Mapping[str, Any] | None = None
    format: str | None = None
    enum: Sequence[str] | None = None
    schema: Mapping[str, Any] | None = None
    nullable: bool = False
    """JSON ``null`` is a value of the field (it clears it), not an absent field."""
    create_only: bool = False
    """Only a create takes it (an upload's file)."""

    def arg(self, *, create: bool) -> Arg:
        """The field's write argument (on update nothing is required, and a translated text
        may be ``""`` in another language, which removes that translation)."""
        parse = self.parse if create or not self.translated else _translatable(self.parse)
        return Arg(
            self.name,
            self.description,
            parse,
            type=self.type,
            required=create and self.required,
            default=self.default,
            items=self.items,
            format=self.format,
            enum=self.enum,
            location="body",
            schema=self.schema,
            nullable=self.nullable,
        )

    def values(self, value: Any) -> dict[str, Any]:
        """Column values for a parsed value."""
        if self.columns is not None:
            return self.columns(value)
        if self.column is None:
            return {}
        return {self.column: self.store(value) if self.store is not None else value}


@dataclass(frozen=True, slots=True, eq=False)
class ColumnLink:
    """A link held by a column of the source table (an event's ``venue_id``): at most one."""

    column: sa.Column[Any]


@dataclass(frozen=True, slots=True, eq=False)
class TableLink:
    """Links held by a table of (source id, target id) rows: any number."""

    table: sa.Table
    source: sa.Column[Any]
    target: sa.Column[Any]
    position: sa.Column[Any] | None = None
    """Kept in the order given (organizers); otherwise ordered by the target's ``order``."""


Link = ColumnLink | TableLink


@dataclass(frozen=True, slots=True, eq=False)
class Relation:
    """Items of another collection that an item links to (an event's venue, organizers,
    categories, tags). The target is named; the registry binds it."""

    name: str
    """The field that carries it in writes and responses."""
    target: str
    """The target collection (``venues``)."""
    link: Link
    counted: bool = False
    """The target keeps a count of the published sources linking to it (term counts)."""
    too_many: str = N_("{param} takes one item.")
    """The message when a write names more than one target for a column link."""


@dataclass(frozen=True, slots=True)
class Messages:
    """Errors that name the collection (one message each, so each translates on its own with
    its own grammar); the generic wording serves collections that do not word their own."""

    not_found: str | None = None
    """An unknown id is a 404 with this message (events); without it, an invalid ``id``
    parameter (400), reported before any permission check."""
    other_kind: str | None = None
    """An id of another collection's item is a 400 with this message (events)."""
    not_accessible: str = N_("The requested item is not accessible")
    no_archive_page: str = N_("The requested archive page does not exist")
    not_created: str = N_("The item could not be created")
    not_updated: str = N_("The item could not be updated")
    already_trashed: str = N_("The item is already trashed")
    not_created_inline: str = N_("The item could not be created from the provided data")
    exists: str = N_("An item with the name provided already exists.")
    """Creating a term whose name is taken."""
    trashed: str | None = None
    """A single read of a trashed item is refused with this (events)."""
    password_required: str | None = None
    """A single read of a protected item without its password is refused with this (events);
    without it the protected content is blanked instead (venues, organizers)."""


Twin = Callable[["Call", "Resource", Mapping[str, Any]], Awaitable["Row | None"]]
"""``(call, resource, fields sent) → an existing identical item`` that a create returns instead
of making a copy (venues and organizers, as the original)."""
Upkeep = Callable[["Database", "Registry", "Site", datetime], Awaitable[int]]
"""``(database, registry, site, now) → items changed``."""
AlsoLoad = Callable[["Call", "Resource", Sequence["Row"]], Awaitable[list["Row"]]]
Derive = Callable[["Call", dict[str, Any], "Row | None"], Awaitable[dict[str, Any]]]
"""``(call, fields sent, current row or None) → more column values`` (event dates, a venue's
state/province): what a collection computes from several fields."""
Present = Callable[["Row", "Presented"], dict[str, Any]]
"""A row (localised) → its JSON object."""


@dataclass(frozen=True, slots=True)
class Shown:
    """An item as the caller may see it (its JSON object), with its localised row for the facts
    the JSON does not carry (its revision, a series' dates)."""

    item: dict[str, Any]
    row: Row


Gather = Callable[
    ["Call", "Resource", Sequence[Shown], "ListQuery | None", "str | None"], Awaitable[Any]
]
"""``(call, collection, items shown, the listing's query or None for one item, the read's
password) → what the renderer needs beyond the items`` (a series' other occurrences), loaded
in bulk."""
Render = Callable[["Call", "Resource", Sequence[Shown], Any], bytes]
"""``(call, collection, items shown, what ``gather`` found) → the body``: pure CPU work, run
in a worker thread."""


@dataclass(frozen=True, slots=True, eq=False)
class Format:
    """Another representation of a collection (iCalendar): ``/{collection}.{extension}`` (the
    listing, every matching item in one body) and ``/{collection}/{id}.{extension}``."""

    extension: str
    media_type: str
    render: Render
    max_items: Callable[[Site], int]
    """The most items one body holds (a setting); beyond it the request is refused."""
    too_many: str
    """The refusal's message (``{total}``, ``{limit}``, ``{setting}``)."""
    setting: str
    """The setting that holds ``max_items`` (named in the refusal)."""
    gather: Gather | None = None
    item_key: str = ""
    """The key of the item's URL in this format in its JSON object (``ical_url``)."""
    list_keys: tuple[tuple[str, str], ...] = ()
    """``(key, scheme)`` of the listing's URLs in this format in the archive body (``ical_url``
    as served, ``webcal_url`` with the ``webcal`` scheme)."""
    summary: str = ""


class Hooks(Protocol):
    """Where a collection's writes differ beyond its fields (recurring series): every method is
    called by the pipeline at a fixed point, for every write of the collection."""

    async def target(
        self, state: RequestState, resource: Resource, row: Row, params: Params
    ) -> Row:
        """The row an update or delete of ``row`` applies to (an occurrence's series, or the
        new half of a split), after ``row``'s permission and ``If-Match`` checks; the row
        returned is checked for permission too."""

    async def after_write(
        self,
        call: Call,
        resource: Resource,
        before: Row | None,
        after: Row,
        sent: Mapping[str, Any],
    ) -> bool:
        """After a create (``before`` None) or an update, links and translations written;
        ``sent`` holds every field sent, translated ones too (written in ``call.translating``).
        True when it may have written to the item's row (the reply then reads it again)."""

    async def delete(
        self, state: RequestState, resource: Resource, row: Row, params: Params
    ) -> Reply | None:
        """A delete the collection answers itself (cancelling one occurrence), or None."""


@dataclass(frozen=True, slots=True, eq=False)
class Resource:
    """One collection (see the module docstring)."""

    name: str
    """The item's kind: its type in the shared id space and its key in translations and the
    change log (``event``; terms use their taxonomy, ``tribe_events_cat``)."""
    collection: str
    """The URL segment and the archive's key (``events``)."""
    label: str
    """How the docs name one item (``event``, ``event category``)."""
    table: sa.Table
    fields: tuple[Field, ...]
    behaviour: Any
    """The rules of its family (``resources.posts.Posts``, ``domains.terms.behaviour.Terms``,
    ``domains.media.behaviour.Media``): the pipeline calls the same methods on each."""
    present: Present
    schema: str
    """The OpenAPI component of one item."""
    listing: Listing
    relations: tuple[Relation, ...] = ()
    messages: Messages = field(default_factory=Messages)
    derive: Derive | None = None
    twin: Twin | None = None
    hooks: Hooks | None = None
    force_delete: bool = False
    """``DELETE ?force=true`` deletes an item for good instead of trashing it (wp/v2's
    ``force``), with the delete permission; the family's ``delete`` does it."""
    item_args: tuple[Arg, ...] = ()
    """More arguments of the item's update and delete endpoints (an occurrence's ``scope``)."""
    more_routes: Callable[[Resource], Sequence[Route]] | None = None
    """Routes of the collection beyond the generic ones (a series' occurrences)."""
    upkeep: Upkeep | None = None
    """Work the scheduler does for the collection now and then, in every process (extending
    recurring series): idempotent, and writing only when something is due."""
    counts: Callable[[Row], bool] | None = None
    """Whether an item counts in the counts its relations keep (default: published items)."""
    name_field: str = "title"
    """The column holding the item's name (``title``; ``name`` for terms)."""
    read_schema: str | None = None
    """The OpenAPI component of a single read, when it differs (events add JSON-LD)."""
    components: Mapping[str, Any] = field(default_factory=dict)
    """OpenAPI components the collection brings (its item schema and what it embeds)."""
    embed: Present | None = None
    """How another collection's items embed this one's (default: ``present``)."""
    linked_data: Present | None = None
    """The item's schema.org object where another collection's JSON-LD names it (an event's
    ``location``): what the caller may see of it."""
    scope: tuple[str, str] | None = None
    """``(column, value)``: the rows of ``table`` that belong to the collection (categories
    and tags share the term table, told apart by ``taxonomy``)."""
    image_column: str | None = None
    """The column of the item's media id, when it has an image (loaded with the page)."""
    neutral_columns: frozenset[str] = frozenset()
    """Columns no listing condition of any collection reads but as searched text: an update
    that changes only these is logged as a ``text`` change (``resources.changes.aspect``)."""
    also_load: AlsoLoad | None = None
    """More rows of the collection that showing some needs (a category's ancestors, for its
    URL): loaded in bulk with a page, translated with it (``Presented.loaded.extra``)."""
    shown_with: Callable[[Row], Sequence[int] | None] | None = None
    """The ids of the rows ``also_load`` gives an item that its JSON is built from, so the
    item cache drops it when they change; None (or no function): the item depends on more
    (the clock) and is built every time a page needs extra rows."""
    reference: Reference | None = None
    """How other collections' writes and filters name this one's items, when they can."""
    order: tuple[sa.ColumnElement[Any], ...] = ()
    """How embedded items of this collection are ordered when loaded through a relation."""
    plural: str = ""
    """How the docs name several items (default: the collection's name)."""
    summaries: Mapping[str, str] = field(default_factory=dict)
    """OpenAPI summaries the collection words itself (keys of ``routes.Summaries``)."""
    archive_schema: str = ""
    """The OpenAPI component of the archive (default: ``{schema}Archive``)."""
    refers: tuple[Relation, ...] = ()
    """Relations a field keeps in its own columns (the featured image's ``image_id``): the
    pipeline neither writes nor loads them, but the registry knows them, so the target finds
    the items that point at it (a media item in use)."""
    accepts_files: bool = False
    """Creates take a file (an upload): the body itself or a multipart file part."""
    formats: tuple[Format, ...] = ()
    """Other representations of the listing and the items (``formats.format_routes``)."""
    prepare_create: Prepare | None = None
    """Work on a create's parameters before its transaction opens (decoding an upload)."""
    errors: Mapping[str, Mapping[int, str]] = field(default_factory=dict)
    """More error responses ``/doc`` lists, by operation (``create``, ``delete``)."""

    def __post_init__(self) -> None:
        if not self.plural:
            object.__setattr__(self, "plural", self.collection)
        if not self.archive_schema:
            object.__setattr__(self, "archive_schema", f"{self.schema}Archive")

    @property
    def id_description(self) -> str:
        return f"the {self.label} {self.behaviour.id_word} ID"

    @property
    def translated(self) -> dict[str, str]:
        """API names of the fields that have a text per language → their columns."""
        return {f.name: f.column for f in self.fields if f.translated and f.column}

    @property
    def translated_columns(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.translated.values()))

    def create_args(self) -> tuple[Arg, ...]:
        return tuple(f.arg(create=True) for f in self.fields)

    def update_args(self) -> tuple[Arg, ...]:
        return tuple(f.arg(create=False) for f in self.fields if not f.create_only)

    def counted(self, row: Row | None) -> bool:
        """Whether the item counts in its targets' counts (term counts)."""
        if row is None:
            return False
        return self.counts(row) if self.counts is not None else self.behaviour.is_published(row)

    def owns(self, row: Row) -> bool:
        """Whether a row of the table belongs to the collection."""
        return self.scope is None or row[self.scope[0]] == self.scope[1]

    def scope_condition(self) -> list[sa.ColumnElement[bool]]:
        """The SQL form of :meth:`owns`."""
        if self.scope is None:
            return []
        column, value = self.scope
        return [self.table.c[column] == value]

    def relation(self, name: str) -> Relation:
        for relation in self.relations:
            if relation.name == name:
                return relation
        raise KeyError(f"{self.collection} has no relation {name!r}")

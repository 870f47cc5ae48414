"""The categories and tags collections (spec terms.md): one declaration, made twice."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from eventcal.domains.terms import store
from eventcal.domains.terms.behaviour import Terms
from eventcal.domains.terms.listing import CONDITIONS, list_args, orders, parent, prepare
from eventcal.domains.terms.present import (
    EMBEDDED_TERM,
    TERM_URLS,
    ancestors,
    embedded_term_json,
    term_presenter,
)
from eventcal.domains.terms.present import schema as schema_of
from eventcal.domains.terms.references import TermValues
from eventcal.errors import invalid
from eventcal.http.args import (
    Invalid,
    non_empty_string,
)
from eventcal.http.request import RequestState
from eventcal.i18n import N_
from eventcal.permissions import Cap
from eventcal.resources import parsers
from eventcal.resources.components import term_archive
from eventcal.resources.listing import Listing
from eventcal.resources.slugs import sanitize_slug
from eventcal.resources.spec import Field, Messages, Resource
from eventcal.storage.db import Row
from eventcal.storage.tables import CATEGORY_TAXONOMY, TAG_TAXONOMY, term

if TYPE_CHECKING:
    from eventcal.context import Call

_order = non_empty_string("order", max_length=20)
_orderby = non_empty_string("orderby", max_length=40)
_slug = non_empty_string("slug", max_length=200)
_name = non_empty_string("name", max_length=200)

# --- fields --------------------------------------------------------------------------------


def name(value: Any, state: RequestState) -> str:
    text = str(_name(value, state)).strip()
    if not text:
        raise Invalid()
    return text


def fields(taxonomy: str, label: str, hierarchical: bool) -> tuple[Field, ...]:
    found = [
        Field(
            "name",
            f"The {label} name",
            name,
            column="name",
            translated=True,
            required=True,
            type="string",
        ),
        Field(
            "description",
            f"The {label} description (an empty string clears it)",
            parsers.text("description"),
            column="description",
            translated=True,
            type="string",
        ),
        Field("slug", f"The {label} slug", _slug, column="slug", translated=True, type="string"),
    ]
    if hierarchical:
        found.append(
            Field(
                "parent", f"The {label} parent ID (0: top level)", parent(taxonomy), type="integer"
            )
        )
    return tuple(found)


async def derive(call: Call, sent: Mapping[str, Any], current: Row | None) -> dict[str, Any]:
    """A category's parent (never one of its own descendants); an updated slug normalised (an
    empty one is made from the name)."""
    values: dict[str, Any] = {}
    if "parent" in sent:
        wanted = int(sent["parent"] or 0)
        if current is not None and wanted:
            term_id = int(current["id"])
            below = await store.with_descendants(call.conn, current["taxonomy"], [term_id])
            if wanted in below:
                raise invalid("parent", "A category cannot be its own ancestor.")
        values["parent_id"] = wanted or None
    if "slug" in sent and current is not None:
        slug = sanitize_slug(str(sent["slug"]))
        values["slug"] = slug or sanitize_slug(str(sent.get("name") or current["name"]))
    return values


def taxonomy(
    *,
    value: str,
    collection: str,
    label: str,
    plural: str,
    hierarchical: bool,
    manage_caps: tuple[Cap, ...],
    exists: str,
    url_base: str,
    schema: str,
    linked_by: tuple[str, str],
) -> Resource:
    """A term collection: a taxonomy of the term table."""
    shared = {"TermUrls": TERM_URLS, "EmbeddedTerm": EMBEDDED_TERM}
    return Resource(
        name=value,
        collection=collection,
        label=label,
        plural=plural,
        table=term,
        fields=fields(value, label, hierarchical),
        behaviour=Terms(taxonomy=value, hierarchical=hierarchical, manage_caps=manage_caps),
        present=term_presenter(url_base),
        embed=embedded_term_json,
        schema=schema,
        listing=Listing(
            table=term,
            args=list_args(value, plural, hierarchical),
            conditions=CONDITIONS,
            orders=orders(),
            prepare=prepare(*linked_by),
        ),
        messages=Messages(exists=exists),
        derive=derive,
        name_field="name",
        scope=("taxonomy", value),
        order=(term.c.name, term.c.id),
        also_load=ancestors,
        reference=TermValues(),
        components={
            **shared,
            schema: schema_of(hierarchical),
            f"{schema}Archive": term_archive(collection, schema),
        },
    )


CATEGORIES = taxonomy(
    value=CATEGORY_TAXONOMY,
    collection="categories",
    label="event category",
    plural="event categories",
    hierarchical=True,
    manage_caps=(Cap.EDIT_POSTS, Cap.MANAGE_CATEGORIES),
    exists=N_("A term with the name provided already exists with this parent."),
    url_base="events/category",
    schema="Term",
    linked_by=("events", "categories"),
)
TAGS = taxonomy(
    value=TAG_TAXONOMY,
    collection="tags",
    label="event tag",
    plural="event tags",
    hierarchical=False,
    manage_caps=(Cap.EDIT_POSTS, Cap.MANAGE_TAGS),
    exists=N_("A term with the name provided already exists in this taxonomy."),
    url_base="tag",
    schema="Tag",
    linked_by=("events", "tags"),
)

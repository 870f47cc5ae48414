"""A collection declared from the generic parts alone is served like the built-in ones: its
table, a few field lines, its presenter — and every route, the index, ``/doc``, permissions,
translations and the change log come from the pipeline (docs/architecture.md's example)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from eventcal.app import create_app
from eventcal.collections import REGISTRY
from eventcal.config import Settings
from eventcal.http.args import Params, non_empty_string
from eventcal.http.request import RequestState
from eventcal.http.router import Router
from eventcal.resources import changes, parsers
from eventcal.resources.index import route_table
from eventcal.resources.listing import Listing, ListQuery
from eventcal.resources.posts import Posts
from eventcal.resources.posts import fields as post
from eventcal.resources.posts.present import author_string
from eventcal.resources.present import Presented
from eventcal.resources.registry import Registry
from eventcal.resources.spec import Field, Resource
from eventcal.storage.db import Row
from eventcal.storage.tables import post as post_table
from tests import factories
from tests.conftest import NS, Api

metadata = sa.MetaData()
note = sa.Table(
    "throwaway_note",
    metadata,
    sa.Column("id", sa.Integer, sa.ForeignKey(post_table.c.id), primary_key=True),
    sa.Column("author_id", sa.Integer, nullable=True),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("status_before_trash", sa.String(20), nullable=True),
    sa.Column("slug", sa.String(200), nullable=False, server_default=""),
    sa.Column("title", sa.Text, nullable=False),
    sa.Column("post_password", sa.String(255), nullable=False, server_default=""),
    sa.Column("published_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("date_floating", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("modified_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("revision", sa.Integer, nullable=False, server_default="1"),
    # The field of the example: one column here, one Field line below.
    sa.Column("mood", sa.Text, nullable=False, server_default=""),
)


def note_json(row: Row, ctx: Presented) -> dict[str, Any]:
    return {
        "id": row["id"],
        "author": author_string(row["author_id"]),
        "status": row["status"],
        "slug": row["slug"],
        "title": row["title"],
        "mood": row["mood"],
        "translations": ctx.languages(row),
    }


async def prepare(state: RequestState, params: Params, resource: Resource) -> ListQuery:
    query = ListQuery(params["page"], params["per_page"], context_edit=state.context_edit)
    status_link = post.restrict(state.call, query, params.get("status"))
    query.link = [("page", str(query.page)), ("per_page", str(query.per_page))]
    query.link.append(("status", status_link))
    return query


NOTES = Resource(
    name="note",
    collection="notes",
    label="note",
    table=note,
    fields=(
        post.author("note"),
        post.status("note"),
        Field(
            "title",
            "The note's title",
            non_empty_string("title"),
            column="title",
            translated=True,
            required=True,
            type="string",
        ),
        Field("mood", "How the note feels", parsers.text("mood"), column="mood", type="string"),
        post.password("note"),
    ),
    behaviour=Posts(wp_type="note"),
    present=note_json,
    schema="Note",
    listing=Listing(
        table=note,
        args=(*parsers.page_args("notes"), post.status_arg("note")),
        conditions=post.visibility(note),
        orders={"default": (note.c.published_at.desc(), note.c.id.desc())},
        prepare=prepare,
    ),
    components={"Note": {"type": "object"}, "NoteArchive": {"type": "object"}},
)


@pytest.fixture
def notes(settings: Settings, password_hash: str) -> Iterator[Api]:
    registry = Registry((*REGISTRY, NOTES))
    app = create_app(settings, clock=lambda: datetime(2026, 11, 22, 4, 46, tzinfo=UTC))
    runtime = app.state.runtime
    runtime.registry = registry
    app.router = app.state.router = Router(route_table(registry), runtime)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        helper = Api(client, runtime.database, password_hash)

        async def create_table() -> None:
            async with runtime.database.transaction() as conn:
                await conn.execute(sa.schema.DropTable(note, if_exists=True))
                await conn.execute(sa.schema.CreateTable(note))

        async def drop_table() -> None:
            async with runtime.database.transaction() as conn:
                await conn.execute(sa.schema.DropTable(note, if_exists=True))

        helper.run(lambda: factories.empty_database(runtime.database))
        helper.run(create_table)
        try:
            yield helper
        finally:
            helper.run(drop_table)


def test_a_declared_collection_is_served_by_the_generic_pipeline(notes: Api) -> None:
    created = notes.post(f"{NS}/notes", json={"title": "First note", "mood": "calm"})
    assert created.status_code == 201, created.text
    body = created.json()
    assert (body["title"], body["mood"], body["slug"], body["status"]) == (
        "First note",
        "calm",
        "first-note",
        "publish",
    )
    assert created.headers["ETag"].startswith('"r1-')
    note_id = body["id"]
    listed = notes.get(f"{NS}/notes")
    assert listed.json()["notes"] == [body] and listed.headers["X-TEC-Total"] == "1"
    assert notes.get(f"{NS}/notes/by-slug/first-note").json()["id"] == note_id
    notes.patch(f"{NS}/notes/{note_id}", json={"mood": "glad"})
    german = notes.post(f"{NS}/notes/{note_id}?translation_language=de", json={"title": "Notiz"})
    assert german.json()["title"] == "Notiz"
    assert notes.get(f"{NS}/notes/{note_id}").json()["mood"] == "glad"
    assert notes.post(f"{NS}/notes", json={"mood": "x"}).status_code == 400  # title required
    refused = notes.post(f"{NS}/notes", json={"title": "No"}, as_=None)
    assert refused.status_code == 401
    assert notes.delete(f"{NS}/notes/{note_id}").json()["status"] == "trash"
    assert notes.delete(f"{NS}/notes/{note_id}").status_code == 410
    index = notes.get(NS).json()["routes"]
    assert f"/{NS.strip('/')}/notes/(?P<id>\\d+)" in index
    assert "/notes/by-slug/{slug}" in notes.get(f"{NS}/doc").json()["paths"]

    async def logged() -> list[tuple[str, str]]:
        async with notes.database.read() as conn:
            return [(r["kind"], r["action"]) for r in await changes.since(conn, 0)]

    assert notes.run(logged)[-5:] == [
        ("note", "create"),
        ("note", "update"),
        ("note", "translate"),
        ("note", "update"),
        ("note", "trash"),
    ]

"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "app_user",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("login", sa.String(length=60), nullable=False),
        sa.Column("display_name", sa.String(length=250), server_default="", nullable=False),
        sa.Column("email", sa.String(length=100), server_default="", nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_app_user")),
        sa.UniqueConstraint("login", name=op.f("uq_app_user_login")),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "post",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("type", sa.String(length=16), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_post")),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "term",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("taxonomy", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("slug", sa.String(length=200), nullable=False),
        sa.Column("description", sa.Text(), server_default="", nullable=False),
        sa.Column("parent_id", sa.Integer(), nullable=True),
        sa.Column("term_group", sa.Integer(), server_default="0", nullable=False),
        sa.Column("count", sa.Integer(), server_default="0", nullable=False),
        sa.ForeignKeyConstraint(["parent_id"], ["term.id"], name=op.f("fk_term_parent_id_term")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_term")),
        sa.UniqueConstraint("taxonomy", "slug", name=op.f("uq_term_taxonomy_slug")),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("term", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_term_parent_id"), ["parent_id"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_term_taxonomy_name"), ["taxonomy", "name"], unique=False
        )

    op.create_table(
        "app_password",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("label", sa.String(length=100), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["app_user.id"],
            name=op.f("fk_app_password_user_id_app_user"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_app_password")),
        sa.UniqueConstraint("user_id", "label", name=op.f("uq_app_password_user_id_label")),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "media",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("url", sa.String(length=2048), nullable=False),
        sa.Column("mime_type", sa.String(length=100), server_default="", nullable=False),
        sa.Column("extension", sa.String(length=16), server_default="", nullable=False),
        sa.Column("width", sa.Integer(), nullable=True),
        sa.Column("height", sa.Integer(), nullable=True),
        sa.Column("filesize", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["id"], ["post.id"], name=op.f("fk_media_id_post")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_media")),
    )
    with op.batch_alter_table("media", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_media_url"), ["url"], unique=False)

    op.create_table(
        "organizer",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("author_id", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("status_before_trash", sa.String(length=20), nullable=True),
        sa.Column("slug", sa.String(length=200), server_default="", nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("description", sa.Text(), server_default="", nullable=False),
        sa.Column("excerpt", sa.Text(), server_default="", nullable=False),
        sa.Column("post_password", sa.String(length=255), server_default="", nullable=False),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("date_floating", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("modified_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("image_id", sa.Integer(), nullable=True),
        sa.Column("image_url", sa.String(length=2048), nullable=True),
        sa.Column("phone", sa.Text(), server_default="", nullable=False),
        sa.Column("website", sa.Text(), server_default="", nullable=False),
        sa.Column("email", sa.Text(), server_default="", nullable=False),
        sa.ForeignKeyConstraint(
            ["author_id"],
            ["app_user.id"],
            name=op.f("fk_organizer_author_id_app_user"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(["id"], ["post.id"], name=op.f("fk_organizer_id_post")),
        sa.ForeignKeyConstraint(
            ["image_id"], ["media.id"], name=op.f("fk_organizer_image_id_media")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_organizer")),
    )
    with op.batch_alter_table("organizer", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_organizer_slug"), ["slug"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_organizer_status_published_at"), ["status", "published_at"], unique=False
        )
        batch_op.create_index(
            "uq_organizer_live_slug",
            ["slug"],
            unique=True,
            sqlite_where=sa.text("status IN ('publish', 'future', 'private')"),
            postgresql_where=sa.text("status IN ('publish', 'future', 'private')"),
        )

    op.create_table(
        "venue",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("author_id", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("status_before_trash", sa.String(length=20), nullable=True),
        sa.Column("slug", sa.String(length=200), server_default="", nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("description", sa.Text(), server_default="", nullable=False),
        sa.Column("excerpt", sa.Text(), server_default="", nullable=False),
        sa.Column("post_password", sa.String(length=255), server_default="", nullable=False),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("date_floating", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("modified_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("image_id", sa.Integer(), nullable=True),
        sa.Column("image_url", sa.String(length=2048), nullable=True),
        sa.Column("address", sa.Text(), server_default="", nullable=False),
        sa.Column("city", sa.Text(), server_default="", nullable=False),
        sa.Column("country", sa.Text(), server_default="", nullable=False),
        sa.Column("province", sa.Text(), server_default="", nullable=False),
        sa.Column("state", sa.Text(), server_default="", nullable=False),
        sa.Column("zip", sa.Text(), server_default="", nullable=False),
        sa.Column("phone", sa.Text(), server_default="", nullable=False),
        sa.Column("stateprovince", sa.Text(), server_default="", nullable=False),
        sa.Column("website", sa.Text(), server_default="", nullable=False),
        sa.Column("show_map", sa.Boolean(), server_default=sa.true(), nullable=False),
        sa.Column("show_map_link", sa.Boolean(), server_default=sa.true(), nullable=False),
        sa.Column("latitude", sa.Float(), nullable=True),
        sa.Column("longitude", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["author_id"],
            ["app_user.id"],
            name=op.f("fk_venue_author_id_app_user"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(["id"], ["post.id"], name=op.f("fk_venue_id_post")),
        sa.ForeignKeyConstraint(["image_id"], ["media.id"], name=op.f("fk_venue_image_id_media")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_venue")),
    )
    with op.batch_alter_table("venue", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_venue_slug"), ["slug"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_venue_status_published_at"), ["status", "published_at"], unique=False
        )
        batch_op.create_index(
            "uq_venue_live_slug",
            ["slug"],
            unique=True,
            sqlite_where=sa.text("status IN ('publish', 'future', 'private')"),
            postgresql_where=sa.text("status IN ('publish', 'future', 'private')"),
        )

    op.create_table(
        "event",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("author_id", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("status_before_trash", sa.String(length=20), nullable=True),
        sa.Column("slug", sa.String(length=200), server_default="", nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("description", sa.Text(), server_default="", nullable=False),
        sa.Column("excerpt", sa.Text(), server_default="", nullable=False),
        sa.Column("post_password", sa.String(length=255), server_default="", nullable=False),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("date_floating", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("modified_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("image_id", sa.Integer(), nullable=True),
        sa.Column("image_url", sa.String(length=2048), nullable=True),
        sa.Column("parent_id", sa.Integer(), nullable=True),
        sa.Column("timezone", sa.String(length=64), nullable=False),
        sa.Column("all_day", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("start_local", sa.DateTime(), nullable=False),
        sa.Column("end_local", sa.DateTime(), nullable=False),
        sa.Column("start_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("end_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("cost", sa.Text(), server_default="", nullable=False),
        sa.Column("currency_symbol", sa.String(length=16), server_default="", nullable=False),
        sa.Column("currency_position", sa.String(length=8), server_default="", nullable=False),
        sa.Column("website", sa.Text(), nullable=True),
        sa.Column("show_map", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("show_map_link", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("hide_from_listings", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("sticky", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("featured", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("ticketed", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("venue_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["author_id"],
            ["app_user.id"],
            name=op.f("fk_event_author_id_app_user"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(["id"], ["post.id"], name=op.f("fk_event_id_post")),
        sa.ForeignKeyConstraint(["image_id"], ["media.id"], name=op.f("fk_event_image_id_media")),
        sa.ForeignKeyConstraint(["parent_id"], ["event.id"], name=op.f("fk_event_parent_id_event")),
        sa.ForeignKeyConstraint(["venue_id"], ["venue.id"], name=op.f("fk_event_venue_id_venue")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_event")),
    )
    with op.batch_alter_table("event", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_event_featured_start_at"), ["featured", "start_at"], unique=False
        )
        batch_op.create_index(
            "ix_event_listing",
            ["status", "hide_from_listings", "start_at", "end_at"],
            unique=False,
        )
        batch_op.create_index(batch_op.f("ix_event_parent_id"), ["parent_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_event_slug"), ["slug"], unique=False)
        batch_op.create_index(batch_op.f("ix_event_venue_id"), ["venue_id"], unique=False)
        batch_op.create_index(
            "uq_event_live_slug",
            ["slug"],
            unique=True,
            sqlite_where=sa.text("status IN ('publish', 'future', 'private')"),
            postgresql_where=sa.text("status IN ('publish', 'future', 'private')"),
        )

    op.create_table(
        "event_organizer",
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("organizer_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["event.id"],
            name=op.f("fk_event_organizer_event_id_event"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["organizer_id"],
            ["organizer.id"],
            name=op.f("fk_event_organizer_organizer_id_organizer"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("event_id", "organizer_id", name=op.f("pk_event_organizer")),
    )
    with op.batch_alter_table("event_organizer", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_event_organizer_organizer_id_event_id"),
            ["organizer_id", "event_id"],
            unique=False,
        )

    op.create_table(
        "event_term",
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("term_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["event.id"],
            name=op.f("fk_event_term_event_id_event"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["term_id"], ["term.id"], name=op.f("fk_event_term_term_id_term"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("event_id", "term_id", name=op.f("pk_event_term")),
    )
    with op.batch_alter_table("event_term", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_event_term_term_id_event_id"), ["term_id", "event_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("event_term", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_event_term_term_id_event_id"))

    op.drop_table("event_term")
    with op.batch_alter_table("event_organizer", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_event_organizer_organizer_id_event_id"))

    op.drop_table("event_organizer")
    with op.batch_alter_table("event", schema=None) as batch_op:
        batch_op.drop_index(
            "uq_event_live_slug",
            sqlite_where=sa.text("status IN ('publish', 'future', 'private')"),
            postgresql_where=sa.text("status IN ('publish', 'future', 'private')"),
        )
        batch_op.drop_index(batch_op.f("ix_event_venue_id"))
        batch_op.drop_index(batch_op.f("ix_event_slug"))
        batch_op.drop_index(batch_op.f("ix_event_parent_id"))
        batch_op.drop_index("ix_event_listing")
        batch_op.drop_index(batch_op.f("ix_event_featured_start_at"))

    op.drop_table("event")
    with op.batch_alter_table("venue", schema=None) as batch_op:
        batch_op.drop_index(
            "uq_venue_live_slug",
            sqlite_where=sa.text("status IN ('publish', 'future', 'private')"),
            postgresql_where=sa.text("status IN ('publish', 'future', 'private')"),
        )
        batch_op.drop_index(batch_op.f("ix_venue_status_published_at"))
        batch_op.drop_index(batch_op.f("ix_venue_slug"))

    op.drop_table("venue")
    with op.batch_alter_table("organizer", schema=None) as batch_op:
        batch_op.drop_index(
            "uq_organizer_live_slug",
            sqlite_where=sa.text("status IN ('publish', 'future', 'private')"),
            postgresql_where=sa.text("status IN ('publish', 'future', 'private')"),
        )
        batch_op.drop_index(batch_op.f("ix_organizer_status_published_at"))
        batch_op.drop_index(batch_op.f("ix_organizer_slug"))

    op.drop_table("organizer")
    with op.batch_alter_table("media", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_media_url"))

    op.drop_table("media")
    op.drop_table("app_password")
    with op.batch_alter_table("term", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_term_taxonomy_name"))
        batch_op.drop_index(batch_op.f("ix_term_parent_id"))

    op.drop_table("term")
    op.drop_table("post")
    op.drop_table("app_user")

"""media library: uploaded items' metadata, their files' bytes, indexes on image_id

``media`` is rebuilt by a batch on SQLite (it has no triggers); ``event``, ``venue`` and
``organizer`` only get an index each (never a batch: ``event`` keeps its triggers).

Revision ID: 0013_media
Revises: 0012
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_media"
down_revision = "0012"
branch_labels = None
depends_on = None

IMAGE_TABLES = ("event", "venue", "organizer")
MEDIA_INDEXES = {
    "ix_media_created_at_id": ["created_at", "id"],
    "ix_media_parent_id": ["parent_id"],
    "ix_media_mime_type": ["mime_type"],
}


def upgrade() -> None:
    with op.batch_alter_table("media", schema=None) as batch_op:
        batch_op.add_column(sa.Column("author_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("parent_id", sa.Integer(), nullable=True))
        for name in ("title", "alt_text", "caption"):
            batch_op.add_column(sa.Column(name, sa.Text(), nullable=False, server_default=""))
        batch_op.add_column(
            sa.Column("file_name", sa.String(length=255), nullable=False, server_default="")
        )
        batch_op.add_column(sa.Column("sizes", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("modified_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("revision", sa.Integer(), nullable=False, server_default="1"))
        batch_op.create_foreign_key(
            batch_op.f("fk_media_author_id_app_user"),
            "app_user",
            ["author_id"],
            ["id"],
            ondelete="SET NULL",
        )
        batch_op.create_foreign_key(
            batch_op.f("fk_media_parent_id_post"),
            "post",
            ["parent_id"],
            ["id"],
            ondelete="SET NULL",
        )
        for name, columns in MEDIA_INDEXES.items():
            batch_op.create_index(name, columns, unique=False)
    op.create_table(
        "media_file",
        sa.Column("media_id", sa.Integer(), nullable=False),
        sa.Column("size", sa.String(length=16), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=255), nullable=False),
        sa.Column("mime_type", sa.String(length=100), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(
            ["media_id"],
            ["media.id"],
            name=op.f("fk_media_file_media_id_media"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("media_id", "size", name=op.f("pk_media_file")),
    )
    op.create_index("ix_media_file_hash", "media_file", ["hash"], unique=True)
    for table in IMAGE_TABLES:
        op.create_index(f"ix_{table}_image_id", table, ["image_id"], unique=False)


def downgrade() -> None:
    for table in IMAGE_TABLES:
        op.drop_index(f"ix_{table}_image_id", table_name=table)
    op.drop_index("ix_media_file_hash", table_name="media_file")
    op.drop_table("media_file")
    with op.batch_alter_table("media", schema=None) as batch_op:
        for name in MEDIA_INDEXES:
            batch_op.drop_index(name)
        batch_op.drop_constraint(batch_op.f("fk_media_parent_id_post"), type_="foreignkey")
        batch_op.drop_constraint(batch_op.f("fk_media_author_id_app_user"), type_="foreignkey")
        for name in (
            "revision",
            "modified_at",
            "sizes",
            "file_name",
            "caption",
            "alt_text",
            "title",
            "parent_id",
            "author_id",
        ):
            batch_op.drop_column(name)

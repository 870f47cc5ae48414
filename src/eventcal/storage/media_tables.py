"""The media library: an item's details (``media``, a post: it takes its id from ``post``) and
the bytes of an uploaded item's sizes (``media_file``). Declared on the schema's shared
``metadata``; :mod:`.tables` re-exports them with the content tables."""

from __future__ import annotations

import sqlalchemy as sa

from eventcal.storage.service_tables import UtcDateTime, metadata

media = sa.Table(
    "media",
    metadata,
    sa.Column("id", sa.Integer, sa.ForeignKey("post.id"), primary_key=True, autoincrement=False),
    sa.Column("url", sa.String(2048), nullable=False),
    sa.Column("mime_type", sa.String(100), nullable=False, server_default=""),
    sa.Column("extension", sa.String(16), nullable=False, server_default=""),
    sa.Column("width", sa.Integer, nullable=True),
    sa.Column("height", sa.Integer, nullable=True),
    sa.Column("filesize", sa.Integer, nullable=True),
    sa.Column("created_at", UtcDateTime, nullable=False),
    # Uploaded items (issue 16); imported ones leave these at their defaults.
    sa.Column(
        "author_id", sa.Integer, sa.ForeignKey("app_user.id", ondelete="SET NULL"), nullable=True
    ),
    sa.Column(
        "parent_id", sa.Integer, sa.ForeignKey("post.id", ondelete="SET NULL"), nullable=True
    ),
    sa.Column("title", sa.Text, nullable=False, server_default=""),
    sa.Column("alt_text", sa.Text, nullable=False, server_default=""),
    sa.Column("caption", sa.Text, nullable=False, server_default=""),
    sa.Column("file_name", sa.String(255), nullable=False, server_default=""),
    # The renditions' details as JSON ({"thumbnail": {"width": …, "url": …}, …}): shown with
    # every image without a second query.
    sa.Column("sizes", sa.Text, nullable=True),
    sa.Column("modified_at", UtcDateTime, nullable=True),
    sa.Column("revision", sa.Integer, nullable=False, server_default="1"),
    sa.Index(None, "url"),
    sa.Index(None, "created_at", "id"),
    sa.Index(None, "parent_id"),
    sa.Index(None, "mime_type"),
)

media_file = sa.Table(
    "media_file",
    metadata,
    # The bytes of an uploaded item, one row per size (``full``, ``thumbnail``…); deleting the
    # item deletes them.
    sa.Column(
        "media_id",
        sa.Integer,
        sa.ForeignKey("media.id", ondelete="CASCADE"),
        primary_key=True,
        autoincrement=False,
    ),
    sa.Column("size", sa.String(16), primary_key=True),
    sa.Column("hash", sa.String(64), nullable=False),
    sa.Column("name", sa.String(255), nullable=False),
    sa.Column("mime_type", sa.String(100), nullable=False),
    sa.Column("data", sa.LargeBinary, nullable=False),
    sa.Index(None, "hash", unique=True),
)

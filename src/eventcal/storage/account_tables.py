"""The accounts: users and their application passwords (HTTP Basic). Declared on the schema's
shared ``metadata``; :mod:`.tables` re-exports them with the content tables."""

from __future__ import annotations

import sqlalchemy as sa

from eventcal.storage.service_tables import UtcDateTime, metadata

app_user = sa.Table(
    "app_user",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("login", sa.String(60), nullable=False, unique=True),
    sa.Column("display_name", sa.String(250), nullable=False, server_default=""),
    sa.Column("email", sa.String(100), nullable=False, server_default=""),
    sa.Column("role", sa.String(20), nullable=False),
    sa.Column("created_at", UtcDateTime, nullable=False),
    sqlite_autoincrement=True,
)

app_password = sa.Table(
    "app_password",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column(
        "user_id", sa.Integer, sa.ForeignKey("app_user.id", ondelete="CASCADE"), nullable=False
    ),
    sa.Column("label", sa.String(100), nullable=False),
    sa.Column("password_hash", sa.String(200), nullable=False),
    sa.Column("created_at", UtcDateTime, nullable=False),
    sa.Column("last_used_at", UtcDateTime, nullable=True),
    sa.UniqueConstraint("user_id", "label"),
    sqlite_autoincrement=True,
)

"""content translations

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "translation",
        sa.Column("item_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=False),
        sa.Column("field", sa.String(length=32), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint(
            "item_id", "kind", "language", "field", name=op.f("pk_translation")
        ),
    )
    op.create_index(
        "uq_translation_slug",
        "translation",
        ["kind", "language", "value"],
        unique=True,
        sqlite_where=sa.text("field = 'slug'"),
        postgresql_where=sa.text("field = 'slug'"),
    )


def downgrade() -> None:
    op.drop_index("uq_translation_slug", table_name="translation")
    op.drop_table("translation")

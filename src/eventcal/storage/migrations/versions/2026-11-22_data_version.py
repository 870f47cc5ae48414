"""data version: a counter of committed writes

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    table = op.create_table(
        "data_version",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("version", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_data_version")),
    )
    op.bulk_insert(table, [{"id": 1, "version": 1}])


def downgrade() -> None:
    op.drop_table("data_version")

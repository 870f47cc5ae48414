"""idempotency keys: the first response to a write sent with an Idempotency-Key

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "idempotency_key",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=255), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("headers", sa.Text(), nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("user_id", "key", name=op.f("pk_idempotency_key")),
    )
    with op.batch_alter_table("idempotency_key", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_idempotency_key_expires_at"), ["expires_at"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("idempotency_key", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_idempotency_key_expires_at"))
    op.drop_table("idempotency_key")

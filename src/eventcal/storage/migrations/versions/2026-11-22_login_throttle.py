"""login throttle: failed logins per login and per client address

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "login_throttle",
        sa.Column("scope", sa.String(length=8), nullable=False),
        sa.Column("subject", sa.String(length=100), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("window_started_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("scope", "subject", name=op.f("pk_login_throttle")),
    )
    with op.batch_alter_table("login_throttle", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_login_throttle_window_started_at"), ["window_started_at"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("login_throttle", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_login_throttle_window_started_at"))
    op.drop_table("login_throttle")

"""The schema's shared parts (metadata, naming convention, date-time column types) and the
service's own tables: the data version, the change log, idempotency keys and the login
throttle. They hold the service's bookkeeping, not content; :mod:`.tables` declares the
content on the same ``metadata`` (Alembic compares the migrated schema with both)."""

from __future__ import annotations

import sqlalchemy as sa

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = sa.MetaData(naming_convention=NAMING_CONVENTION)

UtcDateTime = sa.DateTime(timezone=True)
LocalDateTime = sa.DateTime(timezone=False)

data_version = sa.Table(
    "data_version",
    metadata,
    # One row. Every committed write transaction adds 1 (storage.db does it just before COMMIT),
    # so "has anything changed since version N?" is one read, shared by every process: it keys
    # response caches and ETags. It only ever grows.
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("version", sa.BigInteger, nullable=False),
)

idempotency_key = sa.Table(
    "idempotency_key",
    metadata,
    # The first successful response to a write sent with an ``Idempotency-Key``, per caller
    # and key, stored in the write's own transaction and replayed to retries until it expires.
    sa.Column("user_id", sa.Integer, primary_key=True),
    sa.Column("key", sa.String(255), primary_key=True),
    sa.Column("fingerprint", sa.String(64), nullable=False),
    sa.Column("status", sa.Integer, nullable=False),
    sa.Column("headers", sa.Text, nullable=False),
    sa.Column("body", sa.LargeBinary, nullable=False),
    sa.Column("expires_at", UtcDateTime, nullable=False),
    sa.Index(None, "expires_at"),
)

login_throttle = sa.Table(
    "login_throttle",
    metadata,
    # Failed HTTP Basic logins in the current window, per login and per client address, shared
    # by every process. A window starts at its first failure; rows of past windows are deleted.
    sa.Column("scope", sa.String(8), primary_key=True),
    sa.Column("subject", sa.String(100), primary_key=True),
    sa.Column("failures", sa.Integer, nullable=False),
    sa.Column("window_started_at", UtcDateTime, nullable=False),
    sa.Index(None, "window_started_at"),
)

change = sa.Table(
    "change",
    metadata,
    # The change log: one row per item a committed write transaction changed, in commit order.
    # ``version`` is the data version the transaction committed as (every write transaction
    # takes the next one while it holds data_version's row lock, so versions follow commit
    # order); ``position`` orders the changes of one transaction. Written in the transaction
    # that made the change (storage.db flushes it with the version bump); reads never touch it.
    sa.Column("version", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("position", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("item_id", sa.Integer, nullable=False),
    sa.Column("action", sa.String(16), nullable=False),
    sa.Column("revision", sa.Integer, nullable=True),
    sa.Column("language", sa.String(8), nullable=True),
    sa.Column("changed_at", UtcDateTime, nullable=False),
    # What an update touched, when that is less than "anything": ``text`` when every column it
    # changed is one that no listing condition reads but a search (``Resource.neutral_columns``);
    # NULL otherwise. Caches of listing totals keep what such a change cannot move.
    sa.Column("aspect", sa.String(8), nullable=True),
    sa.Index(None, "kind", "item_id", "version"),
)

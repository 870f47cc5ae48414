"""Logging in with HTTP Basic reads the user and their application passwords in one statement
(each authenticated write pays it), whichever of their passwords is presented."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from eventcal.domains.accounts import credentials
from eventcal.domains.accounts.throttle import LoginPolicy
from eventcal.errors import Unauthorized
from eventcal.storage.tables import app_password, app_user
from tests.conftest import PASSWORD, Api

POLICY = LoginPolicy(failure_delay=0)


def log_in(api: Api, login: str, password: str = PASSWORD) -> tuple[int, int]:
    """The user id and the statements the login took."""

    async def attempt() -> tuple[int, int]:
        before = api.database.statement_count
        user = await credentials.log_in(
            api.database, login, password, address="192.0.2.1", now=datetime.now(UTC), policy=POLICY
        )
        return user.id, api.database.statement_count - before

    return api.run(attempt)


def test_a_verified_login_takes_two_reads(api: Api) -> None:
    user_id = api.user("administrator", "admin")
    assert log_in(api, "admin")[0] == user_id  # verified (argon2), its use noted
    assert log_in(api, "admin") == (user_id, 2)  # the throttle's row, then the credentials


def test_any_of_a_users_passwords_logs_in_and_none_is_refused(api: Api) -> None:
    user_id = api.user("editor", "two")
    second = credentials.hash_password("second password 9")

    async def add_password() -> None:
        async with api.database.transaction() as conn:
            await conn.execute(
                sa.insert(app_password).values(
                    user_id=user_id,
                    label="second",
                    password_hash=second,
                    created_at=datetime.now(UTC),
                )
            )
            await conn.execute(
                sa.insert(app_user).values(
                    login="none", role="editor", display_name="none", created_at=datetime.now(UTC)
                )
            )

    api.run(add_password)
    assert log_in(api, "two")[0] == user_id
    assert log_in(api, "two", "second password 9")[0] == user_id
    with pytest.raises(Unauthorized):
        log_in(api, "two", "not the password")
    with pytest.raises(Unauthorized):
        log_in(api, "none")

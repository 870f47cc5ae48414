"""Requests that may write (POST, PUT, PATCH, DELETE): the body, the ``Idempotency-Key``,
and one transaction holding both the write and the response stored for the key."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from starlette.requests import Request

from eventcal.http.args import parse_args
from eventcal.http.body import merge_sources, with_nulls
from eventcal.http.idempotency import HEADER, Idempotency, fingerprint, parse_key
from eventcal.http.negotiation import Negotiated
from eventcal.http.reading import read_body
from eventcal.http.request import Matched
from eventcal.http.responses import Outgoing, build, send
from eventcal.storage.db import TransactionConflict

if TYPE_CHECKING:
    from eventcal.http.router import Endpoint, Runtime


async def serve_change(
    runtime: Runtime,
    request: Request,
    matched: Matched,
    endpoint: Endpoint,
    query: dict[str, Any],
    *,
    envelope: bool,
    negotiated: Negotiated,
) -> Outgoing:
    """A request with a body (POST, PUT, PATCH, DELETE), in one transaction with the
    response it stores for its ``Idempotency-Key``, if it has one."""
    key = _idempotency_key(request, matched, endpoint)
    body = await read_body(
        request,
        runtime.limits,
        max_bytes=endpoint.max_body_bytes,
        accepts_files=endpoint.accepts_files,
    )
    raw = with_nulls(merge_sources(body.json, body.form, query), body.json)
    negotiated.choose(raw, runtime.site.default_language)
    guard = None
    if key is not None and matched.actor.user_id is not None:
        print_ = fingerprint(matched.method, request.scope["path"], raw, body.files)
        guard = Idempotency(
            matched.actor.user_id, key, print_, matched.now, runtime.idempotency_ttl
        )
        replay = await guard.stored(runtime.database)
        if replay is not None:
            return send(replay, None, head=False)
    # Files are parameters of the endpoints that take them (after the fingerprint, which
    # digests their bytes); a form field of the same name wins, and its parser refuses it.
    raw = {**body.files, **raw}
    if endpoint.prepare is not None:
        # Slow work on the parameters (decoding an upload) before the transaction: a SQLite
        # write transaction holds the database's one write lock while it runs.
        raw = await endpoint.prepare(raw, matched.actor)

    async def once() -> Outgoing:
        database = runtime.database
        context = database.transaction() if endpoint.writes else database.read()
        async with context as conn:
            if guard is not None:
                replay = await guard.claim(conn)
                if replay is not None:
                    return send(replay, None, head=False)
            state = matched.state(raw, conn, negotiated.language)
            state.if_match = request.headers.get("if-match")
            state.files = body.files
            params = await parse_args(endpoint.args, raw, state)
            reply = await endpoint.handler(state, params)
            tagged = reply.revision is not None
            built = build(reply, matched.headers, envelope, query.get("_fields"), tagged=tagged)
            if guard is not None and 200 <= reply.status < 300:
                await guard.save(conn, built)
        return send(built, None, head=False)

    return await retried(once)


CONFLICT_RETRIES = 3
"""Times a write that PostgreSQL rolled back to break a deadlock or a serialization conflict
is run again before its caller gets the 503 (nothing of it was written)."""


async def retried(write: Callable[[], Awaitable[Outgoing]]) -> Outgoing:
    """``write()``, run again when PostgreSQL rolled it back whole to break a deadlock or a
    serialization conflict (after a short random pause, so the writers that met no longer
    meet); the last conflict is the caller's 503."""
    for attempt in range(CONFLICT_RETRIES):
        try:
            return await write()
        except TransactionConflict:
            await asyncio.sleep((5 + secrets.randbelow(20)) / 1000 * (attempt + 1))
    return await write()


def _idempotency_key(request: Request, matched: Matched, endpoint: Endpoint) -> str | None:
    """The ``Idempotency-Key`` of a write by a known caller (400 when malformed); None when
    there is none or it does not apply (anonymous callers cannot write)."""
    header = request.headers.get(HEADER)
    if header is None or not endpoint.writes or matched.actor.is_anonymous:
        return None
    return parse_key(header)

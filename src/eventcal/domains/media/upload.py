"""The ``file`` of an upload, in either of WordPress's forms: the whole body (``Content-Type:
image/…`` with ``Content-Disposition: attachment; filename="poster.jpg"``) or the multipart
field ``file``. It is validated and turned into the files to store before the create's
transaction opens, off the event loop (decoding and resizing take a while, and a SQLite write
transaction holds the database's write lock)."""

from __future__ import annotations

import asyncio
from typing import Any

from eventcal.domains.media.filenames import filename_from_disposition
from eventcal.domains.media.images import ImageRejected, Limits, Processed, process
from eventcal.errors import ApiError
from eventcal.http.args import Invalid
from eventcal.http.multipart import Upload
from eventcal.http.request import RequestState
from eventcal.i18n import N_
from eventcal.permissions import Actor, Cap

LIMITS = Limits()
"""10 MB, 50 megapixels (all frames counted), 200 frames."""


def cannot_upload(state: RequestState) -> ApiError:
    return ApiError(
        "rest_cannot_create",
        N_("Sorry, you are not allowed to upload media on this site."),
        401 if state.actor.is_anonymous else 403,
    )


async def prepare(params: dict[str, Any], actor: Actor) -> dict[str, Any]:
    """Before the create's transaction: the ``file`` of a caller who may upload, processed
    (a refusal is answered at once, and nothing was written)."""
    upload = params.get("file")
    if not isinstance(upload, Upload) or not actor.can(Cap.UPLOAD_FILES):
        return params  # the parser, in the transaction, says what is wrong
    return {**params, "file": await _process(upload)}


async def parse_file(value: Any, state: RequestState) -> Processed:
    """The upload processed (by :func:`prepare`, before the transaction); refused before
    anything is decoded when the caller may not upload, the body is empty or the raw form
    names no file."""
    if isinstance(value, Processed) and state.actor.can(Cap.UPLOAD_FILES):
        return value
    if not isinstance(value, Upload):
        raise Invalid(
            N_("Send the file as the body (Content-Type: image/…) or as the multipart field file.")
        )
    if not state.actor.can(Cap.UPLOAD_FILES):
        raise cannot_upload(state)
    return await _process(value)


async def _process(value: Upload) -> Processed:
    if not value.data:
        raise ImageRejected("rest_upload_no_data", N_("No data supplied."), 400)
    filename: str | None = value.filename
    if value.disposition is not None:
        filename = filename_from_disposition(value.disposition)
        if filename is None:
            raise ImageRejected(
                "rest_upload_no_content_disposition",
                N_(
                    "No file name supplied: send the header Content-Disposition: "
                    'attachment; filename="poster.jpg".'
                ),
                400,
            )
    return await asyncio.to_thread(process, value.data, filename=filename, limits=LIMITS)

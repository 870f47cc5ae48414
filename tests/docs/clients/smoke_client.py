"""The Python client's smoke test, run in its own process: every module of the client that
openapi-python-client generated from /doc imports, and create, list, read, update and delete an
event work through it. Usage: python smoke_client.py CLIENT_DIR BASE_URL LOGIN:PASSWORD."""

from __future__ import annotations

import base64
import importlib
import pkgutil
import sys
from typing import Any


def main(client_dir: str, base_url: str, credentials: str) -> None:
    sys.path.insert(0, client_dir)
    import eventcal_client

    for module in pkgutil.walk_packages(eventcal_client.__path__, "eventcal_client."):
        importlib.import_module(module.name)  # before: NameError: name 'Unset' is not defined
    print("ok import")
    from eventcal_client import AuthenticatedClient
    from eventcal_client.api.events import (
        delete_events_id,
        get_events,
        get_events_id,
        patch_events_id,
        post_events,
    )
    from eventcal_client.models import Event, EventArchive, PatchEventsIdBody, PostEventsBody

    token = base64.b64encode(credentials.encode()).decode()
    client = AuthenticatedClient(base_url=base_url, token=token, prefix="Basic")
    body = PostEventsBody.from_dict(
        {
            "title": "Python smoke",
            "start_date": "2030-01-01 10:00:00",
            "end_date": "2030-01-01 11:00:00",
            "categories": ["Concerts"],
            "venue": {"venue": "Hall", "city": "Berlin"},
        }
    )
    created = post_events.sync_detailed(client=client, body=body)
    check(created.status_code == 201 and isinstance(created.parsed, Event), "create", created)
    assert isinstance(created.parsed, Event)
    event_id = created.parsed.id
    listed = get_events.sync(
        client=client, start_date="2029-12-31", end_date="2030-01-02", search="Python smoke"
    )
    ids = [event.id for event in listed.events] if isinstance(listed, EventArchive) else []
    check(event_id in ids, "list", ids)
    read = get_events_id.sync(event_id, client=client)
    check(getattr(read, "title", None) == "Python smoke", "read", read)
    update = PatchEventsIdBody.from_dict({"title": "Python smoke 2"})
    updated = patch_events_id.sync(event_id, client=client, body=update)
    check(getattr(updated, "title", None) == "Python smoke 2", "update", updated)
    deleted = delete_events_id.sync_detailed(event_id, client=client)
    check(deleted.status_code == 200, "delete", deleted)


def check(condition: bool, step: str, detail: Any) -> None:
    if not condition:
        print(f"FAILED {step}: {detail!r}")
        raise SystemExit(1)
    print(f"ok {step}")


if __name__ == "__main__":
    main(*sys.argv[1:4])

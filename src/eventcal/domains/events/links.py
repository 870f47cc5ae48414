"""What an event links to: its venue, organizers, categories and tags (the collections are
named; the registry binds them)."""

from __future__ import annotations

from eventcal.i18n import N_
from eventcal.resources.spec import ColumnLink, Relation, TableLink
from eventcal.storage.tables import event, event_organizer, event_term

EVENT_TERMS = TableLink(event_term, event_term.c.event_id, event_term.c.term_id)
"""Categories and tags share one link table (and so one query when a page is loaded)."""

VENUE = Relation(
    "venue",
    target="venues",
    link=ColumnLink(event.c.venue_id),
    too_many=N_("An event can have only one venue."),
)
ORGANIZERS = Relation(
    "organizer",
    target="organizers",
    link=TableLink(
        event_organizer,
        event_organizer.c.event_id,
        event_organizer.c.organizer_id,
        position=event_organizer.c.position,
    ),
)
CATEGORIES = Relation("categories", target="categories", link=EVENT_TERMS, counted=True)
TAGS = Relation("tags", target="tags", link=EVENT_TERMS, counted=True)
RELATIONS = (VENUE, ORGANIZERS, CATEGORIES, TAGS)
"""In the order a write resolves them (inline venues first, new terms last)."""

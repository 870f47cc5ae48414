"""Every collection of the service, in the original's registration order."""

from __future__ import annotations

from eventcal.domains.events import EVENTS
from eventcal.domains.media import MEDIA
from eventcal.domains.places import ORGANIZERS, VENUES
from eventcal.domains.terms import CATEGORIES, TAGS
from eventcal.resources.registry import Registry

REGISTRY = Registry((EVENTS, VENUES, ORGANIZERS, CATEGORIES, TAGS, MEDIA))

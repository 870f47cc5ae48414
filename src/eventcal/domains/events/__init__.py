"""Events: the calendar's items, with their dates, costs and links."""

from eventcal.domains.events.collection import EVENTS

__all__ = ["EVENTS"]

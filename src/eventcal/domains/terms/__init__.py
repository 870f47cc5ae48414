"""Terms: the event categories and tags."""

from eventcal.domains.terms.collections import CATEGORIES, TAGS

__all__ = ["CATEGORIES", "TAGS"]

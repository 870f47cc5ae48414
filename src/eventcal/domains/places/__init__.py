"""Places: the venues and organizers events link to."""

from eventcal.domains.places.organizers import ORGANIZERS
from eventcal.domains.places.venues import VENUES

__all__ = ["ORGANIZERS", "VENUES"]

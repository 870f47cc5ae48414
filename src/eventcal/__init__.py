"""eventcal: an events calendar served over a JSON HTTP API (namespace ``cal/events/v1``)."""

__version__ = "0.1.0"

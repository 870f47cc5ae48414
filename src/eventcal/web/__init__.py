"""The calendar pages visitors see (``/calendar/…``): server-rendered HTML over the same
listing, service and presenters as the JSON API. A layer above the collections: it reads the
registry it is handed and imports no domain."""

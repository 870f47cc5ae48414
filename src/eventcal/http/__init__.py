"""HTTP, and nothing of the domain: matching and dispatch (``router``), argument tables
(``args``), bodies (``body``), the language (``negotiation``), callers (``auth``, ``client``),
responses (``responses``), conditional requests and the response cache (``conditional``),
headers (``headers``), errors (``errors``) and health checks (``health``)."""

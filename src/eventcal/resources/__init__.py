"""The generic layer: what a collection is (``spec``: the declaration types), the one pipeline
that serves any declared collection (``service``, ``routes``, ``listing``, ``present``,
``relations``), the families of collections (``posts``; terms are their domain's), and what
every collection shares: argument parsers, translations, slugs, dates, the change log, the
OpenAPI document and the index (``registry``, ``index``, ``openapi``)."""

"""Recurring series in the store: a master row holds the rule and the template; each occurrence
is an event row of its own, materialised up to a horizon.

Occurrences are matched to the rule by their nominal start (``occurrence_start``), so an edit of
the series keeps every occurrence's id: the rows are updated, only occurrences the rule no longer
makes are deleted and only new ones inserted (in bulk: a daily series of two years is 730 rows).
An occurrence keeps the fields set on it alone (``overrides``) when the series is edited.
"""

from eventcal.domains.events.series._bulk import (
    TABLE_RELATIONS,
    copy_links,
    copy_translations,
    delete_occurrences,
    links_of,
    recount,
)
from eventcal.domains.events.series._extend import FINISHED, extend
from eventcal.domains.events.series._materialise import (
    OCCURRENCES,
    insert_occurrences,
    materialise,
)
from eventcal.domains.events.series._model import (
    DATE_FIELDS,
    FIELD_COLUMNS,
    SERIES_FIELDS,
    TEMPLATE,
    counts,
    describe,
    horizon,
    is_master,
    overridden,
    overrides,
    refused,
    rule_of,
    template,
)
from eventcal.domains.events.series._propagate import propagate
from eventcal.domains.events.series._write import columns, lines

__all__ = [
    "DATE_FIELDS",
    "FIELD_COLUMNS",
    "FINISHED",
    "OCCURRENCES",
    "SERIES_FIELDS",
    "TABLE_RELATIONS",
    "TEMPLATE",
    "columns",
    "copy_links",
    "copy_translations",
    "counts",
    "delete_occurrences",
    "describe",
    "extend",
    "horizon",
    "insert_occurrences",
    "is_master",
    "lines",
    "links_of",
    "materialise",
    "overridden",
    "overrides",
    "propagate",
    "recount",
    "refused",
    "rule_of",
    "template",
]

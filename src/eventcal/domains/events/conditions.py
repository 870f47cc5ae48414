"""The named conditions of ``GET /events`` (what each filter adds to the listing's WHERE) and
the geofence's parameters."""

from __future__ import annotations

import math
from typing import Any

import sqlalchemy as sa

from eventcal.domains.events import links, search
from eventcal.resources import relations
from eventcal.resources.listing import Condition
from eventcal.resources.posts import fields as post_fields
from eventcal.resources.spec import Relation, TableLink
from eventcal.storage.db import in_values
from eventcal.storage.tables import UtcDateTime, event, venue

GEOFENCE_KM = 25.0
"""Radius around ``geoloc_lat``/``geoloc_lng`` (the calendar extension's default geofence)."""
KM_PER_DEGREE = 111.32


def _compare(column: Any, op: str, name: str) -> Condition:
    bound = sa.bindparam(name, type_=UtcDateTime)
    comparisons = {
        ">=": column >= bound,
        "<=": column <= bound,
        "<": column < bound,
        ">": column > bound,
    }
    condition = comparisons[op]
    return lambda _: [condition]


def _equal(column: Any, name: str, type_: Any) -> Condition:
    condition = column == sa.bindparam(name, type_=type_)
    return lambda _: [condition]


def _geoloc(shape: tuple[bool | None, bool]) -> list[sa.ColumnElement[bool]]:
    """The venue has coordinates (or not), or lies within the geofence around a point."""
    wanted, near = shape
    located = sa.and_(venue.c.latitude.is_not(None), venue.c.longitude.is_not(None))
    if near:
        dy = venue.c.latitude - sa.bindparam("lat0", type_=sa.Float)
        dx = (venue.c.longitude - sa.bindparam("lng0", type_=sa.Float)) * sa.bindparam(
            "cos_lat", type_=sa.Float
        )
        located = sa.and_(
            located,
            venue.c.latitude.between(
                sa.bindparam("lat_min", type_=sa.Float), sa.bindparam("lat_max", type_=sa.Float)
            ),
            venue.c.longitude.between(
                sa.bindparam("lng_min", type_=sa.Float), sa.bindparam("lng_max", type_=sa.Float)
            ),
            dy * dy + dx * dx <= sa.bindparam("radius_deg2", type_=sa.Float),
        )
    # ``venue_id IN (the located venues)``, not a correlated ``EXISTS``: the venues are read
    # once and the window's events are tested in the listing index (it holds ``venue_id``).
    if wanted is not False or near:
        return [event.c.venue_id.in_(sa.select(venue.c.id).where(located))]
    # Not ``NOT IN (the located venues)``: ranges of an index led by ``venue_id`` (the venue
    # exists: a foreign key), so the events at unlocated venues are counted without walking
    # the others (``sides``).
    unlocated = sa.select(venue.c.id).where(sa.not_(located))
    return [sa.or_(event.c.venue_id.is_(None), event.c.venue_id.in_(unlocated))]


USUAL = "usual"
"""Shape of a filter on a column with a default value (``event_status``, ``attendance_mode``)
whose values include the default (most events)."""
RARE = "rare"
"""…whose values leave the default out: the literal ``column <> 'default'`` goes with them, so
SQLite may read the partial index of the other values (0017_occurrence_indexes), which a
bound value never matches."""
OTHER = "other"
"""The other side of a :data:`USUAL` filter (``sides``): the values not asked, all rare."""

DEFAULTS = {"event_status": "scheduled", "attendance_mode": "offline"}
"""The columns whose rare values have a partial index, and their default."""


def _one_of(column: str, key: str) -> Condition:
    """``column`` is one of the values ``key`` (or, for :data:`OTHER`, none of them)."""
    asked = in_values(event.c[column], key, sa.String())
    rare = event.c[column] != sa.literal_column(f"'{DEFAULTS[column]}'")
    shapes: dict[str, list[sa.ColumnElement[bool]]] = {
        USUAL: [asked],
        RARE: [asked, rare],
        OTHER: [sa.not_(asked), rare],
    }
    return lambda shape: shapes[shape]


def shape_of(column: str, values: list[str]) -> str:
    """The shape of a filter asking ``column`` to be one of ``values``."""
    return USUAL if DEFAULTS[column] in values else RARE


PROBE = "probe"
"""Shape of a category, tag or organizer filter whose page tests each event of the window for
the link (``link_pages``) instead of listing the item's events first."""


def _linked(relation: Relation, param: str) -> Condition:
    """``id IN (the item's events)`` (the link's index gives them once: the default), or, for
    :data:`PROBE`, a correlated probe of the link's key (``linked_id``: one item) per event: a
    page of an item with many events finds its rows after a few hundred events of the window
    (listing a category's 100,000 events first cost 11 ms at 1,000,000 events)."""
    listed = [relations.links_to_any(relation, event, param)]
    link = relation.link
    assert isinstance(link, TableLink)
    alias = link.table.alias()
    item = sa.bindparam("linked_id", type_=sa.Integer)  # one item (``totals.counted_by_link``)
    probe = sa.exists().where(
        alias.c[link.source.name] == event.c.id, alias.c[link.target.name] == item
    )
    probed = [probe.correlate(event)]
    return lambda shape: probed if shape == PROBE else listed


def _first_of_series(windowed: bool) -> list[sa.ColumnElement[bool]]:
    """Single events, and of each series only the occurrence no earlier one of the same status
    precedes (inside the window's start, when the listing has one)."""
    other = event.alias("sibling")
    earlier = sa.or_(
        other.c.start_at < event.c.start_at,
        sa.and_(other.c.start_at == event.c.start_at, other.c.id < event.c.id),
    )
    conditions = [
        other.c.series_id == event.c.series_id,
        other.c.status == event.c.status,
        other.c.hide_from_listings == sa.false(),
        earlier,
    ]
    if windowed:
        conditions.append(other.c.start_at >= sa.bindparam("start_min", type_=UtcDateTime))
    sibling = sa.exists().where(*conditions).correlate(event)
    return [sa.or_(event.c.series_id.is_(None), sa.not_(sibling))]


CONDITIONS: dict[str, Condition] = {
    **post_fields.visibility(event),
    "listed": lambda _: [event.c.hide_from_listings == sa.false()],
    "start_min": _compare(event.c.start_at, ">=", "start_min"),
    "end_max": _compare(event.c.end_at, "<=", "end_max"),
    "starts_before": _compare(event.c.start_at, "<", "starts_before"),
    "starts_after": _compare(event.c.start_at, ">", "starts_after"),
    "ends_before": _compare(event.c.end_at, "<", "ends_before"),
    "ends_after": _compare(event.c.end_at, ">", "ends_after"),
    "words": search.words_condition,
    "excluded": search.excluded_condition,
    "categories": _linked(links.CATEGORIES, "category_ids"),
    "tags": _linked(links.TAGS, "tag_ids"),
    "venue": lambda _: [relations.links_to_any(links.VENUE, event, "venue_ids")],
    "organizer": _linked(links.ORGANIZERS, "organizer_ids"),
    # A literal, not a bound value: ``featured = 1`` is what lets SQLite read the partial
    # index of featured events (``ix_event_featured``), which a bound value never matches.
    "featured": lambda wanted: [event.c.featured == (sa.true() if wanted else sa.false())],
    "include": lambda _: [in_values(event.c.id, "include")],
    "post_parent": _equal(event.c.parent_id, "parent_id", sa.Integer),
    "ticketed": _equal(event.c.ticketed, "ticketed", sa.Boolean),
    "geoloc": _geoloc,
    "event_status": _one_of("event_status", "event_statuses"),
    "series": lambda _: [event.c.series_id == sa.bindparam("series_id", type_=sa.Integer)],
    "collapse": _first_of_series,
    "attendance_mode": _one_of("attendance_mode", "attendance_modes"),
}


def bounding_box(lat: float, lng: float, radius_km: float) -> dict[str, float]:
    """Parameters of the distance test: a box for the cheap part, then an equirectangular
    distance (accurate to well under 1% at geofence scales, and plain arithmetic in SQL)."""
    dlat = radius_km / KM_PER_DEGREE
    cos_lat = max(math.cos(math.radians(lat)), 1e-6)
    dlng = min(radius_km / (KM_PER_DEGREE * cos_lat), 180.0)
    return {
        "lat_min": lat - dlat,
        "lat_max": lat + dlat,
        "lng_min": lng - dlng,
        "lng_max": lng + dlng,
        "lat0": lat,
        "lng0": lng,
        "cos_lat": cos_lat,
        "radius_deg2": dlat * dlat,
    }

"""Property: for random rules with RDATEs and EXDATEs in America/New_York (times in and around
its DST changes included), the occurrences ``GET /events`` lists in a window are dateutil's
expansion in that window, minus the EXDATEs, plus the RDATEs."""

from __future__ import annotations

import itertools
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from dateutil import rrule as du  # type: ignore[import-untyped]
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import factories
from tests.conftest import NS, Api
from tests.domains.events.test_recurrence_properties import rules

ZONE_NAME = "America/New_York"
ZONE = ZoneInfo(ZONE_NAME)
DST_DAYS = (date(2027, 3, 14), date(2027, 11, 7), date(2028, 3, 12))
"""Spring forward (02:00-03:00 missing), fall back (01:00-02:00 twice), spring forward."""
TIMES = st.builds(time, st.sampled_from([1, 2, 0, 3, 9, 18, 23]), st.sampled_from([30, 0]))
LAST = datetime(2028, 11, 1)
"""Windows end before the horizon (24 months after the tests' frozen now)."""


def stamp(value: datetime) -> str:
    return value.strftime("%Y%m%dT%H%M%S")


def instant(local: datetime) -> datetime:
    """RFC 5545 3.3.5: a time in a gap is read with the offset before it; an ambiguous one is
    the first (``fold=0`` in PEP 495 terms)."""
    return local.replace(tzinfo=ZONE).astimezone(UTC)


def listed(api: Api, after: datetime, before: datetime) -> list[tuple[str, str]]:
    """``occurrence_start`` and ``utc_start_date`` of every occurrence listed starting strictly
    inside (after, before), in UTC."""
    query = (
        f"{NS}/events?strict_dates=true&start_date=2026-01-01&end_date=2030-01-01"
        f"&starts_after={after:%Y-%m-%d %H:%M:%S}&starts_before={before:%Y-%m-%d %H:%M:%S}"
        "&per_page=50"
    )
    found: list[tuple[str, str]] = []
    for page in itertools.count(1):
        response = api.get(f"{query}&page={page}")
        assert response.status_code == 200, response.text
        found += [(e["occurrence_start"], e["utc_start_date"]) for e in response.json()["events"]]
        if page >= int(response.headers["X-TEC-TotalPages"] or 0):
            return sorted(found)
    raise AssertionError


@settings(
    max_examples=30,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data(), rule=rules())
def test_listed_occurrences_equal_dateutils_expansion(
    api: Api, data: st.DataObject, rule: tuple[str, dict[str, Any]]
) -> None:
    api.run(lambda: factories.empty_database(api.database))
    api.users.clear()
    text, kwargs = rule
    near_dst = st.builds(
        lambda d, n: d - timedelta(days=n), st.sampled_from(DST_DAYS), st.integers(0, 3)
    )
    day = data.draw(
        st.one_of(near_dst, st.dates(date(2026, 12, 1), date(2027, 12, 31))).filter(
            lambda d: d.day <= 28
        )
    )
    start = datetime.combine(day, data.draw(TIMES))
    early = list(itertools.islice(du.rrule(dtstart=start, **kwargs), 20))
    end = data.draw(st.sampled_from(["none", "count", "until"]))
    reference_end: dict[str, object] = {}
    if end == "count":
        count = data.draw(st.integers(1, 40))
        text += f";COUNT={count}"
        reference_end["count"] = count if early[0] == start else count - 1
    elif end == "until":
        last = max(start, data.draw(st.sampled_from(early)) + timedelta(days=30))
        text += f";UNTIL={stamp(instant(last))}Z"
        reference_end["until"] = last
    rdates = data.draw(
        st.lists(
            st.builds(
                lambda d, t: datetime.combine(day + timedelta(days=d), t),
                st.integers(0, 400),
                TIMES,
            ).filter(lambda value: value > start),
            max_size=4,
        )
    )
    ruleset = du.rruleset()
    if reference_end.get("count", 1):
        ruleset.rrule(du.rrule(dtstart=start, **kwargs, **reference_end))
    for value in [start, *rdates]:
        ruleset.rdate(value)
    made = ruleset.between(start - timedelta(seconds=1), LAST)
    exdates = data.draw(st.lists(st.sampled_from(made), max_size=3)) if made else []
    for value in exdates:
        ruleset.exdate(value)
    after = start - timedelta(days=data.draw(st.integers(-20, 5)), hours=5)
    before = min(after + timedelta(days=data.draw(st.integers(1, 120))), LAST)
    after_utc, before_utc = (
        instant(after).replace(tzinfo=None),
        instant(before).replace(tzinfo=None),
    )
    expected = sorted(
        (f"{value:%Y-%m-%d %H:%M:%S}", f"{instant(value):%Y-%m-%d %H:%M:%S}")
        for value in ruleset.between(start - timedelta(days=1), LAST)
        if after_utc < instant(value).replace(tzinfo=None) < before_utc
    )
    lines = [f"RRULE:{text}"]
    if rdates:
        lines.append(f"RDATE;TZID={ZONE_NAME}:" + ",".join(stamp(v) for v in rdates))
    if exdates:
        lines.append(f"EXDATE;TZID={ZONE_NAME}:" + ",".join(stamp(v) for v in exdates))
    body = {
        "title": "Property",
        "start_date": f"{start:%Y-%m-%d %H:%M:%S}",
        "end_date": f"{start + timedelta(hours=1):%Y-%m-%d %H:%M:%S}",
        "timezone": ZONE_NAME,
        "recurrence": lines,
    }
    created = api.post(f"{NS}/events", json=body)
    assert created.status_code == 201, (lines, created.text)
    assert listed(api, after_utc, before_utc) == expected, lines

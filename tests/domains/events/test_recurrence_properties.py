"""Property: for random rules, RDATEs and EXDATEs, ``expand`` gives what python-dateutil's
own rruleset gives in the window."""

from __future__ import annotations

import itertools
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from dateutil import rrule as du  # type: ignore[import-untyped]
from hypothesis import given, settings
from hypothesis import strategies as st

from eventcal.domains.events import recurrence
from tests.domains.events.recurrence_helpers import (
    BERLIN,
    rule_of,
)

ZONE = ZoneInfo(BERLIN)
WEEKDAY_CODES = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
SAFE_HOURS = st.integers(5, 22)
"""Away from Berlin's DST transitions (02:00-03:00), where the nominal order of times is the
order of their instants; the transitions have their own tests in test_recurrence_rules.py."""


@st.composite
def rules(draw: st.DrawFn) -> tuple[str, dict[str, object]]:
    """An RRULE that never stays empty for long (so that plain dateutil stops quickly), and
    the same rule as dateutil keyword arguments."""
    freq = draw(st.sampled_from(["DAILY", "WEEKLY", "MONTHLY", "YEARLY"]))
    interval = draw(st.integers(1, {"DAILY": 6, "WEEKLY": 4, "MONTHLY": 3, "YEARLY": 2}[freq]))
    parts = {"FREQ": freq, "INTERVAL": str(interval)}
    kwargs: dict[str, object] = {"freq": getattr(du, freq), "interval": interval}
    months = draw(st.lists(st.integers(1, 12), min_size=1, max_size=3, unique=True))
    plain = draw(st.lists(st.integers(0, 6), min_size=1, max_size=3, unique=True))
    monthdays = draw(
        st.lists(st.integers(-28, 28).filter(bool), min_size=1, max_size=3, unique=True)
    )
    shape = draw(st.sampled_from(["none", "plain", "ordinal", "monthday"]))
    if (freq == "DAILY" and shape == "ordinal") or (
        freq == "WEEKLY" and shape in ("ordinal", "monthday")
    ):
        shape = "plain"
    if shape == "plain":
        parts["BYDAY"] = ",".join(WEEKDAY_CODES[d] for d in plain)
        kwargs["byweekday"] = plain
        if freq != "DAILY" and draw(st.booleans()):
            positions = [draw(st.sampled_from([1, -1] if freq == "WEEKLY" else [1, 2, -1, -4]))]
            parts["BYSETPOS"] = str(positions[0])
            kwargs["bysetpos"] = positions
    elif shape == "ordinal":
        ordinals = draw(
            st.lists(st.sampled_from([1, 2, 3, 4, -1, -2, -4]), min_size=1, max_size=2, unique=True)
        )
        picked = [(plain[i % len(plain)], n) for i, n in enumerate(ordinals)]
        parts["BYDAY"] = ",".join(f"{n}{WEEKDAY_CODES[d]}" for d, n in picked)
        kwargs["byweekday"] = [du.weekday(d, n) for d, n in picked]
    elif shape == "monthday":
        parts["BYMONTHDAY"] = ",".join(str(d) for d in monthdays)
        kwargs["bymonthday"] = monthdays
    months_allowed = freq in ("DAILY", "WEEKLY", "YEARLY") or interval == 1
    if (months_allowed and draw(st.booleans())) or (freq == "YEARLY" and shape == "monthday"):
        parts["BYMONTH"] = ",".join(str(m) for m in months)
        kwargs["bymonth"] = months
    wkst = draw(st.integers(0, 6))
    parts["WKST"] = WEEKDAY_CODES[wkst]
    kwargs["wkst"] = wkst
    return ";".join(f"{k}={v}" for k, v in parts.items()), kwargs


def stamp(value: datetime) -> str:
    return value.strftime("%Y%m%dT%H%M%S")


@settings(max_examples=200, derandomize=True, database=None, deadline=None)
@given(data=st.data(), rule=rules())
def test_expansion_equals_dateutil(
    data: st.DataObject, rule: tuple[str, dict[str, object]]
) -> None:
    text, kwargs = rule
    # Days up to the 28th: a default BYMONTHDAY (the start's day) exists in every month.
    day = data.draw(st.dates(date(2025, 1, 1), date(2027, 12, 31)).filter(lambda d: d.day <= 28))
    start = datetime.combine(
        day, time(data.draw(SAFE_HOURS), data.draw(st.sampled_from([0, 15, 30])))
    )
    horizon_local = datetime.combine(day + timedelta(days=data.draw(st.integers(30, 900))), time())
    end = data.draw(st.sampled_from(["none", "count", "until", "until-date"]))
    # The rule's first dates (never empty, by construction of ``rules``): UNTIL is often one
    # of them exactly, to check that UNTIL is inclusive.
    early = list(itertools.islice(du.rrule(dtstart=start, **kwargs), 20))
    reference_end: dict[str, object] = {}
    if end == "count":
        count = data.draw(st.integers(1, 40))
        text += f";COUNT={count}"
        reference_end["count"] = count if early[0] == start else count - 1
    elif end != "none":
        last = data.draw(st.sampled_from(early)) + timedelta(
            days=data.draw(st.sampled_from([0, 0, 45, 400])),
            hours=data.draw(st.sampled_from([0, 0, -4, 3])),
        )
        last = max(last, start)
        if end == "until":
            text += f";UNTIL={stamp(last)}"
            reference_end["until"] = last
        else:
            text += f";UNTIL={last:%Y%m%d}"
            reference_end["until"] = datetime.combine(last.date(), time(23, 59, 59))
    rdates = data.draw(
        st.lists(
            st.builds(
                lambda d, h, m: datetime.combine(day + timedelta(days=d), time(h, m)),
                st.integers(0, 800),
                SAFE_HOURS,
                st.sampled_from([0, 30]),
            ).filter(lambda value: value >= start),
            max_size=4,
        )
    )
    ruleset = du.rruleset()
    if reference_end.get("count", 1):
        ruleset.rrule(du.rrule(dtstart=start, **kwargs, **reference_end))
    ruleset.rdate(start)
    for value in rdates:
        ruleset.rdate(value)
    made = ruleset.between(start - timedelta(seconds=1), horizon_local)
    exdates = data.draw(st.lists(st.sampled_from(made), max_size=3)) if made else []
    exdates.append(start + timedelta(days=3, minutes=7))
    for value in exdates:
        ruleset.exdate(value)
    expected = ruleset.between(start - timedelta(seconds=1), horizon_local)
    lines = [f"RRULE:{text}"]
    if rdates:
        lines.append("RDATE;TZID=Europe/Berlin:" + ",".join(stamp(v) for v in rdates))
    lines.append("EXDATE:" + ",".join(stamp(v) for v in exdates))
    parsed = rule_of(lines, start)
    horizon = horizon_local.replace(tzinfo=ZONE).astimezone(UTC)
    got = recurrence.expand(parsed, end_local=start + timedelta(hours=2), until=horizon)
    assert [item.original for item in got] == expected
    assert all(item.start_local == item.original for item in got)
    assert all(item.end_at - item.start_at == timedelta(hours=2) for item in got)
    assert rule_of(list(parsed.lines), start) == parsed

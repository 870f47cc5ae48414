"""``parse``: the client's ``recurrence`` lines, validated and normalised into a :class:`Rule`."""

from __future__ import annotations

import re
from datetime import datetime, time

from eventcal.domains.events.recurrence._lines import make_rule
from eventcal.domains.events.recurrence._model import (
    MAX_DATES,
    MAX_LINE_LENGTH,
    MAX_LINES,
    RecurrenceError,
    Rule,
)
from eventcal.domains.events.recurrence._rrule import Series, clip, read_pattern
from eventcal.domains.events.recurrence._values import instant, nominal, read_stamp
from eventcal.i18n import N_
from eventcal.timezones import canonical_timezone_name, resolve_timezone

_FOLD = re.compile(r"\r?\n[ \t]")
_NEWLINE = re.compile(r"\r\n|\r|\n")
_HEAD = re.compile(r'([A-Za-z][A-Za-z0-9-]*)((?:;[A-Za-z0-9-]+=(?:"[^"]*"|[^";:]*))*):(.*)', re.S)
_PARAM = re.compile(r';([A-Za-z0-9-]+)=("[^"]*"|[^";:]*)')


def _lines(value: object) -> list[tuple[int, str]]:
    """Numbered, stripped, non-blank lines of a list of strings or of one multi-line string.

    RFC 5545 folded lines (a line break followed by a space or tab) are unfolded first; line
    numbers count every line, blank ones included, so that messages point at the right one.
    """
    if value is None:
        return []
    if isinstance(value, str):
        chunks = [value]
    elif isinstance(value, list | tuple) and all(isinstance(item, str) for item in value):
        chunks = list(value)
    else:
        raise RecurrenceError(N_("Recurrence must be a list of text lines"))
    texts: list[str] = []
    for chunk in chunks:
        texts.extend(_NEWLINE.split(_FOLD.sub("", chunk)))
    numbered = [(number, text.strip()) for number, text in enumerate(texts, 1) if text.strip()]
    if len(numbered) > MAX_LINES:
        raise RecurrenceError(N_("At most {max} recurrence lines are allowed"), max=MAX_LINES)
    for number, text in numbered:
        if len(text) > MAX_LINE_LENGTH:
            raise RecurrenceError(
                N_("Line {line} is longer than {max} characters"), line=number, max=MAX_LINE_LENGTH
            )
    return numbered


def _dates(number: int, params: dict[str, str], text: str, series: Series) -> list[datetime]:
    """The nominal times of an RDATE or EXDATE line."""
    kind = params.get("VALUE", "").upper()
    if kind not in ("", "DATE", "DATE-TIME"):
        raise RecurrenceError(
            N_("Line {line}: VALUE={kind} is not supported; use DATE or DATE-TIME"),
            line=number,
            kind=clip(kind),
        )
    tzid = params.get("TZID")
    source = None
    if tzid is not None:
        tzid = tzid.strip('"')
        canonical = canonical_timezone_name(tzid)
        if canonical is None:
            raise RecurrenceError(N_("Unknown time zone in TZID: {tzid}"), tzid=clip(tzid))
        if canonical != series.zone_name:
            source = resolve_timezone(canonical)
    values = []
    for item in text.split(","):
        stamp = read_stamp(item)
        if stamp is None:
            raise RecurrenceError(
                N_(
                    "Line {line}: {value} is not a date (YYYYMMDD) or a date-time (YYYYMMDDTHHMMSS)"
                ),
                line=number,
                value=clip(item.strip()),
            )
        if kind and stamp.is_date != (kind == "DATE"):
            raise RecurrenceError(
                N_("Line {line}: {value} does not match VALUE={kind}"),
                line=number,
                value=item.strip(),
                kind=kind,
            )
        if stamp.utc and tzid is not None:
            raise RecurrenceError(
                N_("Line {line}: {value} is in UTC (it ends in Z) but the line has a TZID"),
                line=number,
                value=item.strip(),
            )
        try:
            values.append(
                nominal(stamp, source, zone=series.zone, start=series.start, all_day=series.all_day)
            )
        except OverflowError as error:
            raise RecurrenceError(
                N_("Line {line}: {value} is out of range"), line=number, value=item.strip()
            ) from error
    return values


def _check_rdates(rdates: list[datetime], series: Series) -> None:
    """An RDATE before the start would make the start not the first occurrence."""
    for value in rdates:
        try:
            early = instant(value, series.zone) < instant(series.start, series.zone)
        except OverflowError:
            early = value < series.start
        if early:
            shown = value.date().isoformat() if series.all_day else value.isoformat(" ")
            raise RecurrenceError(N_("RDATE ({value}) is before the event's start"), value=shown)


def parse(value: object, *, start_local: datetime, zone_name: str, all_day: bool) -> Rule | None:
    """The client's ``recurrence`` as a normalised Rule; None for a single event.

    ``value`` is a list of lines (``RRULE:…``, ``RDATE…:…``, ``EXDATE…:…``) or one string of
    lines; ``None``, ``[]`` and blank lines only mean a single event. Names, parts and weekday
    codes are case-insensitive. ``start_local`` is the event's start (naive wall-clock in
    ``zone_name``, which must be a zone the service accepts); it is the first occurrence.

    Everything is validated except the number of occurrences (``check_limit``). An EXDATE that
    matches no occurrence is accepted and kept: it is harmless, and it stays meaningful if the
    rule is edited later. Values with another TZID or in UTC are converted to the event's zone.

    Raises RecurrenceError naming what is wrong.
    """
    canonical = canonical_timezone_name(zone_name)
    zone = resolve_timezone(zone_name)
    if canonical is None or zone is None:
        raise ValueError(f"unknown time zone {zone_name!r}")
    start = start_local.replace(microsecond=0, tzinfo=None)
    if all_day:
        start = datetime.combine(start.date(), time())
    series = Series(start=start, zone_name=canonical, zone=zone, all_day=all_day)
    lines = _lines(value)
    if not lines:
        return None
    pattern = None
    dates: dict[str, list[datetime]] = {"RDATE": [], "EXDATE": []}
    for number, text in lines:
        match = _HEAD.fullmatch(text)
        if match is None:
            raise RecurrenceError(
                N_("Could not read line {line}: {text}"), line=number, text=clip(text, 60)
            )
        name = match[1].upper()
        params = {key.upper(): param for key, param in _PARAM.findall(match[2])}
        if name == "RRULE":
            if pattern is not None:
                raise RecurrenceError(N_("Only one RRULE is allowed"))
            pattern = read_pattern(match[3], series)
        elif name in dates:
            dates[name].extend(_dates(number, params, match[3], series))
            if len(dates[name]) > MAX_DATES:
                raise RecurrenceError(
                    N_("At most {max} {name} values are allowed"), max=MAX_DATES, name=name
                )
        else:
            raise RecurrenceError(
                N_("Line {line}: {name} is not supported; use RRULE, RDATE or EXDATE"),
                line=number,
                name=clip(name),
            )
    _check_rdates(dates["RDATE"], series)
    return make_rule(
        start=start,
        zone_name=canonical,
        all_day=all_day,
        pattern=pattern,
        rdates=dates["RDATE"],
        exdates=dates["EXDATE"],
    )

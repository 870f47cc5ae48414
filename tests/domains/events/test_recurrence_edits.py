"""Edits of a series (cancel one occurrence, split "this and following"), what a scheduler
asks, and the sentences in English, German and Spanish."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from eventcal.domains.events import recurrence
from eventcal.domains.events.recurrence import RecurrenceError
from tests.domains.events.recurrence_helpers import (
    MONDAY,
    days,
    originals,
    rule_of,
)

# --- Edits -----------------------------------------------------------------------------------


def test_without_cancels_one_occurrence() -> None:
    rule = recurrence.without(rule_of(["RRULE:FREQ=DAILY;COUNT=4"]), datetime(2027, 1, 6, 10))
    assert rule.lines == (
        "RRULE:FREQ=DAILY;COUNT=4",
        "EXDATE;TZID=Europe/Berlin:20270106T100000",
    )
    assert originals(rule) == days("01-04", "01-05", "01-07")
    assert rule_of(list(rule.lines)) == rule


@pytest.mark.parametrize(
    "line", ["RRULE:FREQ=DAILY;COUNT=10", "RRULE:FREQ=DAILY;UNTIL=20270113T090000Z"]
)
def test_a_split_keeps_every_occurrence_once(line: str) -> None:
    rule = rule_of(
        [line, "RDATE:20270105T150000,20270120T100000", "EXDATE:20270106T100000,20270111T100000"]
    )
    cut = datetime(2027, 1, 8, 10)
    head = recurrence.until_before(rule, cut)
    tail = recurrence.starting_at(rule, cut)
    assert head is not None and tail is not None
    assert head.lines == (
        "RRULE:FREQ=DAILY;UNTIL=20270108T085959Z",
        "RDATE;TZID=Europe/Berlin:20270105T150000",
        "EXDATE;TZID=Europe/Berlin:20270106T100000",
    )
    assert tail.start == cut
    assert tail.lines[1:] == (
        "RDATE;TZID=Europe/Berlin:20270120T100000",
        "EXDATE;TZID=Europe/Berlin:20270111T100000",
    )
    assert tail.lines[0] == ("RRULE:FREQ=DAILY;COUNT=6" if "COUNT" in line else line)
    assert originals(head) + originals(tail) == originals(rule)
    assert rule_of(list(tail.lines), cut) == tail


def test_a_biweekly_split_continues_in_the_same_weeks() -> None:
    rule = rule_of(["RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;WKST=SU;COUNT=8"])
    cut = datetime(2027, 1, 21, 10)
    halves = originals(recurrence.until_before(rule, cut)) + originals(
        recurrence.starting_at(rule, cut)
    )
    assert halves == originals(rule)


def test_an_all_day_split_ends_the_day_before() -> None:
    rule = rule_of(["RRULE:FREQ=DAILY;COUNT=5"], datetime(2027, 1, 4), all_day=True)
    head = recurrence.until_before(rule, datetime(2027, 1, 6))
    assert head is not None
    assert head.lines == ("RRULE:FREQ=DAILY;UNTIL=20270105",)
    assert recurrence.starting_at(rule, datetime(2027, 1, 6, 15)) == rule_of(
        ["RRULE:FREQ=DAILY;COUNT=3"], datetime(2027, 1, 6), all_day=True
    )


def test_a_split_at_a_date_after_the_count_ran_out() -> None:
    rule = rule_of(["RRULE:FREQ=DAILY;COUNT=3", "RDATE:20270120T100000"])
    cut = datetime(2027, 1, 20, 10)
    head = recurrence.until_before(rule, cut)
    assert head is not None and head.lines == ("RRULE:FREQ=DAILY;COUNT=3",)
    assert recurrence.starting_at(rule, cut) is None


@pytest.mark.parametrize(
    ("original", "message"),
    [
        (MONDAY, "A series cannot be split at its first occurrence"),
        (datetime(2027, 1, 6, 11), "2027-01-06 11:00:00 is not an occurrence of this series"),
        (datetime(2027, 1, 7, 10), "2027-01-07 10:00:00 is not an occurrence of this series"),
        (datetime(2027, 1, 9, 10), "2027-01-09 10:00:00 is not an occurrence of this series"),
        (
            datetime(2027, 1, 5, 15),
            "A series cannot be split at an added date (2027-01-05 15:00:00) "
            "while its rule goes on",
        ),
    ],
)
def test_a_split_needs_an_occurrence_of_the_rule(original: datetime, message: str) -> None:
    rule = rule_of(["RRULE:FREQ=DAILY;COUNT=5", "RDATE:20270105T150000", "EXDATE:20270107T100000"])
    with pytest.raises(RecurrenceError) as caught:
        recurrence.starting_at(rule, original)
    assert str(caught.value) == message


def test_finite_series_and_what_a_scheduler_must_extend() -> None:
    moment = datetime(2027, 2, 1, tzinfo=UTC)
    endless = rule_of(["RRULE:FREQ=WEEKLY"])
    counted = rule_of(["RRULE:FREQ=WEEKLY;COUNT=4"])
    long_counted = rule_of(["RRULE:FREQ=WEEKLY;COUNT=5"])
    until = rule_of(["RRULE:FREQ=WEEKLY;UNTIL=20270301"])
    dates = rule_of(["RDATE:20270301T100000"])
    assert [recurrence.is_finite(r) for r in (endless, counted, until, dates)] == [
        False,
        True,
        True,
        True,
    ]
    assert [
        recurrence.continues_after(r, moment)
        for r in (endless, counted, long_counted, until, dates)
    ] == [True, False, True, True, True]
    assert not recurrence.continues_after(dates, datetime(2027, 3, 2, tzinfo=UTC))
    assert not recurrence.continues_after(until, datetime(2027, 3, 2, tzinfo=UTC))


# --- Sentences -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lines", "en", "de", "es"),
    [
        (["RRULE:FREQ=DAILY"], "Daily", "Täglich", "Cada día"),
        (["RRULE:FREQ=DAILY;INTERVAL=3"], "Every 3 days", "Alle 3 Tage", "Cada 3 días"),
        (
            ["RRULE:FREQ=WEEKLY"],
            "Weekly on Monday",
            "Wöchentlich am Montag",
            "Cada semana el lunes",
        ),
        (
            ["RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=10;BYDAY=TU,TH"],
            "Every 2 weeks on Tuesday and Thursday, 10 times",
            "Alle 2 Wochen am Dienstag und am Donnerstag, 10-mal",
            "Cada 2 semanas el martes y el jueves, 10 veces",
        ),
        (
            ["RRULE:FREQ=MONTHLY;BYDAY=-1FR"],
            "Monthly on the last Friday",
            "Monatlich am letzten Freitag",
            "Cada mes el último viernes",
        ),
        (
            ["RRULE:FREQ=MONTHLY;BYDAY=2MO,-2FR;COUNT=1"],
            "Monthly on the second Monday and the second to last Friday, once",
            "Monatlich am zweiten Montag und am vorletzten Freitag, einmal",
            "Cada mes el segundo lunes y el penúltimo viernes, una vez",
        ),
        (
            ["RRULE:FREQ=MONTHLY;BYMONTHDAY=15"],
            "Monthly on day 15",
            "Monatlich am 15.",
            "Cada mes el día 15",
        ),
        (
            ["RRULE:FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=1,-1"],
            "Every 3 months on day 1 and the last day",
            "Alle 3 Monate am 1. und am letzten Tag",
            "Cada 3 meses el día 1 y el último día",
        ),
        (
            ["RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1"],
            "Monthly on the last Monday, Tuesday, Wednesday, Thursday or Friday",
            "Monatlich am letzten Montag, Dienstag, Mittwoch, Donnerstag oder Freitag",
            "Cada mes el último lunes, martes, miércoles, jueves o viernes",
        ),
        (
            ["RRULE:FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=24;UNTIL=20311231T225959Z"],
            "Every year on 24 December, until 31 December 2031",
            "Jährlich am 24. Dezember, bis zum 31. Dezember 2031",
            "Cada año el 24 de diciembre, hasta el 31 de diciembre de 2031",
        ),
        (
            ["RRULE:FREQ=YEARLY;INTERVAL=2;BYMONTH=3,10;BYDAY=-1SU"],
            "Every 2 years on the last Sunday in March and October",
            "Alle 2 Jahre am letzten Sonntag im März und Oktober",
            "Cada 2 años el último domingo en marzo y octubre",
        ),
        (
            ["RRULE:FREQ=DAILY;BYDAY=SA,SU;BYMONTH=12"],
            "Weekly on Saturday and Sunday in December",
            "Wöchentlich am Samstag und am Sonntag im Dezember",
            "Cada semana el sábado y el domingo en diciembre",
        ),
        (
            ["RRULE:FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13"],
            "Monthly on selected days",
            "Monatlich an ausgewählten Tagen",
            "Cada mes en días seleccionados",
        ),
        (
            ["RRULE:FREQ=DAILY;COUNT=5", "RDATE:20270301T100000", "EXDATE:20270105,20270106"],
            "Daily, 5 times; 1 date added, 2 dates excluded",
            "Täglich, 5-mal; 1 zusätzlicher Termin, 2 Termine ausgenommen",
            "Cada día, 5 veces; 1 fecha añadida, 2 fechas excluidas",
        ),
        (
            ["RDATE:20270301T100000,20270401T100000"],
            "On 3 dates",
            "An 3 Terminen",
            "En 3 fechas",
        ),
    ],
)
def test_sentences(lines: list[str], en: str, de: str, es: str) -> None:
    rule = rule_of(lines)
    assert [recurrence.describe(rule, language) for language in ("en", "de", "es")] == [en, de, es]


def test_the_sentence_after_a_split_names_the_last_day() -> None:
    head = recurrence.until_before(rule_of(["RRULE:FREQ=DAILY"]), datetime(2027, 1, 8, 10))
    assert head is not None
    assert recurrence.describe(head, "en") == "Daily, until 7 January 2027"

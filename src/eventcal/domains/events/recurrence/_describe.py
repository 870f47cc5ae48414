"""``describe``: a rule as one sentence in English, German or Spanish.

The sentence is ``<rhythm> [on <days>] [in <months>][, <end>][; <extra dates>]``: "Every 2 weeks
on Tuesday and Thursday, 10 times". Each piece is a message id; items of a list carry their own
preposition or article where a language needs one per item (German "am", Spanish "el"), so an
English frame "on {days}" is "{days}" in those languages and the item "{weekday}" is
"am {weekday}" / "el {weekday}". Names of weekdays and months, dates, numbers and the joining of
lists come from Babel (CLDR); English uses British conventions ("24 December").

Parts are ANDed filters in RFC 5545, so a rule mixing BYDAY with BYMONTHDAY (Friday the 13th),
and the few other combinations listed in ``_detail``, get the plainer "on selected days" rather
than a sentence that would read as a union. WKST is not mentioned: it decides which weeks an
"every 2 weeks" rule uses, not what the sentence says.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, timedelta

from babel.dates import format_date, format_skeleton, get_day_names, get_month_names
from babel.lists import format_list
from babel.numbers import format_decimal

from eventcal.domains.events.recurrence._model import Pattern, Rule
from eventcal.domains.events.recurrence._values import wall_clock
from eventcal.i18n import LANGUAGES, N_, translate

_LOCALES = {"en": "en_GB", "de": "de", "es": "es"}
_HEADS = {
    "DAILY": (N_("Daily"), N_("Every {interval} days")),
    "WEEKLY": (N_("Weekly"), N_("Every {interval} weeks")),
    "MONTHLY": (N_("Monthly"), N_("Every {interval} months")),
    "YEARLY": (N_("Every year"), N_("Every {interval} years")),
}
_ORDINALS = {
    1: N_("the first {day}"),
    2: N_("the second {day}"),
    3: N_("the third {day}"),
    4: N_("the fourth {day}"),
    5: N_("the fifth {day}"),
    -1: N_("the last {day}"),
    -2: N_("the second to last {day}"),
}


class _Words:
    """Messages and CLDR names in one language."""

    def __init__(self, language: str) -> None:
        self.language = language if language in LANGUAGES else "en"
        self.locale = _LOCALES[self.language]

    def __call__(self, message: str, **args: object) -> str:
        return translate(message, self.language, **args)

    def weekday(self, index: int) -> str:
        return str(get_day_names("wide", locale=self.locale)[index])

    def month(self, number: int) -> str:
        return str(get_month_names("wide", locale=self.locale)[number])

    def join(self, items: Iterable[str], *, either: bool = False) -> str:
        """The items joined: "a, b and c" (or "a, b or c")."""
        return format_list(list(items), style="or" if either else "standard", locale=self.locale)

    def number(self, value: int) -> str:
        return format_decimal(value, locale=self.locale)

    def on(self, items: Iterable[str]) -> str:
        return self(N_("on {days}"), days=self.join(items))

    def ordinal(self, position: int, day: str) -> str:
        if position in _ORDINALS:
            return self(_ORDINALS[position], day=day)
        if position > 0:
            return self(N_("{day} number {number}"), day=day, number=position)
        return self(N_("{day} number {number} from the end"), day=day, number=-position)

    def weekday_item(self, weekday: int, ordinal: int) -> str:
        """A BYDAY item of a MONTHLY or YEARLY rule: "every Monday", "the last Friday"."""
        if ordinal == 0:
            return self(N_("every {day}"), day=self.weekday(weekday))
        return self.ordinal(ordinal, self.weekday(weekday))

    def monthday_item(self, day: int) -> str:
        if day > 0:
            return self(N_("day {day}"), day=day)
        if day == -1:
            return self(N_("the last day"))
        if day == -2:
            return self(N_("the second to last day"))
        return self(N_("day {number} from the end"), number=-day)

    def date(self, month: int, day: int) -> str | None:
        """The date phrase ("on 24 December"); None for a day the month never has."""
        try:
            value = date(2000, month, day)
        except ValueError:
            return None
        return self(N_("on {date}"), date=format_skeleton("MMMMd", value, locale=self.locale))


def _setpos(freq: str, pattern: Pattern, words: _Words) -> str | None:
    """The BYSETPOS phrase ("on the last Monday, Tuesday or Friday") over plain weekdays in a
    month (or in a year with at most one BYMONTH); None for other uses of BYSETPOS."""
    plain = [weekday for weekday, ordinal in pattern.byday if ordinal == 0]
    if freq not in ("MONTHLY", "YEARLY") or not plain or len(plain) != len(pattern.byday):
        return None
    if pattern.bymonthday or (freq == "YEARLY" and len(pattern.bymonth) > 1):
        return None
    choices = words.join((words.weekday(weekday) for weekday in plain), either=True)
    return words.on(words.ordinal(position, choices) for position in pattern.bysetpos)


def _detail(freq: str, pattern: Pattern, start: datetime, words: _Words) -> str | None:
    """What follows the rhythm ("on …", "in …"); "" for nothing, None when not phraseable."""
    days, monthdays, months = pattern.byday, pattern.bymonthday, pattern.bymonth
    if days and monthdays:
        return None
    if pattern.bysetpos:
        on = _setpos(freq, pattern, words)
    elif freq == "DAILY":
        on = None if days or monthdays else ""
    elif freq == "WEEKLY":
        weekdays = [weekday for weekday, _ in days] or [start.weekday()]
        on = words.on(words(N_("{weekday}"), weekday=words.weekday(day)) for day in weekdays)
    elif days:
        on = words.on(words.weekday_item(weekday, ordinal) for weekday, ordinal in days)
    elif freq == "MONTHLY":
        on = words.on(words.monthday_item(day) for day in monthdays or (start.day,))
    elif monthdays and not months:
        on = None
    else:
        months = months or (start.month,)
        chosen = monthdays or (start.day,)
        if len(months) == 1 and len(chosen) == 1 and chosen[0] > 0:
            single = words.date(months[0], chosen[0])
            if single is not None:
                return single
        on = words.on(words.monthday_item(day) for day in chosen)
    if on is None:
        return None
    if not months:
        return on
    in_months = words(N_("in {months}"), months=words.join(words.month(m) for m in months))
    return f"{on} {in_months}" if on else in_months


def _rhythm(pattern: Pattern, start: datetime, words: _Words) -> str:
    freq = pattern.freq
    if (
        freq == "DAILY"
        and pattern.interval == 1
        and bool(pattern.byday) != bool(pattern.bymonthday)
    ):
        # Every day that is a Monday is every Monday: say it the way people do.
        freq = "WEEKLY" if pattern.byday else "MONTHLY"
    single, several = _HEADS[freq]
    interval = pattern.interval
    head = words(single) if interval == 1 else words(several, interval=words.number(interval))
    detail = _detail(freq, pattern, start, words)
    if detail is None:
        detail = words(N_("on selected days"))
    return f"{head} {detail}" if detail else head


def _last_day(rule: Rule, until: datetime) -> date:
    """The last date an occurrence can start on: UNTIL's date, or the day before when UNTIL's
    time of day comes before the series' (an UNTIL just before a split occurrence)."""
    try:
        local = wall_clock(until, rule.zone)
    except OverflowError:
        return until.date()
    if not rule.all_day and local.time() < rule.start.time():
        return local.date() - timedelta(days=1)
    return local.date()


def describe(rule: Rule, language: str) -> str:
    """The rule as a sentence in ``language`` (en, de or es; anything else reads English)."""
    words = _Words(language)
    pattern = rule.pattern
    extras = []
    if pattern is None:
        total = 1 + len(rule.rdates)
        sentence = (
            words(N_("Once"))
            if total == 1
            else words(N_("On {count} dates"), count=words.number(total))
        )
    else:
        sentence = _rhythm(pattern, rule.start, words)
        if pattern.count == 1:
            sentence += ", " + words(N_("once"))
        elif pattern.count is not None:
            sentence += ", " + words(N_("{count} times"), count=words.number(pattern.count))
        elif pattern.until is not None:
            day = format_date(_last_day(rule, pattern.until), "long", locale=words.locale)
            sentence += ", " + words(N_("until {date}"), date=day)
        if len(rule.rdates) == 1:
            extras.append(words(N_("1 date added")))
        elif rule.rdates:
            extras.append(words(N_("{count} dates added"), count=words.number(len(rule.rdates))))
    if len(rule.exdates) == 1:
        extras.append(words(N_("1 date excluded")))
    elif rule.exdates:
        extras.append(words(N_("{count} dates excluded"), count=words.number(len(rule.exdates))))
    return sentence + ("; " + ", ".join(extras) if extras else "")

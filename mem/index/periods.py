"""The periods a query names ("on October 13, 2023", "in May 2023", "2023-10-13", "in June"),
so a search ranks what was written then above an equal match from another time.

An entry is dated when it was written, and people write about a thing on the day it happens or
soon after: a named day or month also takes in a few days after it.
"""

import re
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import NamedTuple

MONTH = (
    r"(?P<mn>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
DAY = r"(?P<d>[0-3]?\d)(?:st|nd|rd|th)?"
YEAR = r"(?P<y>(?:19|20)\d\d)"
# A month alone is a time only after one of these ("in May", not "it may").
TIME_WORD = r"(?:in|during|since|until|till|before|after|early|late|mid|last)"
MONTH_NUMBER = {
    name: n
    for n, name in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}
# Most specific first; what one pattern matched is blanked before the next looks.
FORMS = (
    rf"\b{YEAR}-(?P<m>[01]\d)-(?P<d>[0-3]\d)\b",  # 2023-10-13
    rf"\b{MONTH}\s+{DAY},?\s+{YEAR}\b",  # October 13, 2023
    rf"\b{DAY}\s+(?:of\s+)?{MONTH},?\s+{YEAR}\b",  # 13 October 2023
    rf"\b{YEAR}-(?P<m>[01]\d)\b",  # 2023-10
    rf"\b{MONTH},?\s+(?:of\s+)?{YEAR}\b",  # October 2023
    rf"\b{TIME_WORD}\s+{MONTH}\b(?!\s+[0-3]?\d)",  # in May: the last May
)
# A day named takes in the next (time zones; the note written the morning after); a month, the
# first week of the next. Measured on LoCoMo's dev half: no slack to a month's slack, all alike.
AFTER_DAY = timedelta(days=1)
AFTER_MONTH = timedelta(days=7)
YEAR_LIKE = re.compile(r"(?:19|20)\d\d")  # worth looking for a date at all


@cache
def patterns() -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(form, re.IGNORECASE) for form in FORMS)


class Period(NamedTuple):
    """From `start` (seconds since 1970, inclusive) to `end` (exclusive)."""

    start: int
    end: int

    def holds(self, seconds: int) -> bool:
        return self.start <= seconds < self.end


def periods_named(text: str, now: datetime) -> list[Period]:
    """The periods `text` names, each widened to take in what was written soon after."""
    lowered = text.lower()
    if not any(name in lowered for name in MONTH_NUMBER) and not YEAR_LIKE.search(text):
        return []  # most queries name no date: no need to compile the patterns (~3 ms)
    found: list[Period] = []
    rest = text
    for pattern in patterns():
        for match in pattern.finditer(rest):
            period = period_of(match.groupdict(), now)
            if period is not None:
                found.append(period)
        rest = pattern.sub(lambda m: " " * len(m.group(0)), rest)
    return found


def period_of(parts: dict[str, str | None], now: datetime) -> Period | None:
    month_name = parts.get("mn")
    month = MONTH_NUMBER[month_name[:3].lower()] if month_name else int(parts.get("m") or 0)
    if not 1 <= month <= 12:
        return None
    year_text = parts.get("y")
    year = int(year_text) if year_text else None
    if year is None:  # the latest such month, this one included
        year = now.year if month <= now.month else now.year - 1
    try:
        day_text = parts.get("d")
        if day_text:
            day = datetime(year, month, int(day_text), tzinfo=UTC)
            return Period(
                int(day.timestamp()), int((day + timedelta(days=1) + AFTER_DAY).timestamp())
            )
        first = datetime(year, month, 1, tzinfo=UTC)
    except ValueError:  # 31 February
        return None
    following = datetime(year + month // 12, month % 12 + 1, 1, tzinfo=UTC)
    return Period(int(first.timestamp()), int((following + AFTER_MONTH).timestamp()))

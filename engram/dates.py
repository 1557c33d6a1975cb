"""Temporal grounding of episodes and questions: the one kernel both read
paths use (docs/retrieval.md, "Ranking").

A turn's relative date expressions ("yesterday", "last Friday", "two weeks
ago", "next month", ...) are resolved at ingestion against the time the turn
occurred into absolute dates, stored with the episode and added to its
lexical text ("7 may 2023", "may 2023", "2023"). A question's absolute dates
("7 May 2023", "May 7, 2023", "May 2023"; a year is required) become a soft
time preference in ranking, never a filter.

Only English expressions are resolved, by the fixed rules below. Why no
library: ``dateparser`` (PyPI) parses a whole string as one date, and its
in-text search (``search_dates``) is a multi-language tokenizer pipeline that
is two to three orders of magnitude slower per turn than these rules and
reports bare words ("may", "now", "sun") as dates; the ingestion path must
stay within the embedder's batch rate. The rules are the ones measured on
LoCoMo (bench/locomo_research.py) and cover the expressions that occur there.

Codes: a date is one int, ``yyyymmdd`` for a day, ``yyyymm00`` for a month,
``yyyy0000`` for a year (UTC calendar of the turn's time).
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

__all__ = [
    "MONTHS",
    "code_text",
    "date_text",
    "day_code",
    "episode_source",
    "parse_date_text",
    "question_dates",
    "resolve_codes",
    "time_match",
]

MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_NUM = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "couple of": 2,
    "few": 3,
    "several": 3,
}
_WD = "|".join(_WEEKDAYS)
_RE_YESTERDAY = re.compile(r"\byesterday\b")
_RE_TODAY = re.compile(r"\btoday\b|\btonight\b|\bthis morning\b")
_RE_TOMORROW = re.compile(r"\btomorrow\b")
_RE_LAST_WD = re.compile(rf"\blast ({_WD})\b")
_RE_NEXT_WD = re.compile(rf"\bnext ({_WD})\b")
_RE_LAST_WEEK = re.compile(r"\blast week(?:end)?\b")
_RE_NEXT_WEEK = re.compile(r"\bnext week(?:end)?\b")
_RE_THIS_WEEK = re.compile(r"\bthis week(?:end)?\b")
_RE_LAST_MONTH = re.compile(r"\blast month\b")
_RE_NEXT_MONTH = re.compile(r"\bnext month\b")
_RE_THIS_MONTH = re.compile(r"\bthis month\b")
_RE_LAST_YEAR = re.compile(r"\blast year\b")
_RE_NEXT_YEAR = re.compile(r"\bnext year\b")
_RE_THIS_YEAR = re.compile(r"\bthis year\b")
_RE_AGO = re.compile(
    r"\b(a|an|one|two|three|four|five|six|couple of|few|several) (day|week|month|year)s? ago\b"
)
# Cheap pre-check: no resolvable expression without one of these words.
_RE_ANY = re.compile(r"yesterday|today|tonight|morning|tomorrow|last|next|this|ago", re.IGNORECASE)
_RE_QDATE = re.compile(
    r"\b(?:(\d{1,2})\s+)?(" + "|".join(MONTHS) + r")\b(?:\s+(\d{1,2})(?!\d))?,?\s*(\d{4})?",
    re.IGNORECASE,
)


def _utc_date(when: datetime) -> date:
    if when.tzinfo is not None:
        when = when.astimezone(UTC)
    return when.date()


def day_code(d: date) -> int:
    return d.year * 10000 + d.month * 100 + d.day


def _month_code(year: int, month: int) -> int:
    while month < 1:
        month, year = month + 12, year - 1
    while month > 12:
        month, year = month - 12, year + 1
    return year * 10000 + month * 100


def resolve_codes(text: str, when: datetime) -> list[int]:
    """Date codes of the relative expressions in ``text`` said at ``when``,
    in rule order, without repeats."""
    if not _RE_ANY.search(text):
        return []
    t = text.lower()
    d = _utc_date(when)
    out: list[int] = []
    if _RE_YESTERDAY.search(t):
        out.append(day_code(d - timedelta(days=1)))
    if _RE_TODAY.search(t):
        out.append(day_code(d))
    if _RE_TOMORROW.search(t):
        out.append(day_code(d + timedelta(days=1)))
    for m in _RE_LAST_WD.finditer(t):
        delta = (d.weekday() - _WEEKDAYS.index(m.group(1))) % 7 or 7
        out.append(day_code(d - timedelta(days=delta)))
    for m in _RE_NEXT_WD.finditer(t):
        delta = (_WEEKDAYS.index(m.group(1)) - d.weekday()) % 7 or 7
        out.append(day_code(d + timedelta(days=delta)))
    if _RE_LAST_WEEK.search(t):
        out.append(day_code(d - timedelta(days=7)))
    if _RE_NEXT_WEEK.search(t):
        out.append(day_code(d + timedelta(days=7)))
    if _RE_THIS_WEEK.search(t):
        out.append(day_code(d))
    if _RE_LAST_MONTH.search(t):
        out.append(_month_code(d.year, d.month - 1))
    if _RE_NEXT_MONTH.search(t):
        out.append(_month_code(d.year, d.month + 1))
    if _RE_THIS_MONTH.search(t):
        out.append(_month_code(d.year, d.month))
    if _RE_LAST_YEAR.search(t):
        out.append((d.year - 1) * 10000)
    if _RE_NEXT_YEAR.search(t):
        out.append((d.year + 1) * 10000)
    if _RE_THIS_YEAR.search(t):
        out.append(d.year * 10000)
    for m in _RE_AGO.finditer(t):
        n = _NUM[m.group(1)]
        unit = m.group(2)
        if unit == "day":
            out.append(day_code(d - timedelta(days=n)))
        elif unit == "week":
            out.append(day_code(d - timedelta(days=7 * n)))
        elif unit == "month":
            out.append(_month_code(d.year, d.month - n))
        else:
            out.append((d.year - n) * 10000)
    return list(dict.fromkeys(out))


def episode_source(user_text: str, assistant_text: str) -> str:
    """The text an episode's dates are resolved from (both sides of the turn)."""
    return f"{user_text}\n{assistant_text}"


def code_text(code: int) -> str:
    """ "7 may 2023", "may 2023" or "2023"."""
    year, month, day = code // 10000, code // 100 % 100, code % 100
    if not month:
        return str(year)
    if not day:
        return f"{MONTHS[month - 1]} {year}"
    return f"{day} {MONTHS[month - 1]} {year}"


def date_text(codes: list[int]) -> str:
    """The stored, lexically indexed form: "7 may 2023; may 2023" ("" for none)."""
    return "; ".join(code_text(c) for c in codes)


def parse_date_text(text: str) -> list[int]:
    """Inverse of :func:`date_text` (for rows read back from the journal)."""
    out: list[int] = []
    for part in text.split(";"):
        words = part.split()
        try:
            if len(words) == 3:
                out.append(
                    int(words[2]) * 10000 + (MONTHS.index(words[1]) + 1) * 100 + int(words[0])
                )
            elif len(words) == 2:
                out.append(int(words[1]) * 10000 + (MONTHS.index(words[0]) + 1) * 100)
            elif len(words) == 1:
                out.append(int(words[0]) * 10000)
        except ValueError:
            continue
    return out


def question_dates(text: str) -> list[tuple[int, int, int]]:
    """(year, month, day or 0) for each absolute date a question names; a year is required."""
    out: list[tuple[int, int, int]] = []
    for m in _RE_QDATE.finditer(text):
        day_a, month, day_b, year = m.groups()
        if not year:
            continue
        day = day_a or day_b
        out.append((int(year), MONTHS.index(month.lower()) + 1, int(day) if day else 0))
    return out


def time_match(asked: list[tuple[int, int, int]], session_day: int, codes: list[int]) -> float:
    """1.0 when the episode's day (``session_day``, a day code) or a resolved
    day equals a day the question names; 0.5 when only the month matches (the
    question names no day, or the resolved date is month-level); else 0."""
    if not asked:
        return 0.0
    best = 0.0
    for code in (session_day, *codes):
        cy, cm, cd = code // 10000, code // 100 % 100, code % 100
        if not cm:
            continue
        for y, m, d in asked:
            if cy == y and cm == m:
                if d and cd == d:
                    return 1.0
                if not d or not cd:
                    best = 0.5
    return best

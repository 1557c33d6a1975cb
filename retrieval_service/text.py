"""What the lexical index indexes.

An episode is indexed as its user text and assistant text together (the same
two fields the dense side embeds), plus the absolute dates its relative date
expressions resolve to (engram.dates). Its terms, and a query's, are
:func:`engram.terms.index_terms`: folded words of any script, PostgreSQL's
English stop words dropped, Snowball-stemmed like PostgreSQL's ``english``
configuration (so "meetings"/"meeting" and "planned"/"plan" meet, on this path
and on the PostgreSQL fallback alike), scripts without spaces as character
bigrams. Documents and queries go through the same function, which is all BM25
needs.
"""

from __future__ import annotations

from collections import Counter

from engram.terms import index_terms


def episode_text(user_text: str, assistant_text: str, date_text: str = "") -> str:
    """The lexical view: both sides of the turn plus its resolved dates
    (engram.dates.date_text; journal.episodes.resolved_dates on PostgreSQL)."""
    text = f"{user_text}\n{assistant_text}"
    return f"{text}\n{date_text}" if date_text else text


def term_counts(user_text: str, assistant_text: str, date_text: str = "") -> Counter[str]:
    return Counter(index_terms(episode_text(user_text, assistant_text, date_text)))

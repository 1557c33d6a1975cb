"""Wording shared by the commands' human output."""

from __future__ import annotations


def count(n: int, singular: str, plural: str = "") -> str:
    """ "1 candidate", "2 candidates", "0 summaries" (plural given when not +s)."""
    return f"{n} {singular if n == 1 else plural or singular + 's'}"

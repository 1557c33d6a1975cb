"""Per-section token budgets and packing. Pure functions.

Budget split (documented in docs/gateway.md): of ``budget_tokens``, 40% go to
learned_context, 30% to recovered_memory and 30% to episodic_recall (floored). The split
is fixed, so one section can never starve another and the result does not depend on
what the other planes returned.

Token estimate: ``ceil(chars / 4)``, deterministic and tokenizer-independent. Packing
charges each entry line (plus its newline) and the framing separately; a sum of ceilings
is never below the ceiling of the sum, so a packed block never exceeds its budget.

Within a section, entries that cannot fit even alone are dropped first, then the
lowest-ranked (learned_context, episodic_recall) or the oldest (recovered_memory) until
the rest fits. If nothing fits, the section is omitted rather than overflowing.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

DEFAULT_BUDGET_TOKENS = 1024
MIN_BUDGET_TOKENS = 64
MAX_BUDGET_TOKENS = 32768

SECTION_SHARES_PERCENT: dict[str, int] = {
    "learned_context": 40,
    "recovered_memory": 30,
    "episodic_recall": 30,
}


def estimate_tokens(text: str) -> int:
    """ceil(len(text) / 4)."""
    return -(-len(text) // 4)


def split_budget(total_tokens: int) -> dict[str, int]:
    return {name: total_tokens * share // 100 for name, share in SECTION_SHARES_PERCENT.items()}


class DropOrder(enum.Enum):
    LOWEST_RANK_FIRST = "lowest_rank_first"
    OLDEST_FIRST = "oldest_first"


@dataclass(frozen=True)
class Entry:
    """One candidate line. ``rank`` 0 is the best; ``recency`` is epoch seconds."""

    record_id: str
    line: str
    rank: int
    recency: float


@dataclass(frozen=True)
class Packing:
    kept: tuple[Entry, ...]
    dropped: tuple[Entry, ...]


def entry_cost(entry: Entry) -> int:
    return estimate_tokens(entry.line + "\n")


def framing_cost(header: str, footer: str) -> int:
    return estimate_tokens(header + "\n") + estimate_tokens(footer)


def _drop_key(entry: Entry, order: DropOrder) -> tuple[float, float]:
    # Sorted ascending: the first element is dropped first.
    if order is DropOrder.OLDEST_FIRST:
        return (entry.recency, -entry.rank)
    return (-entry.rank, entry.recency)


def pack(
    entries: Sequence[Entry], budget_tokens: int, framing_tokens: int, order: DropOrder
) -> Packing:
    """Keep the entries that fit ``budget_tokens``; ``kept`` stays in rank order."""
    available = budget_tokens - framing_tokens
    fits_alone = [e for e in entries if entry_cost(e) <= available]
    dropped = [e for e in entries if entry_cost(e) > available]
    used = sum(entry_cost(e) for e in fits_alone)
    survivors = list(fits_alone)
    for victim in sorted(fits_alone, key=lambda e: _drop_key(e, order)):
        if used <= available:
            break
        survivors.remove(victim)
        dropped.append(victim)
        used -= entry_cost(victim)
    kept = tuple(sorted(survivors, key=lambda e: e.rank))
    return Packing(kept=kept, dropped=tuple(sorted(dropped, key=lambda e: e.rank)))

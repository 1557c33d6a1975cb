"""How a plane of JournalService plugs into the process: each plane module
defines an RPC mixin and, when it runs background work, an attach() that
returns start/stop hooks. component.py composes them; planes never import
each other."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engram.db import Database
from engram.pending_counters import PendingCounters
from engram.server import BuildContext
from memory_service.feed import FeedNotifier
from memory_service.journal import Journal
from memory_service.read_replica import ReadRouter


@dataclass
class PlaneContext:
    ctx: BuildContext
    db: Database
    journal: Journal
    notifier: FeedNotifier
    # Where the read-only RPCs read: the primary, or a streaming standby.
    reads: ReadRouter
    # journal.counters a read path counts: summed here, flushed in the
    # background and at stop (engram.pending_counters).
    counters: PendingCounters


@dataclass
class Lifecycle:
    start: list[Callable[[], None]] = field(default_factory=list)
    stop: list[Callable[[], None]] = field(default_factory=list)

"""What the gateway remembers about an assembled context, in process and in the journal.

The gateway owns nothing durable. Each assembled context is kept in an in-process LRU
cache (fast path; bounded by count, approximate bytes and age, see :class:`LruCache`) AND
journaled as one ``gateway.context.assembled`` event (provenance
SYSTEM) whose payload is :meth:`ContextState.to_payload`; each gate verdict is journaled
as ``gateway.response.verdict``. A replica that does not hold a context (restart,
another replica) rebuilds it from those events when the caller names the context's
session (see gateway.service); without that locator the caller needs sticky routing by
context_id or a fresh AssembleContext.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Generic, TypeVar

from engram.common.v1 import common_pb2
from engram.coverage import derive_absence
from engram.errors import AlreadyExists
from gateway.evidence import ContextEvidence, ExactEvidence, SectionEvidence

CONTEXT_EVENT = "gateway.context.assembled"
VERDICT_EVENT = "gateway.response.verdict"
PAYLOAD_VERSION = 1
MAX_INPUT_EXCERPT = 2000

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

# What one cached entry costs beyond its value's own estimate: the OrderedDict slots
# of both orders, the entry object, the key string and the stored time.
ENTRY_OVERHEAD_BYTES = 320


@dataclass(slots=True)
class _Entry(Generic[V]):
    value: V
    size: int
    stored_at: float


class LruCache(Generic[K, V]):
    """A thread-safe LRU map bounded by entry count, approximate bytes and age.

    * ``capacity``: at most this many entries (0: no count bound).
    * ``max_bytes``: the entries' estimated sizes (``sizer(value)`` plus
      :data:`ENTRY_OVERHEAD_BYTES` each) add up to at most this (0: no byte bound). The
      least recently used entries go first; an entry larger than the whole budget is
      not kept at all.
    * ``ttl_seconds``: an entry is dropped once it is this old, counted from when it was
      stored (reading it does not renew it; 0: no age bound). Expired entries are
      dropped by every ``get`` and ``put`` -- an amortised sweep of the oldest entries,
      O(1) per call apart from the expired ones it removes -- and by :meth:`sweep`.

    Reading an entry makes it the most recently used. All methods take one lock.
    """

    def __init__(
        self,
        capacity: int = 0,
        *,
        max_bytes: int = 0,
        ttl_seconds: float = 0.0,
        sizer: Callable[[V], int] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._capacity = max(0, capacity)
        self._max_bytes = max(0, max_bytes)
        self._ttl = max(0.0, ttl_seconds)
        self._sizer = sizer
        self._clock = clock
        # LRU order (least recent first) and age order (oldest first), same keys.
        self._items: OrderedDict[K, _Entry[V]] = OrderedDict()
        self._born: OrderedDict[K, None] = OrderedDict()
        self._bytes = 0
        self._evicted = 0
        self._expired = 0
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            self._expire(self._clock())
            entry = self._items.get(key)
            if entry is None:
                return None
            self._items.move_to_end(key)
            return entry.value

    def put(self, key: K, value: V) -> None:
        size = ENTRY_OVERHEAD_BYTES + (self._sizer(value) if self._sizer is not None else 0)
        with self._lock:
            now = self._clock()
            self._expire(now)
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= old.size
                del self._born[key]
            if self._max_bytes and size > self._max_bytes:
                self._evicted += 1
                return
            self._items[key] = _Entry(value, size, now)
            self._born[key] = None
            self._bytes += size
            while self._items and (
                (self._capacity and len(self._items) > self._capacity)
                or (self._max_bytes and self._bytes > self._max_bytes)
            ):
                self._drop(next(iter(self._items)))
                self._evicted += 1

    def sweep(self) -> int:
        """Drop every expired entry now; returns how many were dropped."""
        with self._lock:
            before = self._expired
            self._expire(self._clock())
            return self._expired - before

    def _expire(self, now: float) -> None:
        if not self._ttl:
            return
        horizon = now - self._ttl
        while self._born:
            oldest = next(iter(self._born))
            if self._items[oldest].stored_at > horizon:
                return
            self._drop(oldest)
            self._expired += 1

    def _drop(self, key: K) -> None:
        entry = self._items.pop(key)
        del self._born[key]
        self._bytes -= entry.size

    @property
    def bytes(self) -> int:
        """The estimated size of what is cached now."""
        with self._lock:
            return self._bytes

    def stats(self) -> dict[str, int]:
        with self._lock:
            return {
                "entries": len(self._items),
                "bytes": self._bytes,
                "evicted": self._evicted,
                "expired": self._expired,
            }

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)


class IdempotencyCache(Generic[V]):
    """AIP-155 replay in process: request_id -> (fingerprint, response).

    A duplicate request_id with the same fingerprint returns the original response; a
    different fingerprint raises ALREADY_EXISTS. Concurrent duplicates wait for the
    first one. Failures are not cached (a retry recomputes). The responses kept are
    bounded like :class:`LruCache` (``sizer`` estimates one response, e.g. a protobuf
    message's ``ByteSize()``); a request_id older than the TTL, or evicted, is
    computed afresh.
    """

    def __init__(
        self,
        capacity: int = 0,
        *,
        max_bytes: int = 0,
        ttl_seconds: float = 0.0,
        sizer: Callable[[V], int] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        def entry_size(entry: tuple[str, V]) -> int:
            return len(entry[0]) + (sizer(entry[1]) if sizer is not None else 0)

        self._done: LruCache[str, tuple[str, V]] = LruCache(
            capacity, max_bytes=max_bytes, ttl_seconds=ttl_seconds, sizer=entry_size, clock=clock
        )
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def stats(self) -> dict[str, int]:
        return {**self._done.stats(), "in_flight": len(self._locks)}

    def _check(self, key: str, fingerprint: str) -> V | None:
        hit = self._done.get(key)
        if hit is None:
            return None
        if hit[0] != fingerprint:
            raise AlreadyExists(
                f"request_id {key} was already used for a different request",
                reason="REQUEST_ID_REUSED",
                metadata={"field": "request_id"},
            )
        return hit[1]

    def run(self, key: str, fingerprint: str, compute: Callable[[], V]) -> V:
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        try:
            with lock:
                replay = self._check(key, fingerprint)
                if replay is not None:
                    return replay
                value = compute()
                self._done.put(key, (fingerprint, value))
                return value
        finally:
            with self._guard:
                if self._locks.get(key) is lock and not lock.locked():
                    del self._locks[key]


def integral(value: Any) -> Any:
    # Journal payloads travel as google.protobuf.Struct: integers come back as floats.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: integral(v) for k, v in value.items()}
    if isinstance(value, list):
        return [integral(v) for v in value]
    return value


class PayloadSeal:
    """HMAC over a journaled context payload, keyed by the service token.

    A recovered context decides what may be claimed, so it must come from a gateway:
    a payload whose seal does not verify is ignored. Without a service token the seal
    is only an integrity check (anyone who can append events could forge it).
    """

    def __init__(self, key: str) -> None:
        self._key = ("engram-gateway-context:" + key).encode()

    def _mac(self, payload: dict[str, Any]) -> str:
        body = {k: v for k, v in payload.items() if k != "seal"}
        canonical = json.dumps(
            integral(body), sort_keys=True, separators=(",", ":"), ensure_ascii=False
        )
        return hmac.new(self._key, canonical.encode(), hashlib.sha256).hexdigest()

    def seal(self, payload: dict[str, Any]) -> dict[str, Any]:
        return {**payload, "seal": self._mac(payload)}

    def verify(self, payload: dict[str, Any]) -> bool:
        return hmac.compare_digest(str(payload.get("seal", "")), self._mac(payload))


def _coverage_b64(coverage: common_pb2.Coverage) -> str:
    return base64.b64encode(coverage.SerializeToString(deterministic=True)).decode()


def _coverage_from(value: object) -> common_pb2.Coverage:
    coverage = common_pb2.Coverage()
    if isinstance(value, str) and value:
        coverage.ParseFromString(base64.b64decode(value))
    return coverage


def _detached(coverage: common_pb2.Coverage) -> common_pb2.Coverage:
    copy = common_pb2.Coverage()
    copy.CopyFrom(coverage)
    return copy


# ContextState.approx_bytes: the dataclass with its lock, datetime and lists; one
# section or exact-lookup record with its (detached: own upb arena) coverage message,
# beyond the coverage's ByteSize(); one str; one attempt. Calibrated against RSS: a
# soak-like context estimates at ~0.95-1.05x what 10,000 of them add to the process.
_STATE_BASE_BYTES = 1024
_OBJECT_BYTES = 900
_STR_BYTES = 56
_ATTEMPT_BYTES = 120


def _state_name(state: int) -> str:
    return common_pb2.AbsenceState.Name(state)  # type: ignore[arg-type]


def _derived(coverage: common_pb2.Coverage, hits: int) -> int:
    # States are re-derived from the journaled coverage, never read back as given.
    return int(derive_absence(coverage, hits))


@dataclass(frozen=True)
class SectionRecord:
    """What the gate and an auditor need of one section."""

    evidence: SectionEvidence
    status: str
    record_ids: tuple[str, ...]
    block_sha256: str


@dataclass
class ContextState:
    context_id: str
    subject: str
    workspace: str
    session_id: str
    request_id: str
    input_sha256: str
    input_excerpt: str
    sections: tuple[SectionRecord, ...]
    exact: ExactEvidence | None
    context_mentions_terms: bool
    scope_keys: tuple[str, ...]
    assembled_at: datetime
    journal_event_id: int = 0
    # The rendered entry lines, kept in memory only (not journaled: a context recovered
    # from the journal has none, and the gate then checks recollections with FindExact).
    rendered_records: tuple[str, ...] = ()
    # (attempt, verdict name) in the order they were judged.
    attempts: list[tuple[int, str]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def __post_init__(self) -> None:
        # The coverages usually arrive as sub-messages of the downstream responses, and
        # a protobuf (upb) sub-message keeps its whole parent response alive: a cached
        # context would pin every record the planes returned. Keep detached copies.
        self.sections = tuple(
            replace(s, evidence=replace(s.evidence, coverage=_detached(s.evidence.coverage)))
            for s in self.sections
        )
        if self.exact is not None:
            self.exact = replace(self.exact, coverage=_detached(self.exact.coverage))

    def approx_bytes(self) -> int:
        """A cheap estimate of what this context holds in memory, for the cache's byte
        budget: its strings and tuples at their length plus a fixed cost per object."""
        strings = [
            self.context_id,
            self.subject,
            self.workspace,
            self.session_id,
            self.request_id,
            self.input_sha256,
            self.input_excerpt,
            *self.scope_keys,
            *self.rendered_records,
        ]
        size = _STATE_BASE_BYTES + _ATTEMPT_BYTES * len(self.attempts)
        for s in self.sections:
            strings += [s.evidence.name, s.status, s.block_sha256, *s.record_ids]
            size += _OBJECT_BYTES + s.evidence.coverage.ByteSize()
        if self.exact is not None:
            strings += [self.exact.topic, self.exact.scope_description, *self.exact.terms]
            size += _OBJECT_BYTES + self.exact.coverage.ByteSize()
        return size + sum(_STR_BYTES + len(t) for t in strings)

    @property
    def evidence(self) -> ContextEvidence:
        return ContextEvidence(
            sections=tuple(s.evidence for s in self.sections),
            exact=self.exact,
            context_mentions_terms=self.context_mentions_terms,
            query_text=self.input_excerpt,
            rendered_records=self.rendered_records,
            record_ids=frozenset(r for s in self.sections for r in s.record_ids),
        )

    def record_attempt(self, attempt: int, verdict: str) -> None:
        with self._lock:
            self.attempts.append((attempt, verdict))

    def to_payload(self) -> dict[str, Any]:
        """JSON-safe payload of the ``gateway.context.assembled`` event."""
        exact = self.exact
        return {
            "version": PAYLOAD_VERSION,
            "context_id": self.context_id,
            "request_id": self.request_id,
            "input_sha256": self.input_sha256,
            "input_excerpt": self.input_excerpt[:MAX_INPUT_EXCERPT],
            "assembled_at": self.assembled_at.isoformat(),
            "scope_keys": list(self.scope_keys),
            "context_mentions_terms": self.context_mentions_terms,
            "sections": [
                {
                    "name": s.evidence.name,
                    # Before receipts: exposure is recorded by the injection receipts.
                    "packed_status": s.status,
                    "absence_state": _state_name(s.evidence.absence_state),
                    "hit_count": s.evidence.hit_count,
                    "coverage": _coverage_b64(s.evidence.coverage),
                    "record_ids": list(s.record_ids),
                    "block_sha256": s.block_sha256,
                }
                for s in self.sections
            ],
            "exact_lookup": None
            if exact is None
            else {
                "terms": list(exact.terms),
                "topic": exact.topic,
                "absence_state": _state_name(exact.absence_state),
                "hits": exact.hits,
                "coverage": _coverage_b64(exact.coverage),
                "scope_description": exact.scope_description,
            },
        }

    @classmethod
    def from_payload(
        cls,
        payload: dict[str, Any],
        *,
        subject: str,
        workspace: str,
        session_id: str,
        event_id: int,
    ) -> ContextState:
        sections = tuple(
            SectionRecord(
                evidence=SectionEvidence(
                    name=str(s["name"]),
                    absence_state=_derived(
                        _coverage_from(s.get("coverage")), int(s.get("hit_count", 0))
                    ),
                    coverage=_coverage_from(s.get("coverage")),
                    hit_count=int(s.get("hit_count", 0)),
                ),
                status=str(s.get("packed_status", "")),
                record_ids=tuple(str(r) for r in s.get("record_ids", [])),
                block_sha256=str(s.get("block_sha256", "")),
            )
            for s in payload.get("sections", [])
        )
        raw_exact = payload.get("exact_lookup")
        exact = None
        if isinstance(raw_exact, dict):
            exact = ExactEvidence(
                terms=tuple(str(t) for t in raw_exact.get("terms", [])),
                topic=str(raw_exact.get("topic", "")),
                absence_state=_derived(
                    _coverage_from(raw_exact.get("coverage")), int(raw_exact.get("hits", 0))
                ),
                coverage=_coverage_from(raw_exact.get("coverage")),
                hits=int(raw_exact.get("hits", 0)),
                scope_description=str(raw_exact.get("scope_description", "")),
            )
        return cls(
            context_id=str(payload["context_id"]),
            subject=subject,
            workspace=workspace,
            session_id=session_id,
            request_id=str(payload.get("request_id", "")),
            input_sha256=str(payload.get("input_sha256", "")),
            input_excerpt=str(payload.get("input_excerpt", "")),
            sections=sections,
            exact=exact,
            context_mentions_terms=bool(payload.get("context_mentions_terms", False)),
            scope_keys=tuple(str(k) for k in payload.get("scope_keys", [])),
            assembled_at=datetime.fromisoformat(str(payload["assembled_at"])),
            journal_event_id=event_id,
        )

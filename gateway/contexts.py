"""What the gateway remembers about an assembled context, in process and in the journal.

The gateway owns nothing durable. Each assembled context is kept in an in-process LRU
cache (fast path) AND journaled as one ``gateway.context.assembled`` event (provenance
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
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
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


class LruCache(Generic[K, V]):
    """A small thread-safe LRU map."""

    def __init__(self, capacity: int) -> None:
        self._capacity = max(1, capacity)
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._capacity:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)


class IdempotencyCache(Generic[V]):
    """AIP-155 replay in process: request_id -> (fingerprint, response).

    A duplicate request_id with the same fingerprint returns the original response; a
    different fingerprint raises ALREADY_EXISTS. Concurrent duplicates wait for the
    first one. Failures are not cached (a retry recomputes).
    """

    def __init__(self, capacity: int) -> None:
        self._done: LruCache[str, tuple[str, V]] = LruCache(capacity)
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

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

"""Context state: journal payload round trip, seal, caches."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from typing import Any

import pytest
from google.protobuf import struct_pb2
from google.protobuf.json_format import MessageToDict

from engram.common.v1 import common_pb2 as cpb
from engram.coverage import build_coverage, derive_absence
from engram.errors import AlreadyExists
from gateway.contexts import (
    ContextState,
    IdempotencyCache,
    LruCache,
    PayloadSeal,
    SectionRecord,
)
from gateway.evidence import ExactEvidence, SectionEvidence

C = cpb.DIMENSION_STATE_COMPLETE


def coverage(matched: int) -> cpb.Coverage:
    return build_coverage(
        read_path="retrieval.find_exact.v1",
        source_systems=["pg"],
        query="q",
        returned=matched,
        limit=20,
        matched_before_limit=matched,
        exactness=cpb.EXACTNESS_EXACT,
        semantic=C,
        field=C,
        temporal=C,
        visibility=C,
        normalization=C,
        verifier=cpb.Verifier(
            ran=True, read_path="v", source_system="s", count=matched, agrees=True
        ),
    )


def state() -> ContextState:
    cov = coverage(0)
    return ContextState(
        context_id="ctx_1",
        subject="alice",
        workspace="default",
        session_id="s1",
        request_id="r",
        input_sha256="ab" * 32,
        input_excerpt="did I ever tell you?",
        sections=(
            SectionRecord(
                SectionEvidence("recovered_memory", derive_absence(cov, 0), cov, 0),
                "SECTION_STATUS_EMPTY",
                (),
                "",
            ),
        ),
        exact=ExactEvidence(("zelda",), "Zelda", derive_absence(cov, 0), cov, 0, "all turns"),
        context_mentions_terms=False,
        scope_keys=("session:s1", "workspace:default"),
        assembled_at=datetime(2025, 1, 1, tzinfo=UTC),
    )


def through_journal(payload: dict[str, Any]) -> dict[str, Any]:
    struct = struct_pb2.Struct()
    struct.update(payload)
    return MessageToDict(struct)


def test_payload_round_trips_through_a_struct() -> None:
    original = state()
    seal = PayloadSeal("token")
    payload = through_journal(seal.seal(original.to_payload()))
    assert seal.verify(payload)
    restored = ContextState.from_payload(
        payload, subject="alice", workspace="default", session_id="s1", event_id=7
    )
    assert restored.evidence == original.evidence
    assert restored.journal_event_id == 7
    assert restored.scope_keys == original.scope_keys


def test_states_are_rederived_not_read_back() -> None:
    payload = state().to_payload()
    payload["exact_lookup"]["absence_state"] = "ABSENCE_STATE_NOT_ABSENT"
    restored = ContextState.from_payload(
        payload, subject="a", workspace="d", session_id="s", event_id=1
    )
    assert restored.exact is not None
    assert restored.exact.absence_state == cpb.ABSENCE_STATE_ABSENT_AUTHORITATIVE


def test_seal_detects_edits_and_other_keys() -> None:
    payload = PayloadSeal("k1").seal(state().to_payload())
    assert not PayloadSeal("k2").verify(payload)
    payload["context_mentions_terms"] = True
    assert not PayloadSeal("k1").verify(payload)


def test_lru_evicts_least_recent() -> None:
    cache: LruCache[str, int] = LruCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1
    cache.put("c", 3)
    assert cache.get("b") is None
    assert (cache.get("a"), cache.get("c"), len(cache)) == (1, 3, 2)


def test_idempotency_replays_and_rejects_reuse() -> None:
    cache: IdempotencyCache[str] = IdempotencyCache(10)
    calls: list[int] = []

    def compute() -> str:
        calls.append(1)
        return f"v{len(calls)}"

    assert cache.run("k", "fp", compute) == "v1"
    assert cache.run("k", "fp", compute) == "v1"
    assert len(calls) == 1
    with pytest.raises(AlreadyExists):
        cache.run("k", "other", compute)


def test_concurrent_duplicates_compute_once() -> None:
    cache: IdempotencyCache[int] = IdempotencyCache(10)
    gate = threading.Event()
    calls: list[int] = []

    def slow() -> int:
        calls.append(1)
        gate.wait(5)
        return 42

    results: list[int] = []
    threads = [
        threading.Thread(target=lambda: results.append(cache.run("k", "fp", slow)))
        for _ in range(4)
    ]
    for t in threads:
        t.start()
    gate.set()
    for t in threads:
        t.join(5)
    assert results == [42, 42, 42, 42]
    assert len(calls) == 1


def test_failures_are_not_cached() -> None:
    cache: IdempotencyCache[int] = IdempotencyCache(10)

    def boom() -> int:
        raise RuntimeError("x")

    with pytest.raises(RuntimeError):
        cache.run("k", "fp", boom)
    assert cache.run("k", "fp", lambda: 1) == 1

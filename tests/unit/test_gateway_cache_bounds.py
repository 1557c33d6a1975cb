"""The gateway's in-process caches are bounded by count, approximate bytes and age."""

from __future__ import annotations

import random
import threading
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from engram.common.v1 import common_pb2 as cpb
from engram.gateway.v1 import gateway_pb2 as gpb
from engram.retrieval.v1 import retrieval_pb2 as rpb
from gateway import service as gateway_service
from gateway.contexts import (
    ENTRY_OVERHEAD_BYTES,
    ContextState,
    IdempotencyCache,
    LruCache,
    SectionRecord,
)
from gateway.evidence import ExactEvidence, SectionEvidence

E = ENTRY_OVERHEAD_BYTES


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def sized(max_bytes: int, **kwargs: object) -> LruCache[str, str]:
    return LruCache(max_bytes=max_bytes, sizer=len, **kwargs)  # type: ignore[arg-type]


# ------------------------------------------------------------------ byte bound


def test_byte_bound_evicts_the_oldest() -> None:
    cache = sized(3 * (E + 10))
    for key in "abc":
        cache.put(key, key * 10)
    assert len(cache) == 3
    assert cache.bytes == 3 * (E + 10)
    cache.put("d", "d" * 10)
    assert cache.get("a") is None
    assert [cache.get(k) for k in "bcd"] == ["b" * 10, "c" * 10, "d" * 10]
    assert cache.bytes == 3 * (E + 10)
    assert cache.stats()["evicted"] == 1


def test_a_large_entry_evicts_as_many_as_it_needs() -> None:
    cache = sized(4 * (E + 10))
    for key in "abcd":
        cache.put(key, key * 10)
    cache.put("big", "x" * (2 * E + 30))  # costs three small entries
    assert [k for k in "abcd" if cache.get(k) is not None] == ["d"]
    assert cache.get("big") is not None
    assert cache.bytes <= 4 * (E + 10)


def test_an_entry_larger_than_the_budget_is_not_kept() -> None:
    cache = sized(2 * (E + 10))
    cache.put("a", "a" * 10)
    cache.put("huge", "x" * (3 * E))
    assert cache.get("huge") is None
    assert cache.get("a") == "a" * 10
    assert cache.bytes == E + 10


def test_replacing_a_key_counts_its_bytes_once() -> None:
    cache = sized(10 * E)
    cache.put("a", "x" * 100)
    cache.put("a", "y" * 10)
    assert (len(cache), cache.bytes, cache.get("a")) == (1, E + 10, "y" * 10)


# ------------------------------------------------------------------ LRU order


def test_reading_makes_an_entry_most_recent_under_the_byte_bound() -> None:
    cache = sized(3 * (E + 1))
    for key in "abc":
        cache.put(key, key)
    assert cache.get("a") == "a"  # order now b, c, a
    cache.put("d", "d")
    assert cache.get("b") is None
    cache.put("e", "e")
    assert cache.get("c") is None
    assert [cache.get(k) for k in "ade"] == ["a", "d", "e"]


def test_count_bound_still_applies() -> None:
    cache: LruCache[str, int] = LruCache(2, max_bytes=10**9, sizer=lambda v: 1)
    cache.put("a", 1)
    cache.put("b", 2)
    cache.get("a")
    cache.put("c", 3)
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (1, None, 3)


# ------------------------------------------------------------------ age bound


def test_entries_expire_after_the_ttl_on_access() -> None:
    clock = Clock()
    cache: LruCache[str, int] = LruCache(ttl_seconds=100, clock=clock)
    cache.put("a", 1)
    clock.now += 50
    cache.put("b", 2)
    clock.now += 49.9
    assert cache.get("a") == 1
    clock.now += 0.1  # "a" is 100 s old; reading it at 99.9 s did not renew it
    assert cache.get("a") is None
    assert cache.get("b") == 2
    clock.now += 50
    assert cache.get("b") is None
    assert len(cache) == 0
    assert cache.bytes == 0
    assert cache.stats()["expired"] == 2


def test_put_sweeps_expired_entries_and_re_put_renews() -> None:
    clock = Clock()
    cache: LruCache[str, int] = LruCache(ttl_seconds=10, clock=clock)
    for i in range(100):
        cache.put(f"k{i}", i)
    clock.now += 5
    cache.put("k0", 0)  # stored again: young
    clock.now += 6
    cache.put("new", 1)  # the amortised sweep drops the 99 expired ones
    assert len(cache) == 2
    assert (cache.get("k0"), cache.get("new"), cache.get("k1")) == (0, 1, None)


def test_sweep_drops_expired_without_access() -> None:
    clock = Clock()
    cache = sized(10**6, ttl_seconds=10, clock=clock)
    cache.put("a", "x")
    cache.put("b", "y")
    clock.now += 10
    assert cache.sweep() == 2
    assert (len(cache), cache.bytes) == (0, 0)


def test_no_ttl_means_no_age_bound() -> None:
    clock = Clock()
    cache: LruCache[str, int] = LruCache(ttl_seconds=0, clock=clock)
    cache.put("a", 1)
    clock.now += 10**9
    assert cache.get("a") == 1


# ------------------------------------------------------------------ replay cache


def test_replay_cache_recomputes_after_eviction_and_expiry() -> None:
    clock = Clock()
    fp = "f" * 64
    cache: IdempotencyCache[str] = IdempotencyCache(
        max_bytes=2 * (E + 64 + 10), ttl_seconds=60, sizer=len, clock=clock
    )
    calls: list[str] = []

    def compute(key: str) -> str:
        calls.append(key)
        return key * 10

    for key in "abc":
        cache.run(key, fp, lambda key=key: compute(key))  # type: ignore[misc]
    cache.run("c", fp, lambda: compute("c"))
    assert calls == ["a", "b", "c"]  # "c" replayed
    cache.run("a", fp, lambda: compute("a"))
    assert calls == ["a", "b", "c", "a"]  # "a" was evicted by bytes
    clock.now += 60
    cache.run("a", fp, lambda: compute("a"))
    assert calls == ["a", "b", "c", "a", "a"]  # and then expired
    assert cache.stats()["in_flight"] == 0


def test_gateway_caches_are_bounded() -> None:
    service = gateway_service.GatewayService(None, None)  # type: ignore[arg-type]
    for cache, budget in (
        (service._contexts, gateway_service.CONTEXT_CACHE_BYTES),
        (service._assembled._done, gateway_service.REQUEST_CACHE_BYTES),
        (service._released._done, gateway_service.REQUEST_CACHE_BYTES),
    ):
        assert cache._max_bytes == budget > 0
        assert cache._ttl == gateway_service.CACHE_TTL_SECONDS > 0
        assert cache._sizer is not None
    big = gpb.AssembleContextResponse(
        context_id="c", sections=[gpb.ContextSection(name="s", rendered="x" * 130_000)]
    )
    service._assembled.run("r", "fp", lambda: big)
    assert service._assembled.stats()["bytes"] > 130_000


# ------------------------------------------------------------------ ContextState


def state(rendered: tuple[str, ...] = (), cov: cpb.Coverage | None = None) -> ContextState:
    cov = cov if cov is not None else cpb.Coverage(read_path="r")
    return ContextState(
        context_id="ctx_1",
        subject="alice",
        workspace="default",
        session_id="s1",
        request_id="r",
        input_sha256="ab" * 32,
        input_excerpt="did I ever tell you?",
        sections=(SectionRecord(SectionEvidence("recall", 0, cov, 0), "S", ("e1", "e2"), ""),),
        exact=ExactEvidence(("zelda",), "Zelda", 0, cov, 0, "all turns"),
        context_mentions_terms=False,
        scope_keys=("session:s1",),
        assembled_at=datetime(2025, 1, 1, tzinfo=UTC),
        rendered_records=rendered,
    )


def test_context_estimate_counts_its_text() -> None:
    small = state().approx_bytes()
    assert 1000 < small < 10_000
    assert state(rendered=("x" * 50_000,)).approx_bytes() >= small + 50_000


def test_context_does_not_keep_the_downstream_response() -> None:
    response = rpb.RecallResponse(
        hits=[rpb.RecallHit(user_text="y" * 10_000) for _ in range(5)],
        coverage=cpb.Coverage(read_path="retrieval.recall.v1", snapshot_version="5"),
    )
    kept = state(cov=response.coverage)
    for coverage in (kept.sections[0].evidence.coverage, kept.exact.coverage):  # type: ignore[union-attr]
        assert coverage == response.coverage
        assert coverage is not response.coverage
        response.coverage.snapshot_version = "9"  # a copy: the parent's arena is not shared
        assert coverage.snapshot_version == "5"
        response.coverage.snapshot_version = "5"
    assert replace(kept).approx_bytes() == kept.approx_bytes()


# ------------------------------------------------------------------ threads


@pytest.mark.parametrize("seed", range(3))
def test_concurrent_use_keeps_the_books(seed: int) -> None:
    budget = 40 * (E + 50)
    cache = sized(budget, ttl_seconds=0.02)
    replay: IdempotencyCache[str] = IdempotencyCache(
        max_bytes=20 * (E + 60), ttl_seconds=0.02, sizer=len
    )
    errors: list[BaseException] = []
    start = threading.Barrier(8)

    def worker(n: int) -> None:
        rng = random.Random(seed * 100 + n)
        try:
            start.wait()
            for _ in range(2000):
                key = f"k{rng.randrange(200)}"
                op = rng.random()
                if op < 0.45:
                    cache.put(key, "v" * rng.randrange(1, 100))
                elif op < 0.9:
                    value = cache.get(key)
                    assert value is None or set(value) == {"v"}
                elif op < 0.92:
                    cache.sweep()
                else:
                    got = replay.run(key, "fp", lambda key=key: key * 3)  # type: ignore[misc]
                    assert got == key * 3
                assert cache.bytes <= budget
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors[:3]
    assert not any(t.is_alive() for t in threads)
    with cache._lock:
        assert set(cache._items) == set(cache._born)
        born = [cache._items[k].stored_at for k in cache._born]
        assert born == sorted(born)
        assert cache._bytes == sum(e.size for e in cache._items.values())
        assert cache._bytes <= budget
    assert replay.stats()["in_flight"] == 0

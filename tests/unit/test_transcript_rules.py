"""The compaction rules and the checkpoint, pure (no database)."""

from __future__ import annotations

import hashlib
import random

import pytest

from engram.errors import InvalidArgument
from memory_service import transcript as tr

H = "a" * 64


def turn(event_id: int, **overrides: object) -> tr.TurnMeta:
    fields: dict[str, object] = {
        "event_id": event_id,
        "content_sha256": H,
        "withheld": False,
        "chars": 100,
        "canonical_sha256": H,
        "roles_ok": True,
        "analysis_event_id": 1000 + event_id,
        "analysis_sha256": H,
        "summary": f"summary {event_id}",
    }
    fields.update(overrides)
    return tr.TurnMeta(**fields)  # type: ignore[arg-type]


POLICY = tr.CompactionPolicy(tail_turns=2, trigger_chars=1)


def reasons(plan: tr.Plan) -> list[tuple[str, int]]:
    return [(i.reason, i.event_id) for i in plan.issues]


def test_under_the_trigger_nothing_is_pruned() -> None:
    plan = tr.plan([turn(1), turn(2), turn(3)], [], tr.CompactionPolicy(), 2)
    assert plan.outcome == tr.NOT_NEEDED and len(plan.literal) == 3 and not plan.pruned


def test_every_decline_reason() -> None:
    turns = [
        turn(1, analysis_event_id=0),
        turn(2, analysis_event_id=0, failure="UNAVAILABLE"),
        turn(3, analysis_sha256="b" * 64),
        turn(4, canonical_sha256="c" * 64),
        turn(5, roles_ok=False),
        turn(6, withheld=True),
        turn(9),
        turn(10),
    ]
    others = [tr.OtherEvent(7, "tool.call.completed"), tr.OtherEvent(8, "conversation.message")]
    plan = tr.plan(turns, others, POLICY, 2)
    assert plan.outcome == tr.DECLINED
    assert reasons(plan) == [
        (tr.MISSING_ANALYSIS, 1),
        (tr.MISSING_ANALYSIS, 2),
        (tr.HASH_MISMATCH, 3),
        (tr.HASH_MISMATCH, 4),
        (tr.MALFORMED_ROLES, 5),
        (tr.QUARANTINED_IN_RANGE, 6),
        (tr.TOOL_EVENTS_IN_RANGE, 7),
        (tr.MALFORMED_ROLES, 8),
    ]
    assert "analysis failed: UNAVAILABLE" in plan.issues[1].detail
    assert "not analysed yet" in plan.issues[0].detail


def test_a_quarantined_turn_alone_does_not_decline() -> None:
    plan = tr.plan([turn(1), turn(2, withheld=True), turn(3), turn(4), turn(5)], [], POLICY, 2)
    assert plan.outcome == tr.COMPACTED
    assert [t.event_id for t in plan.pruned] == [1, 3]
    assert reasons(plan) == [(tr.QUARANTINED_IN_RANGE, 2)]


def test_events_in_the_tail_do_not_count() -> None:
    plan = tr.plan([turn(1), turn(2), turn(3)], [tr.OtherEvent(3, "tool.x")], POLICY, 2)
    assert plan.outcome == tr.COMPACTED


def test_checkpoint_is_deterministic_and_capped() -> None:
    pruned = [turn(i, summary="s" * 50) for i in range(1, 40)]
    policy = tr.CompactionPolicy(checkpoint_max_chars=400, version=3)
    a, b = tr.render_checkpoint(pruned, policy), tr.render_checkpoint(list(pruned), policy)
    assert a == b and a.sha256 == hashlib.sha256(a.text.encode()).hexdigest()
    assert len(a.text) <= 400 and a.elided > 0
    assert a.text.splitlines()[-1].startswith("[event 39]")  # the newest are kept
    assert "policy v3" in a.text
    chain = tr.PrunedRange(pruned).chain()
    assert tr.input_digest(chain, 3) != tr.input_digest(chain, 4)


def test_builtin_summary_is_extractive_and_scrubbed() -> None:
    s = tr.builtin_summary("My key is sk-abcdefghijklmnopqrstuvwx123456. Second.", "Ok.")
    assert "sk-abcdefghijklmnop" not in s.text and s.redactions >= 1
    assert s.text.startswith("user: My key is")


def test_rendered_context_is_refused() -> None:
    with pytest.raises(InvalidArgument):
        tr.refuse_rendered_context("<engram:learned_context>\n- x\n</engram:learned_context>", "y")
    tr.refuse_rendered_context("I like <b>bold</b> text", "fine")


def test_policy_validation_names_the_field() -> None:
    with pytest.raises(InvalidArgument) as err:
        tr.validate_policy(
            tail_turns=0,
            trigger_chars=0,
            checkpoint_max_chars=100,
            analyzer_address="",
            analyzer_timeout_ms=0,
        )
    assert "checkpoint_max_chars" in str(
        err.value.field if hasattr(err.value, "field") else err.value
    )
    ok = tr.validate_policy(
        tail_turns=0,
        trigger_chars=0,
        checkpoint_max_chars=0,
        analyzer_address="",
        analyzer_timeout_ms=0,
    )
    assert ok == tr.CompactionPolicy()


def _oldest_first(pruned: list[tr.TurnMeta], policy: tr.CompactionPolicy) -> tr.Checkpoint:
    """The cap rule as the docs state it: drop the oldest summaries one by one
    until the text fits (the reference the newest-first walk must equal)."""
    first, last = pruned[0].event_id, pruned[-1].event_id
    head = (
        f"Checkpoint of {len(pruned)} earlier turns (events {first}..{last}), "
        f"compaction policy v{policy.version}: analysed summaries, not the turns themselves."
    )
    lines = [f"[event {t.event_id}] {t.summary}" for t in pruned]
    cap = policy.checkpoint_max_chars

    def text_from(start: int) -> str:
        elision = f"[{start} earlier summaries left out by the {cap}-character cap]"
        return "\n".join([head] + ([elision] if start else []) + lines[start:])

    start = 0
    while start < len(lines) and len(text_from(start)) > cap:
        start += 1
    text = text_from(start)
    if len(text) > cap:
        text = text[: cap - 1] + tr.ELLIPSIS
    return tr.Checkpoint(text, hashlib.sha256(text.encode()).hexdigest(), last, start)


def test_newest_first_rendering_equals_the_oldest_first_rule() -> None:
    rng = random.Random(14)
    for _ in range(3000):
        ids = sorted(rng.sample(range(1, 10 ** rng.randint(1, 7) + 100), rng.randint(1, 40)))
        summaries = [1, 2, 5, 10, 40, 150, 320]
        pruned = [turn(i, summary="x" * rng.choice(summaries)) for i in ids]
        policy = tr.CompactionPolicy(
            checkpoint_max_chars=rng.choice([256, 257, 300, 500, 1000, 4000]),
            version=rng.randint(1, 10**6),
        )
        assert tr.render_checkpoint(pruned, policy) == _oldest_first(pruned, policy)


def _as_prefix(turns: list[tr.TurnMeta], through: int) -> tr.VerifiedPrefix:
    covered = [t for t in turns if t.event_id <= through]
    visible = [t for t in covered if not t.withheld]
    return tr.VerifiedPrefix(
        policy_version=1,
        frontier=0,
        through_event_id=through,
        event_ids=[t.event_id for t in visible],
        content_hashes=[t.content_sha256 for t in visible],
        analysis_event_ids=[t.analysis_event_id for t in visible],
        withheld_event_ids=[t.event_id for t in covered if t.withheld],
        canonical_chars=sum(t.chars for t in visible),
        visible_count=len(visible),
        chain_sha256=tr.chain_sha256(
            "", ((t.event_id, t.content_sha256, t.analysis_event_id) for t in visible)
        ),
    )


def test_a_plan_over_a_prefix_equals_the_plan_over_every_turn() -> None:
    # 3 and 9 hidden; 13 not analysed yet (declines once pruned); a tool event
    # after the turns (declines nothing: never before the tail).
    turns = [turn(i, withheld=i in (3, 9)) for i in range(1, 17)]
    turns[12] = turn(13, analysis_event_id=0)
    tool = [tr.OtherEvent(17, "tool.call.completed")]
    outcomes = set()
    for tail in (1, 2, 5, 12, 14):
        full = tr.plan(turns, tool, POLICY, tail)
        outcomes.add(full.outcome)
        extension = tr.extend_prefix(full, turns, tool)
        for through in (2, 3, 8, 9, 12):
            if full.literal and through >= full.literal[0].event_id:
                continue  # a prefix never reaches into the tail it was built under
            prefix = _as_prefix(turns, through)
            fresh = [t for t in turns if t.event_id > through]
            part = tr.plan(fresh, tool, POLICY, tail, prefix)
            assert part.outcome == full.outcome
            assert [t.event_id for t in part.literal] == [t.event_id for t in full.literal]
            assert list(part.pruned.sources()) == list(full.pruned.sources())
            assert part.pruned.chain() == full.pruned.chain()
            assert part.issues == full.issues
            assert part.quarantined == full.quarantined
        if extension is not None:  # stops before the first declining finding
            bad = [i.event_id for i in full.issues if i.reason in tr.DECLINING]
            assert not bad or extension.through_event_id < min(bad)
    assert outcomes >= {tr.COMPACTED, tr.DECLINED}

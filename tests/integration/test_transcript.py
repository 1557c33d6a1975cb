"""The transcript plane in the context, against real PostgreSQL and gRPC:
turn analyses journaled by the built-in analyzer (and a configured one),
GetSessionContext's compaction rules and every decline reason, determinism
across processes, the checkpoint projection and its invalidation, budget
packing, the compaction policy, and CommitTurn refusing rendered context."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from concurrent import futures
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import struct_pb2

from engram.coverage import validate
from engram.db import Database
from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from engram.journal.v1 import plugins_pb2 as ppb
from engram.journal.v1 import plugins_pb2_grpc as ppb_grpc
from engram.journal.v1 import transcript_pb2 as tpb
from engram.server import Suite
from tests.helpers import commit_turn, error_field, error_info

ROOT = Path(__file__).resolve().parents[2]
SUBJECT, SESSION = "alice", "s-long"
R = tpb.CompactionIssueReason


def set_policy(stub: pb_grpc.JournalServiceStub, **fields: Any) -> tpb.CompactionPolicy:
    return stub.SetCompactionPolicy(
        tpb.SetCompactionPolicyRequest(policy=tpb.CompactionPolicy(**fields))
    ).policy


@dataclass(frozen=True)
class AnalysisEvent:
    event_id: int
    event_type: str
    provenance: str
    session_id: str
    payload: dict[str, Any]


def analyses(db: Database) -> list[AnalysisEvent]:
    """Analysis events are not in the session's journal (they name their turn):
    read them from the events table."""
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT event_id, event_type, provenance, session_id, payload FROM journal.events"
            " WHERE event_type IN ('turn.analyzed', 'turn.analysis_failed') ORDER BY event_id"
        ).fetchall()
    return [AnalysisEvent(**r) for r in rows]


def analysed(stub: pb_grpc.JournalServiceStub, db: Database) -> list[AnalysisEvent]:
    """GetSessionContext analyses the pruned turns it needs (and journals the
    results); returns every analysis event then."""
    stub.GetSessionContext(tpb.GetSessionContextRequest(subject=SUBJECT, session_id=SESSION))
    return analyses(db)


def context(stub: pb_grpc.JournalServiceStub, **fields: Any) -> tpb.GetSessionContextResponse:
    return stub.GetSessionContext(
        tpb.GetSessionContextRequest(subject=SUBJECT, session_id=SESSION, **fields)
    )


def commit_many(
    stub: pb_grpc.JournalServiceStub, n: int, session: str = SESSION, start: int = 0
) -> list[pb.TurnReceipt]:
    return [
        commit_turn(
            stub,
            f"Turn {i}: my note number {i} is about topic-{i}. More detail follows here.",
            f"Noted {i}. I will remember topic-{i}.",
            subject=SUBJECT,
            session_id=session,
        )
        for i in range(start, start + n)
    ]


@pytest.fixture
def journal(start_services: Callable[..., Suite], channel_to: Any) -> pb_grpc.JournalServiceStub:
    suite = start_services(["journal"])
    stub: pb_grpc.JournalServiceStub = pb_grpc.JournalServiceStub(channel_to(suite))
    return stub


def reasons(response: tpb.GetSessionContextResponse) -> set[int]:
    return {i.reason for i in response.issues}


# ------------------------------------------------------------------ analyses


def test_builtin_analysis_is_bound_to_turn_and_hash_and_scrubbed(
    journal: pb_grpc.JournalServiceStub, db: Database
) -> None:
    set_policy(journal, tail_turns=1, trigger_chars=1)
    receipt = commit_turn(
        journal,
        "Please email me at bob@example.com about the launch. Thanks!",
        "Sure, I will.",
        subject=SUBJECT,
        session_id=SESSION,
    )
    commit_turn(journal, "And another thing.", "Yes?", subject=SUBJECT, session_id=SESSION)
    assert analyses(db) == []  # nothing is analysed before a context needs it
    (event,) = analysed(journal, db)  # the tail turn is not analysed
    assert event.event_type == "turn.analyzed"
    assert (event.provenance, event.session_id) == ("system", "")
    payload = event.payload
    assert payload["turn_event_id"] == str(receipt.event_id)
    assert payload["turn_content_sha256"] == receipt.content_sha256
    assert payload["analyzer"] == "builtin-extractive/1"
    summary = payload["summary"]
    # The session's own journal still lists only the turns.
    page = journal.ReadSessionJournal(
        pb.ReadSessionJournalRequest(subject=SUBJECT, session_id=SESSION)
    )
    assert {e.event_type for e in page.events} == {"conversation.turn.completed"}
    assert context(journal).outcome == tpb.COMPACTION_OUTCOME_COMPACTED
    assert "bob@example.com" not in summary and "<email>" in summary
    assert summary.startswith("user: Please email me at")


def test_under_the_trigger_every_turn_is_literal(journal: pb_grpc.JournalServiceStub) -> None:
    receipts = commit_many(journal, 3)
    response = context(journal)
    assert response.outcome == tpb.COMPACTION_OUTCOME_NOT_NEEDED
    assert [t.event_id for t in response.tail] == [r.event_id for r in receipts]
    assert not response.HasField("checkpoint")
    validate(response.coverage)
    card = response.coverage.cardinality
    assert (card.returned, card.matched_before_limit, card.truncated) == (3, 3, False)


def test_a_session_without_turns_is_answered_in_the_same_snapshot(
    journal: pb_grpc.JournalServiceStub,
) -> None:
    """No event at all (answered from the first statement), or only another
    session's turns and this session's tool event: nothing matches, and the
    snapshot version is the final watermark of the call's snapshot."""
    commit_many(journal, 2, session="another-session")

    def head() -> int:  # GetStatus's feed_watermark: every committed change
        return journal.GetStatus(pb.GetStatusRequest()).feed_watermark

    empty = context(journal)
    assert empty.outcome == tpb.COMPACTION_OUTCOME_NOT_NEEDED
    assert (list(empty.tail), empty.pruned_turns, empty.turns_verified) == ([], 0, 0)
    validate(empty.coverage)
    card = empty.coverage.cardinality
    assert (card.returned, card.matched_before_limit, card.truncated) == (0, 0, False)
    # The snapshot's final watermark: never above the head, never going back.
    version = int(empty.coverage.snapshot_version)
    assert version <= head()
    assert version <= int(context(journal, dry_run=True).coverage.snapshot_version) <= head()

    tool = _append(journal, "tool.call.completed", {"tool": "search"})
    with_tool = context(journal)
    assert tool.event_id > 0 and with_tool.outcome == tpb.COMPACTION_OUTCOME_NOT_NEEDED
    assert list(with_tool.tail) == [] and with_tool.coverage.cardinality.matched_before_limit == 0
    assert version <= int(with_tool.coverage.snapshot_version) <= head()
    [receipt] = commit_many(journal, 1, start=2)
    assert [t.event_id for t in context(journal).tail] == [receipt.event_id]


def test_compaction_checkpoint_tail_coverage_and_projection(
    journal: pb_grpc.JournalServiceStub, db: Any
) -> None:
    policy = set_policy(journal, tail_turns=2, trigger_chars=1)
    receipts = commit_many(journal, 6)
    analysed(journal, db)
    response = context(journal)
    assert response.outcome == tpb.COMPACTION_OUTCOME_COMPACTED, response.issues
    assert [t.event_id for t in response.tail] == [r.event_id for r in receipts[4:]]
    cp = response.checkpoint
    assert [s.turn_event_id for s in cp.sources] == [r.event_id for r in receipts[:4]]
    assert [s.content_sha256 for s in cp.sources] == [r.content_sha256 for r in receipts[:4]]
    assert all(s.analysis_event_id for s in cp.sources)
    assert cp.policy_version == response.policy_version == policy.version
    assert cp.through_event_id == receipts[3].event_id
    assert f"[event {receipts[0].event_id}] user: Turn 0:" in cp.text
    # analysed() built and stored it; this read is served from the projection.
    assert cp.from_projection
    assert response.pruned_turns == 4 and response.older_turns_omitted == 0
    validate(response.coverage)
    card = response.coverage.cardinality
    assert (card.returned, card.matched_before_limit, card.truncated) == (6, 6, False)
    # The projection serves the same bytes on the next read.
    again = context(journal)
    assert again.checkpoint.from_projection
    assert again.checkpoint.text == cp.text and again.checkpoint.sha256 == cp.sha256
    with db.connection() as conn:
        row = conn.execute(
            "SELECT source_count, input_digest, sha256 FROM journal.session_checkpoints"
        ).fetchone()
    assert row["sha256"] == cp.sha256
    assert row["source_count"] == 4 and len(row["input_digest"]) == 64
    # A policy change rebuilds (new version in the bytes).
    set_policy(journal, tail_turns=2, trigger_chars=1, checkpoint_max_chars=2000)
    rebuilt = context(journal)
    assert not rebuilt.checkpoint.from_projection
    assert rebuilt.checkpoint.sha256 != cp.sha256


def test_checkpoint_is_byte_identical_across_processes(
    journal: pb_grpc.JournalServiceStub, database_url: str, db: Database
) -> None:
    set_policy(journal, tail_turns=3, trigger_chars=1, checkpoint_max_chars=600)
    commit_many(journal, 12)
    analysed(journal, db)
    here = context(journal, dry_run=True).checkpoint
    assert here.turns_elided_by_cap > 0  # the cap rule is part of what must agree
    script = (
        "import json, sys\n"
        "from engram.db import Database\n"
        "from memory_service.journal import Journal\n"
        "from memory_service.transcript_store import TranscriptStore\n"
        "db = Database(sys.argv[1], max_size=2).open()\n"
        "r = TranscriptStore(db, Journal(db)).session_context("
        "'alice', 'default', 's-long', budget_tokens=0, tail_turns=0, dry_run=True)\n"
        "print(json.dumps({'sha': r.checkpoint.sha256, 'hex': r.checkpoint.text.encode().hex()}))\n"
    )
    outputs = []
    for seed in ("1", "987"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "OPENBLAS_NUM_THREADS": "1"}
        done = subprocess.run(
            [sys.executable, "-c", script, database_url],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
        outputs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    for out in outputs:
        assert out["sha"] == here.sha256
        assert bytes.fromhex(out["hex"]) == here.text.encode("utf-8")


# ------------------------------------------------------------- decline rules


def _append(
    stub: pb_grpc.JournalServiceStub,
    event_type: str,
    payload: dict[str, Any],
    provenance: pb.Provenance.ValueType = pb.PROVENANCE_EXTERNAL,
) -> pb.Event:
    body = struct_pb2.Struct()
    body.update(payload)
    return stub.AppendEvent(
        pb.AppendEventRequest(
            event_type=event_type,
            subject=SUBJECT,
            session_id=SESSION,
            payload=body,
            provenance=provenance,
            request_id=str(uuid.uuid4()),
        )
    ).event


def _analysis_of_other_content(stub: pb_grpc.JournalServiceStub, turn_event_id: int) -> None:
    """A SYSTEM analysis of the turn naming other content than the turn's."""
    _append(
        stub,
        "turn.analyzed",
        {
            "turn_event_id": str(turn_event_id),
            "turn_content_sha256": "0" * 64,
            "summary": "a summary of something else",
            "analyzer": "forged",
        },
        pb.PROVENANCE_SYSTEM,
    )


def _assert_declined(response: tpb.GetSessionContextResponse, reason: int, tail: int) -> None:
    assert response.outcome == tpb.COMPACTION_OUTCOME_DECLINED
    assert reason in reasons(response), response.issues
    assert not response.HasField("checkpoint")
    assert len(response.tail) == tail
    assert response.older_turns_omitted == response.pruned_turns > 0
    validate(response.coverage)
    card = response.coverage.cardinality
    assert card.truncated and card.returned == tail


def test_tool_event_in_range_declines(journal: pb_grpc.JournalServiceStub, db: Database) -> None:
    set_policy(journal, tail_turns=2, trigger_chars=1)
    commit_many(journal, 2)
    tool = _append(journal, "tool.call.completed", {"tool": "search"})
    commit_many(journal, 3, start=2)
    analysed(journal, db)
    response = context(journal)
    _assert_declined(response, R.COMPACTION_ISSUE_REASON_TOOL_EVENTS_IN_RANGE, 2)
    assert any(i.event_id == tool.event_id for i in response.issues)


def test_tool_event_in_the_tail_does_not_decline(
    journal: pb_grpc.JournalServiceStub, db: Database
) -> None:
    set_policy(journal, tail_turns=2, trigger_chars=1)
    commit_many(journal, 4)
    _append(journal, "tool.call.completed", {"tool": "search"})
    commit_many(journal, 1, start=4)
    analysed(journal, db)
    assert context(journal).outcome == tpb.COMPACTION_OUTCOME_COMPACTED


def test_lone_message_in_range_is_malformed_roles(
    journal: pb_grpc.JournalServiceStub, db: Database
) -> None:
    set_policy(journal, tail_turns=2, trigger_chars=1)
    commit_many(journal, 1)
    _append(journal, "conversation.message.user", {"text": "hello?"})
    commit_many(journal, 3, start=1)
    analysed(journal, db)
    _assert_declined(context(journal), R.COMPACTION_ISSUE_REASON_MALFORMED_ROLES, 2)


def test_forged_analysis_with_another_hash_is_hash_mismatch(
    journal: pb_grpc.JournalServiceStub, db: Database
) -> None:
    set_policy(
        journal,
        tail_turns=1,
        trigger_chars=1,
        analyzer_address="127.0.0.1:1",
        analyzer_timeout_ms=100,
    )
    receipts = commit_many(journal, 3)
    analysed(journal, db)  # three failures: the analyzer is unreachable
    # A service writes an analysis of other content for the first turn.
    _analysis_of_other_content(journal, receipts[0].event_id)
    response = context(journal)
    _assert_declined(response, R.COMPACTION_ISSUE_REASON_HASH_MISMATCH, 1)
    mismatch = [i for i in response.issues if i.reason == R.COMPACTION_ISSUE_REASON_HASH_MISMATCH]
    assert [i.event_id for i in mismatch] == [receipts[0].event_id]
    # The second turn's analyzer failure is recorded and declines as missing.
    missing = [i for i in response.issues if i.reason == R.COMPACTION_ISSUE_REASON_MISSING_ANALYSIS]
    assert [i.event_id for i in missing] == [receipts[1].event_id]
    assert "analysis failed" in missing[0].detail


def test_external_analysis_is_never_accepted(
    journal: pb_grpc.JournalServiceStub, db: Database
) -> None:
    """Only a system-provenance analysis counts: a runtime cannot forge one."""
    set_policy(
        journal,
        tail_turns=1,
        trigger_chars=1,
        analyzer_address="127.0.0.1:1",
        analyzer_timeout_ms=100,
    )
    receipts = commit_many(journal, 2)
    analysed(journal, db)
    _append(
        journal,
        "turn.analyzed",
        {
            "turn_event_id": str(receipts[0].event_id),
            "turn_content_sha256": receipts[0].content_sha256,
            "summary": "forged by a runtime",
        },
    )
    _assert_declined(context(journal), R.COMPACTION_ISSUE_REASON_MISSING_ANALYSIS, 1)


class WrongHashAnalyzer(ppb_grpc.AnalyzerServiceServicer):
    def __init__(self) -> None:
        self.calls: list[ppb.AnalyzeTurnRequest] = []

    def AnalyzeTurn(
        self, request: ppb.AnalyzeTurnRequest, context: grpc.ServicerContext
    ) -> ppb.AnalyzeTurnResponse:
        self.calls.append(request)
        if "topic-1." in request.user_text:
            context.abort(grpc.StatusCode.INTERNAL, "model crashed")
        wrong = "topic-2." in request.user_text
        return ppb.AnalyzeTurnResponse(
            summary=f"analysed {request.event_id}; call me at +1 415 555 0134",
            content_sha256="f" * 64 if wrong else request.content_sha256,
            analyzer="test-analyzer/1",
        )


@pytest.fixture
def analyzer_server() -> Iterator[tuple[str, WrongHashAnalyzer]]:
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    servicer = WrongHashAnalyzer()
    ppb_grpc.add_AnalyzerServiceServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield f"127.0.0.1:{port}", servicer
    finally:
        server.stop(0)


def test_configured_analyzer_results_failures_and_mismatch(
    journal: pb_grpc.JournalServiceStub,
    analyzer_server: tuple[str, WrongHashAnalyzer],
    db: Database,
) -> None:
    address, servicer = analyzer_server
    set_policy(journal, tail_turns=1, trigger_chars=1, analyzer_address=address)
    receipts = commit_many(journal, 4)
    events = analysed(journal, db)
    by_turn = {e.payload["turn_event_id"]: e for e in events}
    failed = by_turn[str(receipts[1].event_id)]
    assert failed.event_type == "turn.analysis_failed"
    assert "INTERNAL" in failed.payload["error"]
    ok = by_turn[str(receipts[0].event_id)]
    assert ok.payload["analyzer"] == "test-analyzer/1"
    assert "555" not in ok.payload["summary"]  # scrubbed
    assert {c.content_sha256 for c in servicer.calls} >= {r.content_sha256 for r in receipts[:3]}
    response = context(journal)
    got = {(i.reason, i.event_id) for i in response.issues}
    assert (R.COMPACTION_ISSUE_REASON_MISSING_ANALYSIS, receipts[1].event_id) in got
    assert (R.COMPACTION_ISSUE_REASON_HASH_MISMATCH, receipts[2].event_id) in got
    _assert_declined(response, R.COMPACTION_ISSUE_REASON_HASH_MISMATCH, 1)


def test_quarantined_turn_in_range_rebuilds_without_it(
    journal: pb_grpc.JournalServiceStub, db: Any
) -> None:
    set_policy(journal, tail_turns=2, trigger_chars=1)
    receipts = commit_many(journal, 6)
    analysed(journal, db)
    before = context(journal)
    assert before.outcome == tpb.COMPACTION_OUTCOME_COMPACTED
    victim = receipts[1]
    journal.Quarantine(
        pb.QuarantineRequest(
            record_kind=pb.RECORD_KIND_EVENT, record_id=str(victim.event_id), reason="wrong"
        )
    )
    with db.connection() as conn:
        left = conn.execute("SELECT count(*) AS n FROM journal.session_checkpoints").fetchone()
    assert left["n"] == 0  # the projection was invalidated by the quarantine
    after = context(journal)
    assert after.outcome == tpb.COMPACTION_OUTCOME_COMPACTED
    assert R.COMPACTION_ISSUE_REASON_QUARANTINED_IN_RANGE in reasons(after)
    assert victim.event_id not in [s.turn_event_id for s in after.checkpoint.sources]
    assert f"[event {victim.event_id}]" not in after.checkpoint.text
    assert after.checkpoint.sha256 != before.checkpoint.sha256
    assert after.quarantined_turns_excluded == 1
    card = after.coverage.cardinality
    assert (card.returned, card.matched_before_limit) == (5, 5)
    journal.Restore(
        pb.RestoreRequest(
            record_kind=pb.RECORD_KIND_EVENT, record_id=str(victim.event_id), reason="ok"
        )
    )
    restored = context(journal)
    assert restored.checkpoint.sha256 == before.checkpoint.sha256
    assert not restored.checkpoint.from_projection


def test_purge_removes_checkpoints(journal: pb_grpc.JournalServiceStub, db: Any) -> None:
    set_policy(journal, tail_turns=1, trigger_chars=1)
    commit_many(journal, 3)
    analysed(journal, db)
    assert context(journal).outcome == tpb.COMPACTION_OUTCOME_COMPACTED
    journal.Purge(pb.PurgeRequest(subject=SUBJECT, reason="erasure request"))
    with db.connection() as conn:
        left = conn.execute("SELECT count(*) AS n FROM journal.session_checkpoints").fetchone()
    assert left["n"] == 0
    assert context(journal).coverage.cardinality.matched_before_limit == 0


# ------------------------------------------------------------------- budget


def test_budget_keeps_the_tail_and_drops_the_checkpoint_first(
    journal: pb_grpc.JournalServiceStub, db: Database
) -> None:
    set_policy(journal, tail_turns=3, trigger_chars=1)
    commit_many(journal, 8)
    analysed(journal, db)
    full = context(journal)
    turn_cost = max(
        -(-(len(f"User: {t.user_text}\nAssistant: {t.assistant_text}") + 1) // 4) for t in full.tail
    )
    # Room for the three tail turns, not for the checkpoint too.
    tight = context(journal, budget_tokens=3 * turn_cost + 5)
    assert len(tight.tail) == 3 and tight.checkpoint_dropped_budget
    assert not tight.HasField("checkpoint")
    assert tight.older_turns_omitted == 5
    validate(tight.coverage)
    assert tight.coverage.cardinality.returned == 3
    # Less: the oldest tail turns go, the newest stays.
    tighter = context(journal, budget_tokens=turn_cost + 1)
    assert [t.event_id for t in tighter.tail] == [full.tail[-1].event_id]
    assert tighter.tail_turns_dropped_budget == 2


# ------------------------------------------------------------------- policy


def test_policy_validation_and_durability(
    journal: pb_grpc.JournalServiceStub, start_services: Callable[..., Suite], channel_to: Any
) -> None:
    default = journal.GetCompactionPolicy(tpb.GetCompactionPolicyRequest()).policy
    assert (default.tail_turns, default.trigger_chars, default.checkpoint_max_chars) == (
        8,
        24000,
        4000,
    )
    for fields, name in (
        ({"tail_turns": 999}, "policy.tail_turns"),
        ({"checkpoint_max_chars": 10}, "policy.checkpoint_max_chars"),
        ({"trigger_chars": -1}, "policy.trigger_chars"),
        ({"analyzer_address": "not an address"}, "policy.analyzer_address"),
        ({"analyzer_timeout_ms": 70_000}, "policy.analyzer_timeout_ms"),
    ):
        with pytest.raises(grpc.RpcError) as err:
            set_policy(journal, **fields)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert error_field(err.value) == name
    request_id = str(uuid.uuid4())
    request = tpb.SetCompactionPolicyRequest(
        policy=tpb.CompactionPolicy(tail_turns=4, trigger_chars=5000), request_id=request_id
    )
    first = journal.SetCompactionPolicy(request).policy
    assert first.version == default.version + 1 and first.tail_turns == 4
    assert journal.SetCompactionPolicy(request).policy.version == first.version  # replay
    with pytest.raises(grpc.RpcError) as err:
        journal.SetCompactionPolicy(
            tpb.SetCompactionPolicyRequest(
                policy=tpb.CompactionPolicy(tail_turns=5), request_id=request_id
            )
        )
    assert err.value.code() == grpc.StatusCode.ALREADY_EXISTS
    other = pb_grpc.JournalServiceStub(channel_to(start_services(["journal"])))
    durable = other.GetCompactionPolicy(tpb.GetCompactionPolicyRequest()).policy
    assert (durable.tail_turns, durable.trigger_chars, durable.version) == (4, 5000, first.version)


def test_get_session_context_validates(journal: pb_grpc.JournalServiceStub) -> None:
    for fields, name in (
        ({"subject": "", "session_id": "s"}, "subject"),
        ({"subject": "a", "session_id": ""}, "session_id"),
        ({"subject": "a", "session_id": "s", "budget_tokens": -1}, "budget_tokens"),
        ({"subject": "a", "session_id": "s", "tail_turns": 1000}, "tail_turns"),
    ):
        with pytest.raises(grpc.RpcError) as err:
            journal.GetSessionContext(tpb.GetSessionContextRequest(**fields))
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert error_field(err.value) == name


# ---------------------------------------------------------- self-duplication


def test_commit_turn_refuses_rendered_context(journal: pb_grpc.JournalServiceStub) -> None:
    rendered = (
        "<engram:session_transcript>\nThe following is this session's own earlier "
        "conversation.\n- [turn 1] ...\n</engram:session_transcript>\nWhat did I say?"
    )
    with pytest.raises(grpc.RpcError) as err:
        commit_turn(journal, rendered, "You said ...", subject=SUBJECT, session_id=SESSION)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_field(err.value) == "user_text"
    assert error_info(err.value).reason == "RENDERED_CONTEXT_IN_TURN"
    assert context(journal).coverage.cardinality.matched_before_limit == 0  # nothing written


# ---------------------------------------------------------------------- CLI


def test_cli_compact_dry_run_shows_the_plan_and_the_decline(
    start_services: Callable[..., Suite], channel_to: Any, db: Database
) -> None:
    from click.testing import CliRunner

    from engram.cli.main import cli

    suite = start_services(["journal"])
    stub = pb_grpc.JournalServiceStub(channel_to(suite))
    set_policy(stub, tail_turns=2, trigger_chars=1)
    commit_many(stub, 4)
    analysed(stub, db)

    def run(*args: str) -> str:
        result = CliRunner().invoke(
            cli, [*args, "--address", suite.address], catch_exceptions=False
        )
        assert result.exit_code == 0, result.output
        return result.output

    with db.connection() as conn:
        conn.execute("DELETE FROM journal.session_checkpoints")
        conn.commit()
    plan = run("journal", "compact", SESSION, "--subject", SUBJECT, "--dry-run")
    assert "compacted" in plan and "dry run: nothing stored" in plan and "pruned 2" in plan
    with db.connection() as conn:
        stored = conn.execute("SELECT count(*) AS n FROM journal.session_checkpoints").fetchone()
    assert stored is not None and stored["n"] == 0  # a dry run stores nothing
    assert "from the stored projection" not in run(
        "journal", "compact", SESSION, "--subject", SUBJECT
    )
    _append(stub, "tool.call.completed", {"tool": "x"})
    commit_many(stub, 2, start=4)
    analysed(stub, db)
    declined = json.loads(
        run("journal", "compact", SESSION, "--subject", SUBJECT, "--dry-run", "--json")
    )
    assert declined["outcome"] == "COMPACTION_OUTCOME_DECLINED"
    assert "COMPACTION_ISSUE_REASON_TOOL_EVENTS_IN_RANGE" in {
        i["reason"] for i in declined["issues"]
    }


# ------------------------------------------------- incremental verification


def _prefix(db: Database) -> dict[str, Any] | None:
    with db.connection() as conn:
        row: dict[str, Any] | None = conn.execute(
            "SELECT * FROM journal.session_verified_prefixes"
            " WHERE subject = %s AND session_id = %s",
            (SUBJECT, SESSION),
        ).fetchone()
    return row


def _put_prefix(db: Database, row: dict[str, Any]) -> None:
    """Store a prefix row as a racing writer could have: verified in a
    snapshot from before what has happened since."""
    columns = [c for c in row if c != "built_at"]
    with db.connection() as conn:
        conn.execute(
            "DELETE FROM journal.session_verified_prefixes WHERE subject = %s AND session_id = %s",
            (SUBJECT, SESSION),
        )
        conn.execute(
            f"INSERT INTO journal.session_verified_prefixes ({', '.join(columns)})"
            f" VALUES ({', '.join(['%s'] * len(columns))})",
            [row[c] for c in columns],
        )
        conn.commit()


def _same_as_full(journal: pb_grpc.JournalServiceStub) -> tpb.GetSessionContextResponse:
    """One ordinary call (verifying after the stored prefix) must say what a
    dry run verifying the whole session says."""
    served = context(journal)
    full = context(journal, dry_run=True)
    assert served.outcome == full.outcome
    assert [(i.reason, i.event_id) for i in served.issues] == [
        (i.reason, i.event_id) for i in full.issues
    ]
    assert [t.event_id for t in served.tail] == [t.event_id for t in full.tail]
    assert served.checkpoint.sha256 == full.checkpoint.sha256
    assert served.checkpoint.text == full.checkpoint.text
    assert list(served.checkpoint.sources) == list(full.checkpoint.sources)
    assert served.quarantined_turns_excluded == full.quarantined_turns_excluded
    assert served.coverage.cardinality == full.coverage.cardinality
    return served


def test_calls_verify_after_the_prefix_and_agree_with_full_verification(
    journal: pb_grpc.JournalServiceStub, db: Database
) -> None:
    set_policy(journal, tail_turns=2, trigger_chars=1)
    receipts = commit_many(journal, 8)
    analysed(journal, db)
    first = _same_as_full(journal)
    prefix = _prefix(db)
    assert prefix is not None
    # Every pruned turn was verified clean: the prefix reaches the last one.
    assert prefix["through_event_id"] == receipts[5].event_id
    assert list(prefix["turn_event_ids"]) == [r.event_id for r in receipts[:6]]
    assert prefix["visible_count"] == 6
    # Only the turns after it are verified again; a dry run verifies all.
    assert context(journal).turns_verified == 2
    assert context(journal, dry_run=True).turns_verified == 8
    # More turns: the next calls verify only those (the prefix stays until
    # enough are verified to be worth rewriting) and still agree.
    receipts += commit_many(journal, 3, start=8)
    analysed(journal, db)
    after = _same_as_full(journal)
    assert after.turns_verified == 5
    assert after.checkpoint.sha256 != first.checkpoint.sha256
    assert [s.turn_event_id for s in after.checkpoint.sources] == [r.event_id for r in receipts[:9]]
    # A tail wider than the verified range reaches back into it.
    wide = context(journal, tail_turns=10)
    assert [t.event_id for t in wide.tail] == [r.event_id for r in receipts[1:]]
    assert [s.turn_event_id for s in wide.checkpoint.sources] == [receipts[0].event_id]


def test_episode_quarantine_inside_the_verified_range(
    journal: pb_grpc.JournalServiceStub, db: Database
) -> None:
    """Quarantining the episode of a turn the checkpoint and the verified
    prefix cover: the next call leaves its content out (checkpoint rebuilt,
    coverage one turn less), even when a stale prefix from before the
    quarantine is stored again by a racing writer."""
    set_policy(journal, tail_turns=2, trigger_chars=1)
    receipts = commit_many(journal, 7)
    analysed(journal, db)
    before = _same_as_full(journal)
    assert before.outcome == tpb.COMPACTION_OUTCOME_COMPACTED
    stale = _prefix(db)
    assert stale is not None
    victim = receipts[2]
    assert victim.event_id in stale["turn_event_ids"] and victim.episode_id
    journal.Quarantine(
        pb.QuarantineRequest(
            record_kind=pb.RECORD_KIND_EPISODE, record_id=victim.episode_id, reason="wrong"
        )
    )
    assert _prefix(db) is None  # dropped by the quarantine
    _put_prefix(db, stale)  # and stored again from a snapshot before it

    def check_excluded(rebuilt: bool) -> tpb.GetSessionContextResponse:
        after = _same_as_full(journal)
        assert after.outcome == tpb.COMPACTION_OUTCOME_COMPACTED
        assert (R.COMPACTION_ISSUE_REASON_QUARANTINED_IN_RANGE, victim.event_id) in {
            (i.reason, i.event_id) for i in after.issues
        }
        sources = [s.turn_event_id for s in after.checkpoint.sources]
        assert victim.event_id not in sources and len(sources) == 4
        assert f"[event {victim.event_id}]" not in after.checkpoint.text
        assert "topic-2" not in after.checkpoint.text
        # The first call after the quarantine rebuilds; later ones may serve
        # that rebuilt checkpoint from the projection.
        assert after.checkpoint.from_projection is not rebuilt
        assert after.checkpoint.sha256 != before.checkpoint.sha256
        assert after.quarantined_turns_excluded == 1
        validate(after.coverage)
        card = after.coverage.cardinality
        assert (card.returned, card.matched_before_limit, card.truncated) == (6, 6, False)
        return after

    after = check_excluded(rebuilt=True)
    rebuilt = _prefix(db)
    assert rebuilt is not None and rebuilt["frontier"] > stale["frontier"]
    assert victim.event_id not in rebuilt["turn_event_ids"]
    assert list(rebuilt["withheld_event_ids"]) == [victim.event_id]
    assert context(journal).checkpoint.sha256 == after.checkpoint.sha256  # served again
    _put_prefix(db, stale)
    check_excluded(rebuilt=False)
    journal.Restore(
        pb.RestoreRequest(
            record_kind=pb.RECORD_KIND_EPISODE, record_id=victim.episode_id, reason="ok"
        )
    )
    restored = _same_as_full(journal)
    assert restored.checkpoint.sha256 == before.checkpoint.sha256
    assert restored.quarantined_turns_excluded == 0


def test_a_late_turn_inside_the_verified_range_is_not_skipped(
    journal: pb_grpc.JournalServiceStub, db: Database
) -> None:
    """A turn committed by a transaction that ended after the prefix's
    snapshot, with an event id inside its range: the prefix does not know it,
    so it is not trusted and the turn is verified and covered."""
    set_policy(journal, tail_turns=2, trigger_chars=1)
    receipts = commit_many(journal, 6)
    analysed(journal, db)
    context(journal)
    prefix = _prefix(db)
    assert prefix is not None
    late = receipts[1]
    with db.connection() as conn:
        change = conn.execute(
            "SELECT cursor FROM journal.changes WHERE kind = 'event_appended' AND event_id = %s",
            (late.event_id,),
        ).fetchone()
    assert change is not None
    cursor = change["cursor"]
    keep = [i for i, e in enumerate(prefix["turn_event_ids"]) if e != late.event_id]
    forged = {
        **prefix,
        "frontier": cursor,  # the verifying snapshot did not see that change
        "turn_event_ids": [prefix["turn_event_ids"][i] for i in keep],
        "content_hashes": [prefix["content_hashes"][i] for i in keep],
        "analysis_event_ids": [prefix["analysis_event_ids"][i] for i in keep],
        "visible_count": len(keep),
    }
    _put_prefix(db, forged)
    served = _same_as_full(journal)
    assert late.event_id in [s.turn_event_id for s in served.checkpoint.sources]


def test_a_new_analysis_of_a_verified_turn_is_checked_again(
    journal: pb_grpc.JournalServiceStub, db: Database
) -> None:
    set_policy(journal, tail_turns=1, trigger_chars=1)
    receipts = commit_many(journal, 4)
    analysed(journal, db)
    assert _same_as_full(journal).outcome == tpb.COMPACTION_OUTCOME_COMPACTED
    assert _prefix(db) is not None
    _analysis_of_other_content(journal, receipts[1].event_id)
    response = _same_as_full(journal)
    assert (R.COMPACTION_ISSUE_REASON_HASH_MISMATCH, receipts[1].event_id) in {
        (i.reason, i.event_id) for i in response.issues
    }
    assert response.outcome == tpb.COMPACTION_OUTCOME_DECLINED


def test_a_policy_change_or_a_purge_drops_the_prefix(
    journal: pb_grpc.JournalServiceStub, db: Database
) -> None:
    set_policy(journal, tail_turns=1, trigger_chars=1)
    commit_many(journal, 4)
    analysed(journal, db)
    context(journal)
    stale = _prefix(db)
    assert stale is not None
    policy = set_policy(journal, tail_turns=1, trigger_chars=1, checkpoint_max_chars=1000)
    analysed(journal, db)
    _same_as_full(journal)
    rebuilt = _prefix(db)
    assert rebuilt is not None and rebuilt["policy_version"] == policy.version
    journal.Purge(pb.PurgeRequest(subject=SUBJECT, reason="erasure request"))
    assert _prefix(db) is None
    _put_prefix(db, rebuilt)  # a writer that read before the purge
    gone = context(journal)
    assert gone.coverage.cardinality.matched_before_limit == 0 and not gone.tail


def test_concurrent_commits_and_reads_agree_with_full_verification(
    journal: pb_grpc.JournalServiceStub, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Writers commit while readers move the verified prefix on after every
    call (the rewrite threshold lowered to one turn), so prefixes are built
    from snapshots that concurrent commits miss. Every answer is a valid
    coverage, and afterwards a call agrees with full verification."""
    from memory_service import transcript_store

    monkeypatch.setattr(transcript_store, "PREFIX_EXTEND_EVERY", 1)
    set_policy(journal, tail_turns=2, trigger_chars=1)
    commit_many(journal, 4)
    errors: list[BaseException] = []

    def writer(w: int) -> None:
        try:
            commit_many(journal, 12, start=100 * (w + 1))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    def reader() -> None:
        try:
            for _ in range(12):
                response = context(journal)
                validate(response.coverage)
                assert response.outcome != tpb.COMPACTION_OUTCOME_UNSPECIFIED
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    with futures.ThreadPoolExecutor(max_workers=6) as pool:
        done = [pool.submit(writer, w) for w in range(4)] + [pool.submit(reader) for _ in range(2)]
        for f in done:
            f.result()
    assert errors == []
    for _ in range(3):  # analyse what the last commits left, then compare
        context(journal)
    served = _same_as_full(journal)
    assert served.outcome == tpb.COMPACTION_OUTCOME_COMPACTED
    assert served.coverage.cardinality.matched_before_limit == 52

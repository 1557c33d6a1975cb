"""Quarantine reach, by table: every record kind x every read path its content
reaches, on the full suite (journal, learning, retrieval, gateway) in one
process on real PostgreSQL, driven through gRPC.

Each row seeds one record carrying WORD, checks WORD is visible on the path,
quarantines the record and checks WORD is gone on the first call after
Quarantine returns, again once every background worker has caught up, and
back after Restore. Paths served from the resident index run with the
index's follower paused across the Quarantine call, so the first answer
cannot lean on the feed having been applied.

Record kinds:

* ``turn_event``: a ``conversation.turn.completed`` event (the same content is
  committed twice in one session; the first event is quarantined);
* ``episode``: the episode of that content;
* ``run_record``: a recovered run-memory record;
* ``run_event``: the run's ``run.completed`` event.

Run kinds also reach the learning plane through what it derived from the
run: a preference captured from the run's labelled request (learned context,
its rendered section, SearchLearnings, the gateway's operator views) and a
skill promoted from a procedure whose source names the run (ListActiveSkills,
SearchLearnings, GetMemoryContext's visible skills). While the run's record
or its run.completed event is quarantined they are withheld there; the
governance views (GetLearning, ListLearnings, GetCandidate, GetSkill,
ListSkills) still list them, marked withheld_by_quarantine.

Pairs left out of the table are paths the kind's content never reaches:
episode text is never in run memory, learnings, SearchMemory or
GetMemoryContext, and run text is never in episodes, the episode indexes or
the feed (feed changes carry ids, and bodies of episodes only).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import grpc
import pytest
from google.protobuf.json_format import MessageToJson

from engram.common.v1 import common_pb2 as cpb
from engram.gateway.v1 import gateway_pb2 as gpb
from engram.gateway.v1 import gateway_pb2_grpc as gpb_grpc
from engram.journal.v1 import journal_pb2 as jpb
from engram.journal.v1 import journal_pb2_grpc as jpb_grpc
from engram.journal.v1 import transcript_pb2 as tpb
from engram.learning.v1 import learning_pb2 as lpb
from engram.learning.v1 import learning_pb2_grpc as lpb_grpc
from engram.retrieval.v1 import retrieval_pb2 as rpb
from engram.retrieval.v1 import retrieval_pb2_grpc as rpb_grpc
from engram.server import Suite
from retrieval_service import persist
from retrieval_service.records import split_key
from tests.helpers import enable_preference_publication, wait_for_embeddings

pytestmark = pytest.mark.e2e

ALL = ["journal", "learning", "retrieval", "gateway"]
SUBJECT = "alice"
WORD = "quokkalantern"
TURN_SESSION = "s-turn"
RUN_SESSION = "s-run"
OTHER_SESSION = "s-other"
T = TypeVar("T")


class StillVisible(AssertionError):
    """The quarantined content was served after Quarantine returned."""


def poll(probe: Callable[[], T | None], what: str, timeout: float = 30.0) -> T:
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


# --------------------------------------------------------------------- world


@dataclass
class World:
    suite: Suite
    journal: jpb_grpc.JournalServiceStub
    learning: lpb_grpc.LearningServiceStub
    retrieval: rpb_grpc.RetrievalServiceStub
    gateway: gpb_grpc.GatewayServiceStub
    # The journal watermark the last settle() waited for.
    settled_at: int = 0

    @property
    def runtime(self) -> Any:
        binding = next(b for b in self.suite.bindings if b.name == "retrieval")
        return binding.servicer.runtime  # type: ignore[attr-defined]

    def settle(self) -> None:
        """Every episode embedded (or skipped while quarantined) and every
        committed change applied to the resident index."""
        wait_for_embeddings(self.journal)
        watermark = self.journal.GetStatus(jpb.GetStatusRequest()).feed_watermark

        def applied() -> bool:
            status = self.retrieval.GetIndexStatus(rpb.GetIndexStatusRequest())
            return status.ready and status.applied_cursor >= watermark

        poll(applied, f"the index at cursor {watermark}")
        self.settled_at = watermark

    def assemble(self, session_id: str, text: str) -> gpb.AssembleContextResponse:
        return self.gateway.AssembleContext(
            gpb.AssembleContextRequest(
                subject=SUBJECT,
                session_id=session_id,
                input_text=text,
                request_id=str(uuid.uuid4()),
            )
        )


@dataclass(frozen=True)
class Target:
    kind: str
    record_kind: jpb.RecordKind.ValueType
    record_id: str
    session_id: str
    episode_id: str = ""
    # The event that carries the content (the quarantined one for turn_event).
    event_id: int = 0
    # turn kinds: the second occurrence of the same content in the session.
    twin_event_id: int = 0
    run_id: str = ""


def commit(world: World, user: str, assistant: str, session: str, run_id: str = "") -> Any:
    return world.journal.CommitTurn(
        jpb.CommitTurnRequest(
            subject=SUBJECT,
            session_id=session,
            user_text=user,
            assistant_text=assistant,
            request_id=str(uuid.uuid4()),
            learning_eligible=True,
            run_id=run_id,
        )
    ).receipt


def seed_turn(world: World, kind: str) -> Target:
    user = f"The spare key is under the {WORD} by the door."
    first = commit(world, user, "Noted, by the door.", TURN_SESSION)
    second = commit(world, user, "Noted, by the door.", TURN_SESSION)
    assert first.episode_id == second.episode_id
    if kind == "turn_event":
        record_kind, record_id = jpb.RECORD_KIND_EVENT, str(first.event_id)
    else:
        record_kind, record_id = jpb.RECORD_KIND_EPISODE, first.episode_id
    return Target(
        kind,
        record_kind,
        record_id,
        TURN_SESSION,
        episode_id=first.episode_id,
        event_id=first.event_id,
        twin_event_id=second.event_id,
    )


SKILL = "file-report"
SKILL_MARKER = "SKILL-ROLLOUT-OK"


def rollout_run(world: World) -> str:
    """A completed run (not the quarantined one) whose output has the marker."""
    run_id = f"run-rollout-{uuid.uuid4().hex[:8]}"
    world.journal.CompleteRun(
        jpb.CompleteRunRequest(
            run_id=run_id,
            session_id=f"s-rollout-{uuid.uuid4().hex[:8]}",
            subject=SUBJECT,
            status=jpb.RUN_STATUS_COMPLETED,
            request_text="run the filing skill",
            outcome_text=f"done: {SKILL_MARKER}",
            request_id=str(uuid.uuid4()),
        )
    )
    return run_id


def seed_skill(world: World, run_id: str, event_id: int) -> None:
    """A procedure whose source is the run, published, promoted and rolled out
    to an active skill."""
    candidate = world.learning.CreateCandidate(
        lpb.CreateCandidateRequest(
            scope=cpb.Scope(kind=cpb.SCOPE_KIND_WORKSPACE, id="default"),
            kind=lpb.LEARNING_KIND_PROCEDURE,
            content=f"To file the {WORD} report: open the ledger and attach the receipts.",
            confidence=95,
            source=lpb.Source(
                run_id=run_id, session_id=RUN_SESSION, subject=SUBJECT, event_id=event_id
            ),
            request_id=str(uuid.uuid4()),
        )
    ).candidate
    learning = world.learning.PublishCandidate(
        lpb.PublishCandidateRequest(
            candidate_id=candidate.candidate_id, publish_tier=lpb.PUBLISH_TIER_ACTIVE
        )
    ).learning
    world.learning.PromoteToSkill(
        lpb.PromoteToSkillRequest(
            learning_id=learning.learning_id,
            skill_name=SKILL,
            execution_context=lpb.EXECUTION_CONTEXT_FORK,
            verification_profile="verification",
        )
    )
    for stage in (
        lpb.ROLLOUT_STAGE_VERIFICATION,
        lpb.ROLLOUT_STAGE_CANARY,
        lpb.ROLLOUT_STAGE_CANARY,
    ):
        world.learning.RecordRolloutResult(
            lpb.RecordRolloutResultRequest(
                skill_name=SKILL,
                stage=stage,
                run_id=rollout_run(world),
                subject=SUBJECT,
                expected_marker=SKILL_MARKER,
            )
        )
    skill = world.learning.GetSkill(lpb.GetSkillRequest(skill_name=SKILL)).skill
    assert skill.state == lpb.SKILL_STATE_ACTIVE, lpb.SkillState.Name(skill.state)


def seed_run(world: World, kind: str, *, learned: bool, skill: bool = False) -> Target:
    run_id = "run-reach"
    if learned:
        # A labelled request: capture turns it into a preference that the
        # publication rule publishes, so it reaches learned context.
        enable_preference_publication(world.learning)
        request = f"Preference: always title the weekly report {WORD}."
        commit(world, request, "Understood.", RUN_SESSION, run_id=run_id)
    else:
        request = f"File the {WORD} expense report."
    completed = world.journal.CompleteRun(
        jpb.CompleteRunRequest(
            run_id=run_id,
            session_id=RUN_SESSION,
            subject=SUBJECT,
            status=jpb.RUN_STATUS_COMPLETED,
            request_text=request,
            outcome_text=f"Filed the {WORD} report.",
            request_id=str(uuid.uuid4()),
        )
    )
    if learned:

        def published() -> list[lpb.Learning]:
            return [
                item
                for item in world.learning.ListLearnings(
                    lpb.ListLearningsRequest(status=lpb.LEARNING_STATUS_FILTER_ACTIVE)
                ).learnings
                if WORD in item.content
            ]

        poll(published, "the preference to publish")
    if skill:
        seed_skill(world, run_id, completed.event_id)
    if kind == "run_record":
        record_kind, record_id = jpb.RECORD_KIND_RUN_RECORD, run_id
    else:
        record_kind, record_id = jpb.RECORD_KIND_EVENT, str(completed.event_id)
    return Target(
        kind, record_kind, record_id, RUN_SESSION, event_id=completed.event_id, run_id=run_id
    )


# -------------------------------------------------------------------- probes
# Each returns True when WORD (the record's content) is visible on the path.


def session_events(world: World, session_id: str) -> list[jpb.Event]:
    events: list[jpb.Event] = []
    token = ""
    while True:
        page = world.journal.ReadSessionJournal(
            jpb.ReadSessionJournalRequest(
                subject=SUBJECT, session_id=session_id, page_size=1000, page_token=token
            )
        )
        events.extend(page.events)
        token = page.next_page_token
        if not token:
            return events


def read_session_journal(world: World, t: Target) -> bool:
    return any(WORD in MessageToJson(e.payload) for e in session_events(world, t.session_id))


def read_session_journal_says_so(world: World, t: Target) -> None:
    """Quarantined events are omitted; events whose content a quarantine hides
    are returned withheld, with the reason and no content."""
    events = {e.event_id: e for e in session_events(world, t.session_id)}
    withheld = {i: e.withheld_reason for i, e in events.items() if e.withheld}
    for event in events.values():
        assert event.withheld == bool(event.withheld_reason)
        if event.withheld:
            assert not event.payload.fields and not event.content_sha256
    if t.kind == "turn_event":
        assert t.event_id not in events
        assert withheld == {t.twin_event_id: "TURN_QUARANTINED"}
    elif t.kind == "episode":
        assert withheld == {
            t.event_id: "EPISODE_QUARANTINED",
            t.twin_event_id: "EPISODE_QUARANTINED",
        }
    elif t.kind == "run_record":
        assert withheld == {t.event_id: "RUN_RECORD_QUARANTINED"}
    else:
        assert t.event_id not in events
        assert withheld == {}


def search_episodes(world: World, t: Target) -> bool:
    response = world.journal.SearchEpisodes(
        jpb.SearchEpisodesRequest(query_text=WORD, subject=SUBJECT, limit=10)
    )
    return any(WORD in h.episode.user_text for h in response.hits)


def batch_get_episodes(world: World, t: Target) -> bool:
    response = world.journal.BatchGetEpisodes(
        jpb.BatchGetEpisodesRequest(episode_ids=[t.episode_id], include_embeddings=True)
    )
    return any(WORD in e.user_text for e in response.episodes)


def find_exact(world: World, t: Target) -> bool:
    response = world.retrieval.FindExact(rpb.FindExactRequest(terms=[WORD], subject=SUBJECT))
    return any(WORD in h.user_text for h in response.hits)


def recall(world: World, served_by: int) -> bool:
    response = world.retrieval.Recall(
        rpb.RecallRequest(query_text=f"where is the {WORD}", subject=SUBJECT, limit=10)
    )
    assert response.served_by == served_by, rpb.ServedBy.Name(response.served_by)
    return any(WORD in h.user_text or WORD in h.assistant_text for h in response.hits)


def recall_resident(world: World, t: Target) -> bool:
    return recall(world, rpb.SERVED_BY_RESIDENT)


def recall_resident_settled(world: World, t: Target) -> None:
    """Once the follower caught up, the index itself no longer holds the episode
    (for a turn event: through the episode change its quarantine announces)."""
    snapshot = world.runtime.index.snapshot
    assert snapshot.locate(*split_key(t.episode_id)) is None


def recall_fallback(world: World, t: Target) -> bool:
    return recall(world, rpb.SERVED_BY_FALLBACK)


def stream_changes(world: World, t: Target) -> bool:
    for batch in world.journal.StreamChanges(
        jpb.StreamChangesRequest(after_cursor=0, follow=False, include_embeddings=True)
    ):
        for change in batch.changes:
            if WORD in change.episode.user_text or WORD in change.episode.assistant_text:
                return True
    return False


def persisted_snapshot(world: World, t: Target) -> bool:
    runtime = world.runtime
    loaded = persist.load(runtime.persist_root, runtime.embedder.dimension, runtime.embedder.name)
    assert loaded is not None, "no persisted snapshot"
    snapshot, _ = loaded
    assert snapshot.applied_cursor >= world.settled_at, "the snapshot predates the change"
    return snapshot.locate(*split_key(t.episode_id)) is not None


def persist_now(world: World) -> None:
    """The first snapshot persisted once the index applied every change so far."""
    world.settle()
    world.runtime.persister.save_now()


def episodic_recall_section(world: World, t: Target) -> bool:
    response = world.assemble(OTHER_SESSION, f"Where did I say the {WORD} was?")
    return WORD in section(response, "episodic_recall").rendered


def compacting(world: World) -> None:
    """Compact from the first character with a one-turn tail, so of the two
    seeded turns the first is in the checkpoint (its summary carries WORD)
    and the second is the literal tail."""
    policy = world.journal.GetCompactionPolicy(tpb.GetCompactionPolicyRequest()).policy
    if (policy.tail_turns, policy.trigger_chars) != (1, 1):
        world.journal.SetCompactionPolicy(
            tpb.SetCompactionPolicyRequest(
                policy=tpb.CompactionPolicy(tail_turns=1, trigger_chars=1)
            )
        )


def session_context(world: World, t: Target) -> bool:
    compacting(world)
    response = world.journal.GetSessionContext(
        tpb.GetSessionContextRequest(subject=SUBJECT, session_id=t.session_id)
    )
    return WORD in response.checkpoint.text or any(WORD in turn.user_text for turn in response.tail)


def session_context_says_so(world: World, t: Target) -> None:
    """Both turns carry the content: neither is returned, both are reported
    hidden by the quarantine, and the coverage counts none."""
    response = world.journal.GetSessionContext(
        tpb.GetSessionContextRequest(subject=SUBJECT, session_id=t.session_id)
    )
    assert not response.tail and not response.HasField("checkpoint")
    assert response.quarantined_turns_excluded == 2
    assert response.coverage.cardinality.matched_before_limit == 0


def session_transcript_section(world: World, t: Target) -> bool:
    compacting(world)
    response = world.assemble(t.session_id, "Where is the spare key?")
    return WORD in section(response, "session_transcript").rendered


def section(response: gpb.AssembleContextResponse, name: str) -> gpb.ContextSection:
    return next(s for s in response.sections if s.name == name)


def get_run_record(world: World, t: Target) -> bool:
    try:
        record = world.journal.GetRunRecord(
            jpb.GetRunRecordRequest(run_id=t.run_id, subject=SUBJECT)
        ).record
    except grpc.RpcError as error:
        if error.code() == grpc.StatusCode.NOT_FOUND:
            return False
        raise
    return WORD in record.request_preview or WORD in record.summary


def search_run_memory(world: World, t: Target) -> bool:
    response = world.journal.SearchRunMemory(
        jpb.SearchRunMemoryRequest(subject=SUBJECT, session_id=t.session_id, query=WORD)
    )
    return any(r.record.run_id == t.run_id for r in response.records)


def recovered_memory(world: World, t: Target) -> bool:
    response = world.journal.GetRecoveredMemory(
        jpb.GetRecoveredMemoryRequest(
            subject=SUBJECT, session_id=t.session_id, pending_input=f"the {WORD} report"
        )
    )
    return any(
        WORD in r.record.summary or WORD in r.record.request_preview for r in response.records
    )


def recovered_memory_section(world: World, t: Target) -> bool:
    response = world.assemble(t.session_id, f"Did the {WORD} report get filed?")
    return WORD in section(response, "recovered_memory").rendered


def search_memory(world: World, t: Target) -> bool:
    hits = world.gateway.SearchMemory(
        gpb.SearchMemoryRequest(subject=SUBJECT, session_id=t.session_id, query=WORD)
    ).hits
    return any(h.id == t.run_id or WORD in h.excerpt or WORD in h.title for h in hits)


def memory_context(world: World, t: Target) -> bool:
    view = world.gateway.GetMemoryContext(
        gpb.GetMemoryContextRequest(
            subject=SUBJECT, session_id=t.session_id, pending_input=f"the {WORD} report"
        )
    )
    items = [*view.recovered_memory, *view.learned_context]
    return any(i.id == t.run_id or WORD in i.text for i in items)


def learned_context(world: World, t: Target) -> bool:
    response = world.learning.GetLearnedContext(
        lpb.GetLearnedContextRequest(
            subject=SUBJECT,
            session_id=t.session_id,
            pending_input=f"how do I title the weekly report {WORD}",
        )
    )
    return any(WORD in e.learning.content for e in response.entries)


def learned_context_section(world: World, t: Target) -> bool:
    response = world.assemble(t.session_id, f"How do I title the weekly report {WORD}?")
    return WORD in section(response, "learned_context").rendered


def search_learnings(world: World, t: Target) -> bool:
    hits = world.learning.SearchLearnings(
        lpb.SearchLearningsRequest(
            subject=SUBJECT, scope_keys=[f"session:{t.session_id}"], query=WORD
        )
    ).hits
    return any(h.hit_kind == "learning" and WORD in h.excerpt for h in hits)


def search_memory_learnings(world: World, t: Target) -> bool:
    hits = world.gateway.SearchMemory(
        gpb.SearchMemoryRequest(subject=SUBJECT, session_id=t.session_id, query=WORD)
    ).hits
    return any(h.hit_kind == "learning" and WORD in h.excerpt for h in hits)


def memory_context_learned(world: World, t: Target) -> bool:
    view = world.gateway.GetMemoryContext(
        gpb.GetMemoryContextRequest(
            subject=SUBJECT,
            session_id=t.session_id,
            pending_input=f"how do I title the weekly report {WORD}",
        )
    )
    return any(WORD in i.text for i in view.learned_context)


def learnings_from_the_run(world: World) -> list[lpb.Learning]:
    return [
        item
        for item in world.learning.ListLearnings(lpb.ListLearningsRequest()).learnings
        if WORD in item.content
    ]


def learning_marked(world: World, withheld: bool) -> None:
    """Governance still shows the learning, and says whether it is withheld."""
    found = learnings_from_the_run(world)
    assert found, "ListLearnings no longer lists the learning"
    for item in found:
        assert item.withheld_by_quarantine is withheld, item.learning_id
        got = world.learning.GetLearning(lpb.GetLearningRequest(learning_id=item.learning_id))
        assert got.learning.withheld_by_quarantine is withheld
        candidate = world.learning.GetCandidate(
            lpb.GetCandidateRequest(candidate_id=item.candidate_id)
        ).candidate
        assert candidate.withheld_by_quarantine is withheld
    status = world.learning.GetLearningStatus(lpb.GetLearningStatusRequest())
    assert (status.learnings_withheld > 0) is withheld


def learning_marked_withheld(world: World, t: Target) -> None:
    learning_marked(world, True)


def learning_marked_visible(world: World, t: Target) -> None:
    learning_marked(world, False)


def active_skills(world: World, t: Target) -> bool:
    skills = world.learning.ListActiveSkills(lpb.ListActiveSkillsRequest()).skills
    return any(s.skill_name == SKILL for s in skills)


def search_learnings_skills(world: World, t: Target) -> bool:
    hits = world.learning.SearchLearnings(lpb.SearchLearningsRequest(query=WORD)).hits
    return any(h.hit_kind == "skill" and h.id == SKILL for h in hits)


def memory_context_skills(world: World, t: Target) -> bool:
    view = world.gateway.GetMemoryContext(
        gpb.GetMemoryContextRequest(subject=SUBJECT, session_id=t.session_id)
    )
    return any(i.id == SKILL for i in view.visible_skills)


def skill_marked(world: World, withheld: bool) -> None:
    got = world.learning.GetSkill(lpb.GetSkillRequest(skill_name=SKILL)).skill
    assert got.state == lpb.SKILL_STATE_ACTIVE
    assert got.withheld_by_quarantine is withheld
    listed = [
        s
        for s in world.learning.ListSkills(lpb.ListSkillsRequest()).skills
        if s.skill_name == SKILL
    ]
    assert [s.withheld_by_quarantine for s in listed] == [withheld]


def skill_marked_withheld(world: World, t: Target) -> None:
    skill_marked(world, True)


def skill_marked_visible(world: World, t: Target) -> None:
    skill_marked(world, False)


# --------------------------------------------------------------------- table


@dataclass(frozen=True)
class ReadPath:
    probe: Callable[[World, Target], bool]
    # Pause the index follower across the Quarantine call: the first answer
    # must not depend on the feed having been applied.
    pause_follower: bool = False
    # Run before each probe after a quarantine or restore (persisting).
    sync: Callable[[World], None] | None = None
    # Extra checks while quarantined (e.g. the response says so).
    hidden_check: Callable[[World, Target], None] | None = None
    # Extra checks once every worker caught up with the quarantine.
    settled_check: Callable[[World, Target], None] | None = None
    # Extra checks once restored.
    restored_check: Callable[[World, Target], None] | None = None
    # Suite settings for this path.
    settings: dict[str, object] = field(default_factory=dict)
    # Seed a run whose content reaches the learning plane: a captured
    # preference (learned) or a skill promoted from a procedure (skill).
    learned: bool = False
    skill: bool = False


PATHS: dict[str, ReadPath] = {
    "ReadSessionJournal": ReadPath(read_session_journal, hidden_check=read_session_journal_says_so),
    "SearchEpisodes": ReadPath(search_episodes),
    "BatchGetEpisodes": ReadPath(batch_get_episodes),
    "FindExact": ReadPath(find_exact),
    "Recall.resident": ReadPath(
        recall_resident, pause_follower=True, settled_check=recall_resident_settled
    ),
    "Recall.fallback": ReadPath(recall_fallback, settings={"index_shadow_mode": True}),
    "StreamChanges.payloads": ReadPath(stream_changes),
    "index_snapshot.persisted": ReadPath(persisted_snapshot, sync=persist_now),
    "rendered.episodic_recall": ReadPath(episodic_recall_section, pause_follower=True),
    "GetSessionContext": ReadPath(session_context, hidden_check=session_context_says_so),
    "rendered.session_transcript": ReadPath(session_transcript_section),
    "GetRunRecord": ReadPath(get_run_record),
    "SearchRunMemory": ReadPath(search_run_memory),
    "recovered_memory": ReadPath(recovered_memory),
    "rendered.recovered_memory": ReadPath(recovered_memory_section),
    "SearchMemory": ReadPath(search_memory),
    "GetMemoryContext": ReadPath(memory_context),
    "learned_context": ReadPath(
        learned_context,
        learned=True,
        hidden_check=learning_marked_withheld,
        restored_check=learning_marked_visible,
    ),
    "rendered.learned_context": ReadPath(learned_context_section, learned=True),
    "SearchLearnings": ReadPath(search_learnings, learned=True),
    "SearchMemory.learnings": ReadPath(search_memory_learnings, learned=True),
    "GetMemoryContext.learned_context": ReadPath(memory_context_learned, learned=True),
    "ListActiveSkills": ReadPath(
        active_skills,
        skill=True,
        hidden_check=skill_marked_withheld,
        restored_check=skill_marked_visible,
    ),
    "SearchLearnings.skills": ReadPath(search_learnings_skills, skill=True),
    "GetMemoryContext.visible_skills": ReadPath(memory_context_skills, skill=True),
}

TURN_PATHS = [
    "ReadSessionJournal",
    "SearchEpisodes",
    "BatchGetEpisodes",
    "FindExact",
    "Recall.resident",
    "Recall.fallback",
    "StreamChanges.payloads",
    "index_snapshot.persisted",
    "rendered.episodic_recall",
    "GetSessionContext",
    "rendered.session_transcript",
]
RUN_PATHS = [
    "ReadSessionJournal",
    "GetRunRecord",
    "SearchRunMemory",
    "recovered_memory",
    "rendered.recovered_memory",
    "SearchMemory",
    "GetMemoryContext",
    "learned_context",
    "rendered.learned_context",
    "SearchLearnings",
    "SearchMemory.learnings",
    "GetMemoryContext.learned_context",
    "ListActiveSkills",
    "SearchLearnings.skills",
    "GetMemoryContext.visible_skills",
]
TABLE: dict[str, list[str]] = {
    "turn_event": TURN_PATHS,
    "episode": TURN_PATHS,
    "run_record": RUN_PATHS,
    "run_event": RUN_PATHS,
}


def rows() -> list[Any]:
    return [
        pytest.param(kind, path, id=f"{kind}-{path}")
        for kind, paths in TABLE.items()
        for path in paths
    ]


@pytest.mark.parametrize(("kind", "path_name"), rows())
def test_quarantine_reach(
    kind: str,
    path_name: str,
    start_services: Callable[..., Suite],
    channel_to: Callable[..., grpc.Channel],
) -> None:
    path = PATHS[path_name]
    # A generous staleness limit: the resident index serves Recall throughout
    # (also while its follower is paused), unless the path asks for shadow mode.
    settings: dict[str, object] = {"index_staleness_seconds": 3600, **path.settings}
    suite = start_services(ALL, **settings)
    channel = channel_to(suite)
    world = World(
        suite,
        jpb_grpc.JournalServiceStub(channel),
        lpb_grpc.LearningServiceStub(channel),
        rpb_grpc.RetrievalServiceStub(channel),
        gpb_grpc.GatewayServiceStub(channel),
    )
    target = (
        seed_turn(world, kind)
        if kind in ("turn_event", "episode")
        else seed_run(world, kind, learned=path.learned, skill=path.skill)
    )

    def visible() -> bool:
        if path.sync is not None:
            path.sync(world)
        return path.probe(world, target)

    world.settle()
    assert visible(), "the content is visible before the quarantine"

    follower = world.runtime.follower
    if path.pause_follower:
        follower.pause()
    try:
        world.journal.Quarantine(
            jpb.QuarantineRequest(
                record_kind=target.record_kind,
                record_id=target.record_id,
                reason="quarantine reach",
                request_id=str(uuid.uuid4()),
            )
        )
        if visible():
            raise StillVisible(f"{kind} content served by {path_name} after Quarantine returned")
        if path.hidden_check is not None:
            path.hidden_check(world, target)
    finally:
        if path.pause_follower:
            follower.resume()

    world.settle()
    if visible():
        raise StillVisible(f"{kind} content served by {path_name} once the workers caught up")
    if path.settled_check is not None:
        path.settled_check(world, target)

    world.journal.Restore(
        jpb.RestoreRequest(
            record_kind=target.record_kind,
            record_id=target.record_id,
            reason="quarantine reach: restored",
            request_id=str(uuid.uuid4()),
        )
    )
    world.settle()
    assert visible(), f"{kind} content is back on {path_name} after Restore"
    if path.restored_check is not None:
        path.restored_check(world, target)


def test_a_turn_event_quarantine_announces_its_episode(
    start_services: Callable[..., Suite], channel_to: Callable[..., grpc.Channel]
) -> None:
    """The event's change (change_cursor) and its episode's, at the next cursor,
    in one transaction: the episode without a body while hidden, with its
    body once restored."""
    suite = start_services(["journal"], workers_enabled=False)
    journal = jpb_grpc.JournalServiceStub(channel_to(suite))
    receipt = journal.CommitTurn(
        jpb.CommitTurnRequest(
            subject=SUBJECT,
            session_id=TURN_SESSION,
            user_text=f"the {WORD} is in the attic",
            assistant_text="Attic, noted.",
            request_id=str(uuid.uuid4()),
            learning_eligible=True,
        )
    ).receipt

    def tail(after: int) -> list[jpb.Change]:
        return [
            c
            for batch in journal.StreamChanges(jpb.StreamChangesRequest(after_cursor=after))
            for c in batch.changes
        ]

    quarantined = journal.Quarantine(
        jpb.QuarantineRequest(
            record_kind=jpb.RECORD_KIND_EVENT, record_id=str(receipt.event_id), reason="reach"
        )
    )
    changes = tail(quarantined.change_cursor - 1)
    assert [(c.cursor, c.kind, c.record_kind, c.record_id) for c in changes] == [
        (
            quarantined.change_cursor,
            jpb.CHANGE_KIND_RECORD_QUARANTINED,
            jpb.RECORD_KIND_EVENT,
            str(receipt.event_id),
        ),
        (
            quarantined.change_cursor + 1,
            jpb.CHANGE_KIND_RECORD_QUARANTINED,
            jpb.RECORD_KIND_EPISODE,
            receipt.episode_id,
        ),
    ]
    assert changes[1].event_id == receipt.event_id
    assert not any(c.HasField("episode") for c in tail(0))

    restored = journal.Restore(
        jpb.RestoreRequest(
            record_kind=jpb.RECORD_KIND_EVENT, record_id=str(receipt.event_id), reason="reach"
        )
    )
    changes = tail(restored.change_cursor - 1)
    assert [(c.kind, c.record_kind) for c in changes] == [
        (jpb.CHANGE_KIND_RECORD_RESTORED, jpb.RECORD_KIND_EVENT),
        (jpb.CHANGE_KIND_RECORD_RESTORED, jpb.RECORD_KIND_EPISODE),
    ]
    assert changes[1].episode.episode_id == receipt.episode_id
    assert WORD in changes[1].episode.user_text
    # Events that are not turns have no episode to announce.
    event = journal.AppendEvent(
        jpb.AppendEventRequest(
            event_type="tool.call.completed",
            subject=SUBJECT,
            session_id=TURN_SESSION,
            provenance=jpb.PROVENANCE_EXTERNAL,
            request_id=str(uuid.uuid4()),
        )
    ).event
    other = journal.Quarantine(
        jpb.QuarantineRequest(
            record_kind=jpb.RECORD_KIND_EVENT, record_id=str(event.event_id), reason="reach"
        )
    )
    assert [c.record_kind for c in tail(other.change_cursor - 1)] == [jpb.RECORD_KIND_EVENT]

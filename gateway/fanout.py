"""The parallel fan-out of AssembleContext.

learned_context (LearningService.GetLearnedContext), recovered_memory
(JournalService.GetRecoveredMemory, this subject/workspace/session only) and
episodic_recall (RetrievalService.Recall, excluding the active session) are fetched
in parallel on the gateway's thread pool, each under the downstream deadline; an
existence question also runs RetrievalService.FindExact (gateway.routing). Every
answer becomes a SectionInput with validated coverage (gateway.sections); a plane that
fails or does not answer in time becomes UNAVAILABLE/FAILED evidence, never an empty
search. The executor is an engram.downstream.ContextThreadPool, so every fetch runs
in the caller's context and its downstream call carries the caller's call id.
"""

from __future__ import annotations

import functools
import hashlib
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass

import grpc

from engram.coverage import derive_absence
from engram.downstream import downstream_error
from engram.gateway.v1 import gateway_pb2 as gpb
from engram.journal.v1 import journal_pb2 as jpb
from engram.journal.v1 import transcript_pb2 as tpb
from engram.learning.v1 import learning_pb2 as lpb
from engram.retrieval.v1 import retrieval_pb2 as rpb
from gateway.downstream import DownstreamError, Planes, late, wait
from gateway.evidence import ExactEvidence
from gateway.routing import ExactRoute
from gateway.sections import (
    SectionInput,
    Who,
    checked,
    episodic_section,
    failed_coverage,
    from_error,
    learned_section,
    recovered_section,
)
from gateway.transcript import transcript_section

log = logging.getLogger("engram.gateway")

LEARNED_MAX_ENTRIES = 8
RECALL_LIMIT = 5
EXACT_LIMIT = 20
MAX_QUERY_CHARS = 4096


@dataclass(frozen=True)
class AssembleCommand:
    subject: str
    workspace: str
    session_id: str
    persona_id: str
    project_ids: tuple[str, ...]
    input_text: str
    budget_tokens: int
    request_id: str
    # The session_transcript section's own budget (gateway.transcript).
    transcript_budget_tokens: int = 1024

    @property
    def who(self) -> Who:
        return Who(self.subject, self.workspace, self.session_id)


@dataclass(frozen=True)
class ExactOutcome:
    evidence: ExactEvidence
    trace: gpb.ExactLookupTrace


class Fanout:
    def __init__(self, planes: Planes, executor: Executor) -> None:
        self._planes = planes
        self._executor = executor

    def _guarded(
        self,
        name: str,
        query: dict[str, object],
        plane: str,
        method: str,
        fetch: Callable[[], SectionInput],
    ) -> SectionInput:
        try:
            return fetch()
        except DownstreamError as exc:
            return from_error(name, query, exc)
        except Exception as exc:  # a malformed answer is failed evidence
            log.exception("section %s failed", name)
            failed = downstream_error(plane, method, grpc.StatusCode.INTERNAL, type(exc).__name__)
            return from_error(name, query, failed)

    def _learned(self, cmd: AssembleCommand, query: dict[str, object]) -> SectionInput:
        request = lpb.GetLearnedContextRequest(
            subject=cmd.subject,
            workspace=cmd.workspace,
            session_id=cmd.session_id,
            persona_id=cmd.persona_id,
            project_ids=list(cmd.project_ids),
            pending_input=cmd.input_text[:MAX_QUERY_CHARS],
            max_entries=LEARNED_MAX_ENTRIES,
        )
        return self._guarded(
            "learned_context",
            query,
            "learning",
            "GetLearnedContext",
            lambda: learned_section(
                self._planes.call(
                    "learning", "GetLearnedContext", request, lpb.GetLearnedContextResponse
                ),
                query,
            ),
        )

    def _recovered(self, cmd: AssembleCommand, query: dict[str, object]) -> SectionInput:
        request = jpb.GetRecoveredMemoryRequest(
            subject=cmd.subject,
            workspace=cmd.workspace,
            session_id=cmd.session_id,
            pending_input=cmd.input_text[:MAX_QUERY_CHARS],
        )
        return self._guarded(
            "recovered_memory",
            query,
            "journal",
            "GetRecoveredMemory",
            lambda: recovered_section(
                self._planes.call(
                    "journal", "GetRecoveredMemory", request, jpb.GetRecoveredMemoryResponse
                ),
                query,
            ),
        )

    def _transcript(self, cmd: AssembleCommand, query: dict[str, object]) -> SectionInput:
        request = tpb.GetSessionContextRequest(
            subject=cmd.subject, workspace=cmd.workspace, session_id=cmd.session_id
        )
        return self._guarded(
            "session_transcript",
            query,
            "journal",
            "GetSessionContext",
            lambda: transcript_section(
                self._planes.call(
                    "journal", "GetSessionContext", request, tpb.GetSessionContextResponse
                ),
                query,
            ),
        )

    def _episodic(self, cmd: AssembleCommand, query: dict[str, object]) -> SectionInput:
        request = rpb.RecallRequest(
            query_text=cmd.input_text[:MAX_QUERY_CHARS],
            subject=cmd.subject,
            workspace=cmd.workspace,
            exclude_session_id=cmd.session_id,
            limit=RECALL_LIMIT,
        )
        return self._guarded(
            "episodic_recall",
            query,
            "retrieval",
            "Recall",
            lambda: episodic_section(
                self._planes.call("retrieval", "Recall", request, rpb.RecallResponse),
                query,
                cmd.who,
            ),
        )

    def _exact(
        self, cmd: AssembleCommand, exact_route: ExactRoute, query: dict[str, object]
    ) -> ExactOutcome:
        request = rpb.FindExactRequest(
            terms=list(exact_route.terms),
            subject=cmd.subject,
            workspace=cmd.workspace,
            limit=EXACT_LIMIT,
        )
        try:
            response = self._planes.call("retrieval", "FindExact", request, rpb.FindExactResponse)
        except DownstreamError as exc:
            return self._exact_failed(exact_route, query, exc.unreachable, str(exc))
        except Exception as exc:  # a malformed answer is failed evidence
            log.exception("exact lookup failed")
            return self._exact_failed(exact_route, query, False, type(exc).__name__)
        hits = len(response.hits)
        coverage, state, problem = checked(
            "exact_lookup",
            query,
            response.HasField("coverage"),
            response.coverage,
            hits,
            response.absence_state,
        )
        terms = tuple(response.normalized_terms) or exact_route.terms
        scope = response.scope_description if not problem else f"withheld: {problem}"
        evidence = ExactEvidence(terms, exact_route.reply_topic, state, coverage, hits, scope)
        return ExactOutcome(
            evidence,
            gpb.ExactLookupTrace(
                ran=True,
                terms=list(terms),
                coverage=coverage,
                absence_state=state,  # type: ignore[arg-type]
                hits=hits,
                scope_description=scope,
            ),
        )

    def exact_lookup(
        self, subject: str, workspace: str
    ) -> Callable[[tuple[str, ...]], bool | None]:
        """A lookup for the gate's recollection check: True when FindExact finds a turn
        with every term, False when it finds none, None when it could not tell."""

        def lookup(terms: tuple[str, ...]) -> bool | None:
            if not subject or not terms:
                return None
            request = rpb.FindExactRequest(
                terms=list(terms), subject=subject, workspace=workspace, limit=1
            )
            try:
                response = self._planes.call(
                    "retrieval", "FindExact", request, rpb.FindExactResponse
                )
            except DownstreamError:
                return None
            return bool(response.hits)

        return lookup

    @staticmethod
    def _exact_failed(
        exact_route: ExactRoute, query: dict[str, object], unreachable: bool, why: str
    ) -> ExactOutcome:
        coverage = failed_coverage("exact_lookup", query, unreachable=unreachable)
        state = derive_absence(coverage, 0)
        evidence = ExactEvidence(
            exact_route.terms, exact_route.reply_topic, state, coverage, 0, f"not searched: {why}"
        )
        return ExactOutcome(
            evidence,
            gpb.ExactLookupTrace(
                ran=True,
                terms=list(exact_route.terms),
                coverage=coverage,
                absence_state=state,
                hits=0,
                scope_description=evidence.scope_description,
            ),
        )

    def fetch(
        self, cmd: AssembleCommand, context_id: str, exact_route: ExactRoute | None
    ) -> tuple[list[SectionInput], ExactOutcome | None]:
        input_sha = hashlib.sha256(cmd.input_text.encode()).hexdigest()

        def query(name: str) -> dict[str, object]:
            return {
                "section": name,
                "context_id": context_id,
                "session_id": cmd.session_id,
                "input_sha256": input_sha,
            }

        jobs = {
            "learned_context": self._executor.submit(self._learned, cmd, query("learned_context")),
            "recovered_memory": self._executor.submit(
                self._recovered, cmd, query("recovered_memory")
            ),
            "episodic_recall": self._executor.submit(self._episodic, cmd, query("episodic_recall")),
            "session_transcript": self._executor.submit(
                self._transcript, cmd, query("session_transcript")
            ),
        }
        plane_of = {
            "learned_context": ("learning", "GetLearnedContext"),
            "recovered_memory": ("journal", "GetRecoveredMemory"),
            "episodic_recall": ("retrieval", "Recall"),
            "session_transcript": ("journal", "GetSessionContext"),
        }
        exact_job = None
        if exact_route is not None:
            exact_job = self._executor.submit(self._exact, cmd, exact_route, query("exact_lookup"))
        sections = []
        for name, job in jobs.items():
            # The late answer's error is built only for a fetch that is late.
            fallback = functools.partial(_late_section, name, query(name), *plane_of[name])
            sections.append(wait(job, self._planes.timeout_s, fallback))
        exact = None
        if exact_job is not None and exact_route is not None:
            route_ = exact_route
            exact = wait(
                exact_job,
                self._planes.timeout_s,
                lambda: self._exact_failed(
                    route_, query("exact_lookup"), True, "no answer within the deadline"
                ),
            )
        return sections, exact


def _late_section(name: str, query: dict[str, object], plane: str, method: str) -> SectionInput:
    """The section of a plane that gave no answer within the deadline."""
    return from_error(name, query, late(plane, method))

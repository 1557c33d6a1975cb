"""Operator views: memory search across the planes and the memory-context card.
Read-only: they write no receipts and no events."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import TypeVar

from google.protobuf.timestamp_pb2 import Timestamp

from engram.common.v1 import common_pb2
from engram.errors import Unavailable
from engram.gateway.v1 import gateway_pb2 as gpb
from engram.journal.v1 import journal_pb2 as jpb
from engram.learning.v1 import learning_pb2 as lpb
from engram.pagination import decode, encode
from gateway import search
from gateway.downstream import DownstreamError, Planes
from gateway.sections import (
    checked,
    failed_coverage,
    learning_withheld,
    scope_key,
)

DOWNSTREAM_PAGE_SIZE = 50
MAX_SKILL_PAGES = 10
MAX_BROWSED_LEARNINGS = 200


@dataclass(frozen=True)
class SearchCommand:
    subject: str
    workspace: str
    session_id: str
    persona_id: str
    project_ids: tuple[str, ...]
    query: str
    page_size: int
    page_token: str


@dataclass(frozen=True)
class MemoryContextCommand:
    subject: str
    workspace: str
    session_id: str
    persona_id: str
    project_ids: tuple[str, ...]
    pending_input: str


class OperatorViews:
    def __init__(self, planes: Planes, executor: Executor) -> None:
        self._planes = planes
        self._executor = executor

    def _scope_keys(
        self,
        subject: str,
        workspace: str,
        session_id: str,
        persona_id: str,
        project_ids: tuple[str, ...],
    ) -> list[str]:
        try:
            response = self._planes.call(
                "learning",
                "ResolveScopes",
                lpb.ResolveScopesRequest(
                    subject=subject,
                    workspace=workspace,
                    session_id=session_id,
                    persona_id=persona_id,
                    project_ids=list(project_ids),
                ),
                lpb.ResolveScopesResponse,
            )
        except DownstreamError as exc:
            raise Unavailable(f"cannot resolve scopes: {exc}") from None
        return list(response.scope_keys)

    def search_memory(self, cmd: SearchCommand) -> gpb.SearchMemoryResponse:
        query = {
            "subject": cmd.subject,
            "workspace": cmd.workspace,
            "session_id": cmd.session_id,
            "persona_id": cmd.persona_id,
            "project_ids": list(cmd.project_ids),
            "query": cmd.query,
        }
        offset = decode(cmd.page_token, query, {"offset": int}).get("offset", 0)
        scope_keys = self._scope_keys(
            cmd.subject, cmd.workspace, cmd.session_id, cmd.persona_id, cmd.project_ids
        )
        visible = set(scope_keys)
        want = min(search.MAX_DEPTH, offset + cmd.page_size + 1)
        learning_job = self._executor.submit(
            self._learning_hits, cmd.subject, cmd.workspace, scope_keys, cmd.query, want
        )
        run_job = self._executor.submit(self._run_hits, cmd, scope_keys, want)
        learning_raw = learning_job.result()
        run_raw = run_job.result()
        merged = search.merge(
            [
                search.learning_hits(learning_raw, visible),
                search.run_hits(run_raw, cmd.session_id, visible),
            ],
            browse=not cmd.query.strip(),
        )[: search.MAX_DEPTH]
        page = merged[offset : offset + cmd.page_size]
        has_more = len(merged) > offset + cmd.page_size
        return gpb.SearchMemoryResponse(
            hits=[
                gpb.MemoryHit(
                    hit_kind=h.kind,
                    id=h.id,
                    title=h.title,
                    excerpt=h.excerpt,
                    scope_key=h.scope_key,
                    score=h.score,
                    prompt_eligible=h.prompt_eligible,
                    time=_timestamp(h.time),
                )
                for h in page
            ],
            next_page_token=encode(query, {"offset": offset + cmd.page_size}) if has_more else "",
        )

    def _learning_hits(
        self, subject: str, workspace: str, scope_keys: list[str], query: str, want: int
    ) -> list[lpb.LearningSearchHit]:
        def page(token: str, size: int) -> tuple[list[lpb.LearningSearchHit], str]:
            response = self._planes.call(
                "learning",
                "SearchLearnings",
                lpb.SearchLearningsRequest(
                    subject=subject,
                    workspace=workspace,
                    scope_keys=scope_keys,
                    query=query,
                    page_size=size,
                    page_token=token,
                ),
                lpb.SearchLearningsResponse,
            )
            return list(response.hits), response.next_page_token

        return _collect(page, want, "learning search")

    def _run_hits(
        self, cmd: SearchCommand, scope_keys: list[str], want: int
    ) -> list[jpb.RankedRunRecord]:
        def page(token: str, size: int) -> tuple[list[jpb.RankedRunRecord], str]:
            response = self._planes.call(
                "journal",
                "SearchRunMemory",
                jpb.SearchRunMemoryRequest(
                    subject=cmd.subject,
                    workspace=cmd.workspace,
                    session_id=cmd.session_id,
                    query=cmd.query,
                    visible_scope_keys=scope_keys,
                    page_size=size,
                    page_token=token,
                ),
                jpb.SearchRunMemoryResponse,
            )
            return list(response.records), response.next_page_token

        return _collect(page, want, "run-memory search")

    def memory_context(self, cmd: MemoryContextCommand) -> gpb.GetMemoryContextResponse:
        """Eligibility across the planes, without receipts. With a pending input the
        learned context is the scored one the gateway would receive; without one it is
        every prompt-eligible learning of the visible scopes (a browse: excerpts, no
        coverage)."""
        browse = not cmd.pending_input.strip()
        scopes_job = self._executor.submit(
            self._scope_keys,
            cmd.subject,
            cmd.workspace,
            cmd.session_id,
            cmd.persona_id,
            cmd.project_ids,
        )
        learned_job = (
            None
            if browse
            else self._executor.submit(
                self._planes.call,
                "learning",
                "GetLearnedContext",
                lpb.GetLearnedContextRequest(
                    subject=cmd.subject,
                    workspace=cmd.workspace,
                    session_id=cmd.session_id,
                    persona_id=cmd.persona_id,
                    project_ids=list(cmd.project_ids),
                    pending_input=cmd.pending_input,
                ),
                lpb.GetLearnedContextResponse,
            )
        )
        recovered_job = self._executor.submit(
            self._planes.call,
            "journal",
            "GetRecoveredMemory",
            jpb.GetRecoveredMemoryRequest(
                subject=cmd.subject,
                workspace=cmd.workspace,
                session_id=cmd.session_id,
                pending_input=cmd.pending_input,
            ),
            jpb.GetRecoveredMemoryResponse,
        )
        skills_job = self._executor.submit(self._active_skills)
        scope_keys = scopes_job.result()
        visible = set(scope_keys)
        response = gpb.GetMemoryContextResponse(scope_keys=scope_keys)
        query = {
            "view": "memory_context",
            "subject": cmd.subject,
            "workspace": cmd.workspace,
            "session_id": cmd.session_id,
        }
        if learned_job is None:
            response.learned_context.extend(
                gpb.EligibleItem(
                    id=h.id,
                    kind=lpb.LearningKind.Name(h.kind).removeprefix("LEARNING_KIND_").lower(),
                    scope_key=h.scope_key,
                    text=h.excerpt,
                )
                for h in self._learning_hits(
                    cmd.subject, cmd.workspace, scope_keys, "", MAX_BROWSED_LEARNINGS
                )
                if h.hit_kind == "learning" and h.prompt_eligible and h.scope_key in visible
            )
        else:
            try:
                learned = learned_job.result()
                coverage, _, problem = checked(
                    "learned_context",
                    query,
                    learned.HasField("coverage"),
                    learned.coverage,
                    len(learned.entries),
                )
                response.learned_coverage.CopyFrom(coverage)
                if not problem:
                    response.learned_context.extend(
                        gpb.EligibleItem(
                            id=e.learning.learning_id,
                            kind=lpb.LearningKind.Name(e.learning.kind)
                            .removeprefix("LEARNING_KIND_")
                            .lower(),
                            scope_key=scope_key(e.learning.scope),
                            text=e.learning.content,
                            score=e.score,
                        )
                        for e in learned.entries
                        if not learning_withheld(e.learning, visible)
                    )
            except DownstreamError as exc:
                response.learned_coverage.CopyFrom(_failed("learned_context", query, exc))
        try:
            recovered = recovered_job.result()
            coverage, _, problem = checked(
                "recovered_memory",
                query,
                recovered.HasField("coverage"),
                recovered.coverage,
                len(recovered.records),
            )
            response.recovered_coverage.CopyFrom(coverage)
            if not problem:
                # The journal returned this subject/workspace/session's records only.
                response.recovered_memory.extend(
                    gpb.EligibleItem(
                        id=r.record.run_id,
                        kind="run_record",
                        scope_key=f"session:{r.record.session_id}",
                        text=r.record.summary,
                        score=r.score,
                    )
                    for r in recovered.records
                )
        except DownstreamError as exc:
            response.recovered_coverage.CopyFrom(_failed("recovered_memory", query, exc))
        response.visible_skills.extend(
            gpb.EligibleItem(
                id=s.skill_name, kind="skill", scope_key="workspace:default", text=s.instructions
            )
            for s in skills_job.result()
        )
        return response

    def _active_skills(self) -> list[lpb.Skill]:
        skills: list[lpb.Skill] = []
        token = ""
        for _ in range(MAX_SKILL_PAGES):
            try:
                page = self._planes.call(
                    "learning",
                    "ListActiveSkills",
                    lpb.ListActiveSkillsRequest(page_size=100, page_token=token),
                    lpb.ListActiveSkillsResponse,
                )
            except DownstreamError as exc:
                raise Unavailable(f"skills unavailable: {exc}") from None
            skills.extend(page.skills)
            token = page.next_page_token
            if not token:
                break
        return skills


def _failed(name: str, query: Mapping[str, object], exc: DownstreamError) -> common_pb2.Coverage:
    return failed_coverage(name, query, unreachable=exc.unreachable)


def _timestamp(seconds: float) -> Timestamp:
    ts = Timestamp()
    whole = int(seconds)
    ts.seconds, ts.nanos = whole, round((seconds - whole) * 1e9) % 1_000_000_000
    return ts


T = TypeVar("T")


def _collect(page: Callable[[str, int], tuple[list[T], str]], want: int, what: str) -> list[T]:
    """Up to `want` items from a downstream AIP-158 listing, page by page."""
    items: list[T] = []
    token = ""
    while len(items) < want:
        try:
            batch, token = page(token, min(DOWNSTREAM_PAGE_SIZE, want - len(items)))
        except DownstreamError as exc:
            raise Unavailable(f"{what} unavailable: {exc}") from None
        items.extend(batch)
        if not token:
            break
    return items

"""The header every page shows: stat cards, the automation posture line,
index freshness and each service's health. Each part that cannot be read
says why instead of failing the page."""

from __future__ import annotations

from dataclasses import dataclass, field

import grpc
from grpc_health.v1 import health_pb2

from engram.cli.client import RpcFailure
from engram.cli.status import PROBES, index_freshness
from engram.console.display import short
from engram.console.suite import SuiteClient, SuiteError
from engram.learning.v1 import learning_pb2 as lpb
from engram.retrieval.v1 import retrieval_pb2 as rpb

PROMPT_KINDS = (lpb.LEARNING_KIND_FACT, lpb.LEARNING_KIND_PREFERENCE, lpb.LEARNING_KIND_DECISION)
# Active learnings of one kind are counted up to this many (then "N+").
KIND_COUNT_CAP = 1000
PAGE = 500


@dataclass
class Header:
    cards: list[tuple[str, str]] = field(default_factory=list)
    posture: str = ""
    freshness: str = ""
    health: list[tuple[str, str]] = field(default_factory=list)
    problems: list[tuple[str, RpcFailure]] = field(default_factory=list)


def _count_active(suite: SuiteClient, token: str, kind: int) -> str:
    total, page_token = 0, ""
    while total < KIND_COUNT_CAP:
        response = suite.call(
            token,
            suite.learning.ListLearnings,
            lpb.ListLearningsRequest(
                status=lpb.LEARNING_STATUS_FILTER_ACTIVE,
                kind=kind,  # type: ignore[arg-type]
                page_size=PAGE,
                page_token=page_token,
            ),
        )
        total += len(response.learnings)
        page_token = response.next_page_token
        if not page_token:
            return str(total)
    return f"{KIND_COUNT_CAP}+"


def _posture(policy: lpb.LearningPolicy) -> str:
    capture = policy.capture.semantic_enabled or policy.capture.run_summary_enabled
    return (
        f"automation {short(policy.mode, 'mode')} · capture {'on' if capture else 'off'} · "
        f"judge {'on' if policy.judge.enabled else 'off'}"
    )


def _health(suite: SuiteClient, token: str, service: str) -> str:
    metadata = [("authorization", f"Bearer {token}")] if token else []
    try:
        response = suite.health.Check(
            health_pb2.HealthCheckRequest(service=service),
            timeout=suite.timeout,
            metadata=metadata,
        )
    except grpc.RpcError as error:
        return "not served here" if error.code() is grpc.StatusCode.NOT_FOUND else "unreachable"
    name: str = health_pb2.HealthCheckResponse.ServingStatus.Name(response.status)
    return name.lower().replace("_", " ")


def load_header(suite: SuiteClient, token: str) -> Header:
    header = Header()
    try:
        status = suite.call(token, suite.learning.GetLearningStatus, lpb.GetLearningStatusRequest())
        header.cards += [
            ("awaiting review", str(status.candidates_pending + status.candidates_escalated)),
            ("active learnings", str(status.learnings_active)),
        ]
        for kind in PROMPT_KINDS:
            header.cards.append((f"{short(kind, 'kind')}s", _count_active(suite, token, kind)))
        policy = suite.call(
            token, suite.learning.GetLearningPolicy, lpb.GetLearningPolicyRequest()
        ).policy
        header.posture = _posture(policy)
    except SuiteError as exc:
        header.problems.append(("learning", exc.failure))
    try:
        index = suite.call(token, suite.retrieval.GetIndexStatus, rpb.GetIndexStatusRequest())
        header.freshness = f"index {index_freshness(index)}"
    except SuiteError as exc:
        header.problems.append(("retrieval", exc.failure))
    header.health = [(probe.name, _health(suite, token, probe.full_name)) for probe in PROBES]
    return header

"""FindExact: the exhaustive path, served by the journal (canonical events
plus an independent verifier over the episode projection). RetrievalService
passes it through, validates the seal (never upgrades it) and says in words
what an authoritative absence would cover."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from engram import coverage as cov
from engram.common.v1 import common_pb2 as cpb
from engram.errors import Unavailable
from engram.journal.v1 import journal_pb2 as jpb
from engram.timeutil import to_timestamp
from retrieval_service.journal_client import JournalClient, JournalFailed

log = logging.getLogger("engram.retrieval.exact")

EXACT_READ_PATH = "retrieval.find_exact.v1"
JOURNAL_SOURCE = "grpc:engram.journal.v1.JournalService"


@dataclass(frozen=True)
class ExactQuery:
    terms: list[str]
    subject: str
    workspace: str
    session_id: str
    start: datetime | None
    end: datetime | None
    limit: int

    def digest_fields(self) -> dict[str, object]:
        return {
            "terms": self.terms,
            "subject": self.subject,
            "workspace": self.workspace,
            "session_id": self.session_id,
            "start": self.start.isoformat() if self.start else None,
            "end": self.end.isoformat() if self.end else None,
            "limit": self.limit,
        }


@dataclass(frozen=True)
class ExactResult:
    matches: list[jpb.ExactMatch]
    normalized_terms: list[str]
    coverage: cpb.Coverage
    scope_description: str


def describe_scope(query: ExactQuery, normalized_terms: list[str]) -> str:
    terms = ", ".join(f'"{t}"' for t in (normalized_terms or query.terms))
    where = f"subject {query.subject}, workspace {query.workspace}"
    if query.session_id:
        where += f", session {query.session_id}"
    if query.start is not None or query.end is not None:
        start = query.start.isoformat() if query.start else "the beginning"
        end = query.end.isoformat() if query.end else "now"
        where += f", occurred from {start} until before {end}"
    else:
        where += ", all time"
    return (
        f"every committed, learning-eligible conversation turn ({where}) whose user or "
        f"assistant text contains all of {terms} as whole words after normalisation, "
        f"excluding quarantined and purged turns; nothing outside the journal, and no "
        f"paraphrase, synonym or other spelling of the terms (an accented letter is a "
        f"letter of its own)"
    )


def find_exact(client: JournalClient, query: ExactQuery) -> ExactResult:
    request = jpb.FindExactRequest(
        terms=query.terms,
        subject=query.subject,
        workspace=query.workspace,
        session_id=query.session_id,
        limit=query.limit,
    )
    if query.start is not None:
        request.time_window.start_time.CopyFrom(to_timestamp(query.start))
    if query.end is not None:
        request.time_window.end_time.CopyFrom(to_timestamp(query.end))
    try:
        response = client.find_exact(request)
    except (Unavailable, JournalFailed) as error:
        log.warning("FindExact not served: %s", error)
        coverage = cov.unavailable_coverage(
            EXACT_READ_PATH,
            [JOURNAL_SOURCE],
            query.digest_fields(),
            failed=isinstance(error, JournalFailed),
        )
        return ExactResult([], [], coverage, describe_scope(query, []))
    normalized = list(response.normalized_terms)
    try:
        cov.validate(response.coverage)
        if response.coverage.cardinality.returned != len(response.matches):
            raise cov.CoverageContractError("coverage returned count differs from matches")
    except cov.CoverageContractError as error:
        log.warning("FindExact coverage rejected: %s", error)
        coverage = cov.unavailable_coverage(
            EXACT_READ_PATH, [JOURNAL_SOURCE], query.digest_fields(), failed=True
        )
        return ExactResult([], normalized, coverage, describe_scope(query, normalized))
    return ExactResult(
        list(response.matches), normalized, response.coverage, describe_scope(query, normalized)
    )

"""Search and quarantine in a real browser."""

from __future__ import annotations

import uuid
from urllib.parse import quote

import pytest

from engram.common.v1 import common_pb2 as cpb
from engram.gateway.v1 import gateway_pb2 as gpb
from engram.gateway.v1 import gateway_pb2_grpc as gpb_grpc
from engram.journal.v1 import journal_pb2 as jpb
from engram.learning.v1 import learning_pb2 as lpb
from tests.console.conftest import Deployment, Page, unique
from tests.integration.test_learning_support import candidate, complete_run, wait_until

pytestmark = pytest.mark.browser


def test_search_tags_hits_by_plane_and_marks_prompt_eligible(
    page: Page, deployment: Deployment
) -> None:
    subject, session = unique("sea"), unique("s-search")
    scope = cpb.Scope(kind=cpb.SCOPE_KIND_SESSION, id=session)
    stub = deployment.operator.learning
    active = candidate(
        stub,
        "The staging cluster is named kestrel",
        scope=scope,
        source=lpb.Source(subject=subject),
    )
    stub.PublishCandidate(
        lpb.PublishCandidateRequest(
            candidate_id=active.candidate_id, publish_tier=lpb.PUBLISH_TIER_ACTIVE
        )
    )
    provisional = candidate(
        stub, "The kestrel cluster runs on arm64", scope=scope, source=lpb.Source(subject=subject)
    )
    stub.PublishCandidate(
        lpb.PublishCandidateRequest(
            candidate_id=provisional.candidate_id, publish_tier=lpb.PUBLISH_TIER_PROVISIONAL
        )
    )
    run_id = unique("run")
    complete_run(
        deployment.operator.journal,
        run_id,
        "deploy kestrel to staging",
        "kestrel deployed",
        session_id=session,
        subject=subject,
    )

    # The picker lists sessions the planes know of.
    page.open("/search")
    assert f"{session} ({subject})" in page.text("#recent-sessions")
    page.fill("#pick-subject", subject)
    page.fill("#pick-session", session)
    page.fill("#search-q", "kestrel")
    page.submit("#pick-submit")
    hits = {h.get_attribute("data-id"): h for h in page.all("#hits .hit")}
    kinds = {h.get_attribute("data-kind") for h in hits.values()}
    assert {"learning", "recovered_run"} <= kinds
    learning_hits = [h for h in hits.values() if h.get_attribute("data-kind") == "learning"]
    eligible = {
        "arm64" not in h.text: bool(h.find_elements("css selector", ".eligible"))
        for h in learning_hits
    }
    assert eligible == {True: True, False: False}, "only the active-tier learning is eligible"
    assert f"session:{session}" in page.text("#hits")
    page.screenshot("search")

    # An empty query browses.
    page.open(f"/search?subject={quote(subject)}&session_id={quote(session)}")
    assert "browsing recent items" in page.text("main")
    assert len(page.all("#hits .hit")) >= 3

    # Another subject's session sees none of this session's learnings.
    page.open(f"/search?subject=someone-else&session_id={quote(session)}&q=kestrel")
    assert not [h for h in page.all("#hits .hit") if h.get_attribute("data-kind") == "learning"]


def test_quarantine_withholds_and_restore_returns(page: Page, deployment: Deployment) -> None:
    subject, session, run_id = unique("q"), unique("s-q"), unique("run-q")
    complete_run(
        deployment.operator.journal,
        run_id,
        "Fact: the vault door code is kept offline",
        "OK",
        session_id=session,
        subject=subject,
    )

    def withheld_candidate() -> lpb.Candidate | None:
        listed = deployment.operator.learning.ListCandidates(
            lpb.ListCandidatesRequest(page_size=500)
        ).candidates
        return next((c for c in listed if c.source.run_id == run_id), None)

    made = wait_until(withheld_candidate, what="the captured candidate")
    page.open("/quarantine")
    page.css("select[name=record_kind] option[value=run_record]").click()
    page.fill("#quarantine-record", run_id)
    page.fill("#quarantine-reason", "leaked a door code")
    page.submit("#quarantine-submit")
    assert f"Quarantined run_record {run_id}" in page.text(".flash.ok")
    entry = page.css(f'#quarantine-entries [data-record="{run_id}"]')
    assert "leaked a door code" in entry.text and "ops" in entry.text
    page.screenshot("quarantine")
    page.open("/review?status=open")
    assert "withheld by quarantine" in page.text(f'[data-candidate="{made.candidate_id}"]')

    page.open("/quarantine")
    form = f'#quarantine-entries [data-record="{run_id}"] .restore-form'
    page.fill(f"{form} input[name=reason]", "false alarm")
    page.submit(f"{form} .restore")
    assert f"Restored run_record {run_id}" in page.text(".flash.ok")
    assert not page.all(f'#quarantine-entries [data-record="{run_id}"]')
    ledger = deployment.operator.journal.ListQuarantine(
        jpb.ListQuarantineRequest(active_only=False, page_size=100)
    ).entries
    newest_first = [e.action for e in ledger if e.record_id == run_id]
    assert newest_first == ["restore", "quarantine"]
    page.open("/review?status=open")
    assert "withheld by quarantine" not in page.text(f'[data-candidate="{made.candidate_id}"]')
    # A refusal: an unknown record cannot be quarantined.
    page.open("/quarantine")
    page.fill("#quarantine-record", "run-that-never-was")
    page.fill("#quarantine-reason", "typo")
    page.submit("#quarantine-submit")
    assert page.css(".flash.error .failure").get_attribute("data-code") == "NOT_FOUND"


def test_the_session_card_shows_the_last_assembled_contexts(
    page: Page, deployment: Deployment
) -> None:
    subject, session = unique("ctx"), unique("s-ctx")
    gateway = gpb_grpc.GatewayServiceStub(deployment.channel)
    assembled = gateway.AssembleContext(
        gpb.AssembleContextRequest(
            subject=subject,
            session_id=session,
            input_text="did I ever tell you about my sister zelda?",
            request_id=str(uuid.uuid4()),
        )
    )
    page.open(f"/session?subject={quote(subject)}&session_id={quote(session)}")
    assert page.text("#memory-summary") == (
        "0 learnings · 0 recovered runs eligible for the next prompt"
    )
    contexts = page.text("#recent-contexts")
    assert assembled.context_id in contexts
    for section in assembled.trace.sections:
        assert section.name in contexts
    assert "ABSENCE_STATE_" in contexts and "seal valid" in contexts
    assert "exact lookup for" in contexts

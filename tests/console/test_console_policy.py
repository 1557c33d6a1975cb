"""Both policies edited as forms in a real browser: a diff before save, the
server's validation error shown next to the field it names, nothing saved."""

from __future__ import annotations

import pytest

from engram.journal.v1 import journal_pb2 as jpb
from engram.learning.v1 import learning_pb2 as lpb
from tests.console.conftest import Deployment, Page

pytestmark = pytest.mark.browser


def test_a_validation_error_is_shown_by_its_field(page: Page, deployment: Deployment) -> None:
    before = deployment.operator.learning.GetLearningPolicy(lpb.GetLearningPolicyRequest()).policy
    page.open("/policy")
    page.css('#learning-form input[name="judge.enabled"]').click()
    page.fill('#learning-form input[name="judge.timeout_ms"]', "2500")
    page.submit("#learning-preview")
    diff = page.text("#policy-diff")
    assert "+  enabled: true" in diff and "+  timeout_ms: 2500" in diff
    page.screenshot("policy-diff")
    page.submit("#policy-save")
    error = page.css('#policy-learning .field-error[data-field="judge.address"]')
    assert "an enabled judge needs an address" in error.text
    # The form keeps what was proposed, so it can be corrected.
    assert page.css('#learning-form input[name="judge.enabled"]').is_selected()
    page.screenshot("policy-error")
    after = deployment.operator.learning.GetLearningPolicy(lpb.GetLearningPolicyRequest()).policy
    assert after == before, "a refused policy changes nothing"

    # A value the form itself cannot read never reaches the server.
    page.open("/policy")
    page.fill('#learning-form textarea[name="publication.rules"]', "- {name: [unclosed")
    page.submit("#learning-preview")
    assert "not YAML" in page.text('#policy-learning .field-error[data-field="publication.rules"]')
    # A rule the server refuses is shown at the rules field, by its name.
    page.fill(
        '#learning-form textarea[name="publication.rules"]',
        "- name: auto-facts\n  action: PUBLICATION_ACTION_PUBLISH_ACTIVE\n",
    )
    page.submit("#learning-preview")
    page.submit("#policy-save")
    error = page.text('#policy-learning .field-error[data-field="publication.rules"]')
    assert "auto-facts" in error


def test_the_run_memory_policy_is_saved_after_its_diff(page: Page, deployment: Deployment) -> None:
    page.open("/policy")
    page.fill('#run-memory-form input[name="max_prompt_entries"]', "64")
    page.submit("#run-memory-preview")
    page.submit("#policy-save")
    error = page.css('#policy-run-memory .field-error[data-field="max_prompt_entries"]')
    assert "must not exceed max_tracked_per_session (32)" in error.text

    page.fill('#run-memory-form input[name="max_prompt_entries"]', "5")
    page.css(
        '#run-memory-form select[name="search_visibility"] option[value=learning_scopes]'
    ).click()
    page.submit("#run-memory-preview")
    diff = page.text("#policy-diff")
    assert "-max_prompt_entries: 3" in diff and "+max_prompt_entries: 5" in diff
    assert "+search_visibility: SEARCH_VISIBILITY_LEARNING_SCOPES" in diff
    page.submit("#policy-save")
    assert "Run-memory policy saved." in page.text(".flash.ok")
    saved = deployment.operator.journal.GetRunMemoryPolicy(jpb.GetRunMemoryPolicyRequest()).policy
    assert saved.max_prompt_entries == 5
    assert saved.search_visibility == jpb.SEARCH_VISIBILITY_LEARNING_SCOPES
    assert saved.updated_by == "ops"

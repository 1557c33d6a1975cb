"""Recovered run memory, pure parts: summary assembly, the 480-character cap
on multibyte text, scrubbing before capping, failure markers, policy
validation, scope keys and lexical ranking."""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engram.errors import InvalidArgument
from engram.redaction import API_KEY_MARKER, EMAIL_MARKER, SECRET_MARKER
from memory_service import run_memory as rm

OPENAI = "sk-" + "proj-" + "abc123DEF456ghi789JKL012mno345"
GITHUB = "ghp" + "_" + "abcdefghijklmnopqrstuvwxyz0123456789"


def run(
    status: str = "completed", request: str = "", outcome: str = "", error: str = ""
) -> rm.RunInput:
    return rm.RunInput(
        run_id="r1",
        session_id="s1",
        subject="u1",
        workspace="default",
        status=status,
        request_text=request,
        outcome_text=outcome,
        error_text=error,
        artifact_ids=(),
        scope_keys=(),
    )


# -- statuses ----------------------------------------------------------------


@pytest.mark.parametrize("status", rm.TERMINAL_STATUSES)
def test_terminal_statuses_are_accepted(status: str) -> None:
    assert rm.require_status(status) == status


@pytest.mark.parametrize("status", [*rm.NON_TERMINAL_STATUSES, "", "done"])
def test_other_statuses_name_the_status_field(status: str) -> None:
    with pytest.raises(InvalidArgument) as err:
        rm.require_status(status)
    assert err.value.field == "status"


# -- summary assembly ----------------------------------------------------------


def test_summary_joins_request_outcome_and_error() -> None:
    body = rm.build_body(
        run("failed", "Deploy the api", "Rolled back", "TimeoutError: slow"), redact_pii=True
    )
    assert body.summary == (
        "Run failed. Request: Deploy the api | Outcome: Rolled back | Error: TimeoutError: slow"
    )
    assert body.request_preview == "Deploy the api"
    assert body.outcome_preview == "Rolled back"
    assert body.failure_markers == ("status:failed", "error:TimeoutError")


def test_bare_status_note_when_nothing_was_recorded() -> None:
    body = rm.build_body(run("cancelled"), redact_pii=True)
    assert body.summary == "Run cancelled; no request, outcome or error text was recorded."
    assert body.failure_markers == ("status:cancelled",)
    assert body.redaction_count == 0


def test_completed_runs_carry_no_status_marker() -> None:
    assert rm.build_body(run("completed", "x"), redact_pii=True).failure_markers == ()


@pytest.mark.parametrize(
    ("error", "marker"),
    [
        ("psycopg.OperationalError: connection refused", "error:OperationalError"),
        ("request timed out after 30s", "error:timeout"),
        ("something odd happened", "error:unclassified"),
        ("raised KeyboardInterrupt", "error:KeyboardInterrupt"),
    ],
)
def test_error_class_markers(error: str, marker: str) -> None:
    assert rm.failure_markers("failed", error) == ("status:failed", marker)


def test_whitespace_is_collapsed_in_previews() -> None:
    body = rm.build_body(run("completed", "line one\n\n  line\ttwo"), redact_pii=True)
    assert body.request_preview == "line one line two"


def test_secrets_are_scrubbed_before_the_cut() -> None:
    # The key straddles the preview cut: cutting first would leave a prefix
    # too short to match any pattern, and that prefix would be stored.
    request = "x" * (rm.PREVIEW_CHARS - 20) + " " + OPENAI + " tail"
    body = rm.build_body(run("completed", request), redact_pii=True)
    assert OPENAI[:12] not in body.request_preview
    assert OPENAI[:12] not in body.summary
    assert body.redaction_count >= 1


def test_every_text_field_is_scrubbed_and_counted() -> None:
    body = rm.build_body(
        run("failed", f"use {OPENAI}", "mail ops@example.com", f"token={GITHUB} rejected"),
        redact_pii=True,
    )
    text = " ".join(
        [
            body.summary,
            body.request_preview,
            body.outcome_preview,
            body.error_preview,
            *body.failure_markers,
        ]
    )
    for secret in (OPENAI, GITHUB, "ops@example.com"):
        assert secret not in text
    assert API_KEY_MARKER in body.request_preview
    assert EMAIL_MARKER in body.outcome_preview
    assert body.redaction_count == 3


def test_without_pii_redaction_secrets_still_go() -> None:
    body = rm.build_body(
        run("completed", f"mail ops@example.com key {OPENAI} password=hunter22"), redact_pii=False
    )
    assert "ops@example.com" in body.request_preview
    assert OPENAI not in body.request_preview
    assert "hunter22" not in body.request_preview
    assert SECRET_MARKER in body.request_preview
    assert body.redaction_count == 2


# -- the cap -------------------------------------------------------------------

FAMILY = "\U0001f469\u200d\U0001f469\u200d\U0001f467"  # ZWJ sequence, 5 code points
FLAG_FR = "\U0001f1eb\U0001f1f7"
THUMBS_DARK = "\U0001f44d\U0001f3ff"
E_ACUTE = "e\u0301"


def test_short_text_is_unchanged() -> None:
    text = "a" * rm.MAX_SUMMARY_CHARS
    assert rm.cap_text(text, rm.MAX_SUMMARY_CHARS) == text


def test_long_text_is_cut_with_an_ellipsis() -> None:
    capped = rm.cap_text("word " * 200, rm.MAX_SUMMARY_CHARS)
    assert len(capped) <= rm.MAX_SUMMARY_CHARS
    assert capped.endswith(rm.ELLIPSIS)
    assert capped[:-1].endswith("word")  # cut at a word break


@pytest.mark.parametrize(
    "unit", [FAMILY, FLAG_FR, THUMBS_DARK, E_ACUTE, "\u6f22", "\U0001f600", "\u0915\u094d\u0937"]
)
@pytest.mark.parametrize("offset", range(6))
def test_cap_never_splits_a_grapheme(unit: str, offset: int) -> None:
    text = "x" * offset + unit * 300
    capped = rm.cap_text(text, 480)
    assert len(capped) <= 480
    body = capped[: -len(rm.ELLIPSIS)]
    assert text.startswith(body)
    # What was cut away starts on a grapheme boundary.
    assert (len(body) - offset) % len(unit) == 0 or len(body) < offset
    assert len(body.encode("utf-8").decode("utf-8")) == len(body)


def test_cap_does_not_split_a_redaction_marker() -> None:
    text = "a" * 472 + API_KEY_MARKER + " and more"
    capped = rm.cap_text(text, 480)
    assert "<api" not in capped
    assert capped == "a" * 472 + rm.ELLIPSIS
    fits = "a" * 470 + API_KEY_MARKER + " and more"
    assert rm.cap_text(fits, 480) == "a" * 470 + API_KEY_MARKER + rm.ELLIPSIS


def test_cjk_summary_counts_characters_not_bytes() -> None:
    cjk = "\u6570\u636e\u5e93\u8fc1\u79fb\u5931\u8d25" * 200
    body = rm.build_body(run("failed", cjk, cjk, cjk), redact_pii=True)
    assert len(body.summary) == rm.MAX_SUMMARY_CHARS
    assert len(body.summary.encode()) > rm.MAX_SUMMARY_CHARS


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=0, max_size=900), st.integers(min_value=2, max_value=600))
def test_cap_property(text: str, limit: int) -> None:
    capped = rm.cap_text(text, limit)
    assert len(capped) <= max(limit, 0)
    if len(text) <= limit:
        assert capped == text
    else:
        body = capped[:-1]
        assert capped.endswith(rm.ELLIPSIS)
        assert text.startswith(body)
        cut = len(body)
        if 0 < cut < len(text):
            # What was cut away starts on a grapheme boundary.
            assert unicodedata.category(text[cut]) not in ("Mn", "Me", "Mc")
            assert text[cut] != "\u200d" and text[cut - 1] != "\u200d"


@settings(max_examples=100, deadline=None)
@given(
    st.text(min_size=0, max_size=3000),
    st.text(max_size=3000),
    st.text(max_size=3000),
    st.sampled_from(rm.TERMINAL_STATUSES),
)
def test_summary_never_exceeds_the_cap(request: str, outcome: str, error: str, status: str) -> None:
    body = rm.build_body(run(status, request, outcome, error), redact_pii=True)
    assert len(body.summary) <= rm.MAX_SUMMARY_CHARS
    assert len(body.request_preview) <= rm.PREVIEW_CHARS
    assert len(body.outcome_preview) <= rm.PREVIEW_CHARS


# -- policy --------------------------------------------------------------------

GOOD: dict[str, Any] = {
    "enabled": True,
    "retention_seconds": 3600,
    "max_tracked_per_session": 10,
    "max_prompt_entries": 3,
    "redact_pii": True,
    "search_visibility": rm.SESSION_ONLY,
}


def test_valid_policy() -> None:
    policy = rm.validate_policy(**GOOD)
    assert policy.retention_seconds == 3600
    assert policy.max_tracked_per_session == 10


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"retention_seconds": 0}, "policy.retention_seconds"),
        ({"retention_seconds": -5}, "policy.retention_seconds"),
        ({"retention_seconds": rm.MAX_RETENTION_SECONDS + 1}, "policy.retention_seconds"),
        ({"max_tracked_per_session": 0}, "policy.max_tracked_per_session"),
        ({"max_tracked_per_session": rm.MAX_TRACKED_LIMIT + 1}, "policy.max_tracked_per_session"),
        ({"max_prompt_entries": 0}, "policy.max_prompt_entries"),
        ({"max_prompt_entries": 11}, "policy.max_prompt_entries"),
        ({"search_visibility": ""}, "policy.search_visibility"),
        ({"search_visibility": "everyone"}, "policy.search_visibility"),
        ({"enabled": False, "retention_seconds": -1}, "policy.retention_seconds"),
        (
            {"enabled": False, "max_tracked_per_session": 2, "max_prompt_entries": 3},
            "policy.max_prompt_entries",
        ),
    ],
)
def test_invalid_policy_names_the_field(change: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidArgument) as err:
        rm.validate_policy(**{**GOOD, **change})
    assert err.value.field == field


def test_disabled_policy_may_leave_bounds_unset() -> None:
    policy = rm.validate_policy(
        enabled=False,
        retention_seconds=0,
        max_tracked_per_session=0,
        max_prompt_entries=0,
        redact_pii=True,
        search_visibility="",
    )
    assert policy == rm.RunMemoryPolicy(enabled=False)


def test_prompt_limit() -> None:
    policy = rm.RunMemoryPolicy(max_prompt_entries=3)
    assert rm.prompt_limit(0, policy) == 3
    assert rm.prompt_limit(1, policy) == 1
    assert rm.prompt_limit(50, policy) == 3
    with pytest.raises(InvalidArgument):
        rm.prompt_limit(-1, policy)


# -- scope keys and ids ----------------------------------------------------------


@pytest.mark.parametrize("key", ["session:s1", "persona:p", "project:alpha-1", "workspace:default"])
def test_scope_keys_accepted(key: str) -> None:
    assert rm.scope_keys("scope_keys", [key, key]) == (key,)


@pytest.mark.parametrize(
    "key", ["project", "team:x", "project:", "workspace:other", ":x", "project:a b", "project:a:b"]
)
def test_scope_keys_rejected(key: str) -> None:
    with pytest.raises(InvalidArgument) as err:
        rm.scope_keys("scope_keys", [key])
    assert err.value.field == "scope_keys"


def test_identifier_carrying_a_credential_is_refused() -> None:
    with pytest.raises(InvalidArgument) as err:
        rm.artifact_ids("artifact_ids", [GITHUB])
    assert err.value.reason == "SECRET_IN_IDENTIFIER"


# -- ranking ---------------------------------------------------------------------

NOW = datetime(2030, 1, 1, tzinfo=UTC)


def rec(run_id: str, summary: str, minutes_ago: int, event_id: int) -> dict[str, Any]:
    return {
        "run_id": run_id,
        "summary": summary,
        "request_preview": "",
        "outcome_preview": "",
        "recorded_at": NOW - timedelta(minutes=minutes_ago),
        "event_id": event_id,
    }


def test_terms_normalise() -> None:
    # engram.terms.index_terms: stop words dropped, Snowball stems, markers removed.
    assert rm.terms("The Migrations of the DATABASE <email>!") == {"migrat", "databas"}
    assert rm.terms("Umzug nach ZÜRICH") == rm.terms("umzug nach zürich")
    assert {"\u6570\u636e", "\u636e\u5e93"} <= rm.terms("\u6570\u636e\u5e93")


def test_rank_by_overlap_then_recency() -> None:
    records = [
        rec("old-match", "database migration failed on table users", 60, 1),
        rec("new-other", "wrote the quarterly report", 1, 3),
        rec("mid-half", "database backup finished", 30, 2),
    ]
    ranked = rm.rank(records, "why did the database migration fail")
    assert [r.record["run_id"] for r in ranked] == ["old-match", "mid-half", "new-other"]
    assert ranked[0].score > ranked[1].score > ranked[2].score == 0.0


def test_recency_is_the_fallback() -> None:
    records = [rec("a", "alpha", 30, 1), rec("b", "beta", 10, 2), rec("c", "gamma", 20, 3)]
    assert [r.record["run_id"] for r in rm.rank(records, "")] == ["b", "c", "a"]
    assert [r.record["run_id"] for r in rm.rank(records, "zeta")] == ["b", "c", "a"]


def test_equal_scores_break_by_recency() -> None:
    records = [rec("older", "deploy api", 50, 1), rec("newer", "deploy api", 5, 2)]
    assert [r.record["run_id"] for r in rm.rank(records, "deploy")] == ["newer", "older"]

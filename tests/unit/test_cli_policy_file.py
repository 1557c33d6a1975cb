"""Policy files without a server: checked field by field in the file's own
(snake_case) names, merged onto the current policy by the documented rule,
zero limits refused; and the CLI's wording (plurals, times with a zone)."""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner
from google.protobuf.timestamp_pb2 import Timestamp

from engram.cli.client import EXIT_INVALID, CliError, timestamp_text
from engram.cli.learning import _learnings_title
from engram.cli.main import cli
from engram.cli.policy import parse_policy
from engram.cli.policy_file import changes, merge, to_message
from engram.cli.quarantine import _entry_line
from engram.cli.text import count
from engram.journal.v1 import journal_pb2
from engram.learning.v1 import learning_pb2

LEARNING = learning_pb2.LearningPolicy
RUN_MEMORY = journal_pb2.RunMemoryPolicy


def problems(text: str, policy_type: Any = LEARNING, source: str = "p.yaml") -> str:
    with pytest.raises(CliError) as raised:
        parse_policy(text, policy_type, source)
    assert raised.value.exit_code == EXIT_INVALID
    message: str = raised.value.format_message()
    return message


def test_a_typo_names_the_file_and_the_snake_case_field() -> None:
    message = problems("capture: {semantic_enable: false}\n", source="learning.yaml")
    assert message.startswith("learning.yaml: capture.semantic_enable: unknown field")
    assert "did you mean semantic_enabled?" in message
    # No camelCase names nor protobuf internals.
    for leak in ("semanticEnabled", "runSummaryEnabled", "engram.learning.v1", "Failed to parse"):
        assert leak not in message


@pytest.mark.parametrize(
    ("text", "policy_type", "expected"),
    [
        (
            "capture: {max_candidates_per_run: lots}\n",
            LEARNING,
            "p.yaml: capture.max_candidates_per_run: expected a whole number, got 'lots'",
        ),
        (
            "retention_seconds: soon\n",
            RUN_MEMORY,
            "p.yaml: retention_seconds: expected a whole number, got 'soon'",
        ),
        (
            "enabled: maybe\n",
            RUN_MEMORY,
            "p.yaml: enabled: expected true or false, got 'maybe'",
        ),
        (
            "judge: [1]\n",
            LEARNING,
            "p.yaml: judge: expected a mapping of fields, got a list",
        ),
        (
            "max_prompt_entries: 99999999999\n",
            RUN_MEMORY,
            "p.yaml: max_prompt_entries: 99999999999 is out of range",
        ),
    ],
)
def test_a_wrong_type_is_named_in_the_files_terms(
    text: str, policy_type: Any, expected: str
) -> None:
    message = problems(text, policy_type)
    assert message.startswith(expected), message
    assert "invalid literal" not in message


def test_an_unknown_enum_value_lists_the_choices_and_suggests_one() -> None:
    message = problems("mode: shadow\n")
    assert "mode: unknown value 'shadow' (did you mean AUTOMATION_MODE_SHADOW?" in message
    assert "AUTOMATION_MODE_ENABLED" in message


def test_every_problem_is_reported_one_per_line() -> None:
    text = (
        "mode: AUTOMATION_MODE_BOGUS\n"
        "publication: {rules: [{name: x, action: PUBLISH}], default_actoin: 3}\n"
    )
    lines = problems(text).splitlines()
    assert [line.split(": ")[1] for line in lines] == [
        "mode",
        "publication.rules[0].action",
        "publication.default_actoin",
    ]
    assert all(line.startswith("p.yaml: ") for line in lines)


@pytest.mark.parametrize(
    ("text", "policy_type", "field"),
    [
        ("capture: {max_candidates_per_run: 0}\n", LEARNING, "capture.max_candidates_per_run"),
        ("judge: {timeout_ms: 0}\n", LEARNING, "judge.timeout_ms"),
        ("retention_seconds: 0\n", RUN_MEMORY, "retention_seconds"),
        ("max_tracked_per_session: '0'\n", RUN_MEMORY, "max_tracked_per_session"),
    ],
)
def test_zero_for_a_limit_is_refused_not_turned_into_the_default(
    text: str, policy_type: Any, field: str
) -> None:
    message = problems(text, policy_type)
    assert message.startswith(f"p.yaml: {field}: must be at least 1 (0 would mean the default")
    # A zero that is a real value stays accepted.
    rule = "publication: {rules: [{name: r, action: PUBLICATION_ACTION_REJECT, min_confidence: 0}]}"
    assert parse_policy(rule, LEARNING, "p.yaml")["publication"]["rules"][0]["min_confidence"] == 0


def test_syntax_and_shape_errors() -> None:
    assert problems("mode: [unclosed\n").startswith("p.yaml: not YAML or JSON")
    assert "must be a mapping" in problems("- a list\n")


def test_policy_get_output_reads_back() -> None:
    # As `policy get` prints it: 64-bit integers as strings, server-managed
    # fields, and the {"policy": ...} wrapper of --json.
    text = (
        '{"policy": {"enabled": true, "retention_seconds": "2592000", '
        '"updated_at": "2026-01-01T00:00:00Z", "updated_by": "alice"}}'
    )
    partial = parse_policy(text, RUN_MEMORY, "p.json")
    assert partial == {"enabled": True, "retention_seconds": 2592000}
    camel = parse_policy("maxPromptEntries: 2\n", RUN_MEMORY, "p.yaml")
    assert camel == {"max_prompt_entries": 2}


CURRENT: dict[str, Any] = {
    "mode": "AUTOMATION_MODE_ENABLED",
    "capture": {
        "run_summary_enabled": True,
        "semantic_enabled": True,
        "max_candidates_per_run": 5,
    },
    "publication": {
        "rules": [{"name": "a", "action": "PUBLICATION_ACTION_REJECT"}],
        "default_action": "PUBLICATION_ACTION_MANUAL_REVIEW",
        "quarantined_rule_names": ["a"],
    },
}


def test_a_partial_policy_keeps_every_field_it_does_not_name() -> None:
    partial = parse_policy("capture: {semantic_enabled: false}\n", LEARNING, "p.yaml")
    merged = merge(CURRENT, partial)
    assert merged["capture"] == {
        "run_summary_enabled": True,
        "semantic_enabled": False,
        "max_candidates_per_run": 5,
    }
    assert merged["mode"] == "AUTOMATION_MODE_ENABLED"
    assert merged["publication"] == CURRENT["publication"]
    message = to_message(merged, LEARNING)
    assert isinstance(message, LEARNING)
    assert message.capture.run_summary_enabled and not message.capture.semantic_enabled
    assert changes(CURRENT, merged) == ["capture.semantic_enabled: true -> false"]


def test_a_list_is_replaced_whole() -> None:
    partial = parse_policy(
        "publication: {rules: [{name: b, action: PUBLICATION_ACTION_REJECT}],"
        " quarantined_rule_names: []}\n",
        LEARNING,
        "p.yaml",
    )
    merged = merge(CURRENT, partial)
    assert [r["name"] for r in merged["publication"]["rules"]] == ["b"]
    assert merged["publication"]["quarantined_rule_names"] == []
    assert merged["publication"]["default_action"] == "PUBLICATION_ACTION_MANUAL_REVIEW"


def test_policy_set_checks_the_file_before_any_call(tmp_path: Any) -> None:
    path = tmp_path / "policy.yaml"
    path.write_text("mode: 7\ncapture: {run_summary_enabled: maybe}\n", encoding="utf-8")
    # Nothing listens there: a call would exit 5, not 2.
    result = CliRunner().invoke(
        cli, ["policy", "set", "learning", str(path), "--address", "127.0.0.1:1"]
    )
    assert result.exit_code == EXIT_INVALID, result.output
    assert f"{path}: mode: expected one of" in result.output
    assert f"{path}: capture.run_summary_enabled: expected true or false" in result.output


def test_plurals() -> None:
    assert count(1, "candidate") == "1 candidate"
    assert count(2, "candidate") == "2 candidates"
    assert count(0, "summary", "summaries") == "0 summaries"
    assert _learnings_title(2, "all") == "2 learnings (every status)"
    assert _learnings_title(1, "active") == "1 active learning"
    assert _learnings_title(3, "revoked") == "3 revoked learnings"


def test_quarantine_lines_say_what_happened() -> None:
    entry = journal_pb2.QuarantineEntry(
        action="quarantine",
        record_kind=journal_pb2.RECORD_KIND_RUN_RECORD,
        record_id="run-1",
        subject="alice",
        entry_id=7,
    )
    assert _entry_line(entry, 3).startswith("quarantined run record run-1 (subject alice")
    entry.action = "restore"
    assert _entry_line(entry, 3).startswith("restored run record run-1")


def test_times_are_printed_with_their_zone() -> None:
    assert timestamp_text(Timestamp(seconds=1764607764)) == "2025-12-01 16:49:24 UTC"
    assert timestamp_text(Timestamp()) == ""

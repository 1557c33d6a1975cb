"""The operator CLI against a real suite (all four services, real PostgreSQL):
status, journal, runs, quarantine, policies, context, index rebuild and the
LoCoMo import, with their documented exit codes."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from engram.cli.client import (
    EXIT_AUTH,
    EXIT_INVALID,
    EXIT_NOT_FOUND,
    EXIT_OK,
    EXIT_PRECONDITION,
)
from engram.cli.main import cli
from engram.journal.v1 import journal_pb2_grpc as jpb_grpc
from engram.server import Suite
from tests.helpers import commit_turn, complete_run, wait_for_embeddings

ALL_SERVICES = ["journal", "learning", "retrieval", "gateway"]


def engram(suite: Suite, *args: str, input_text: str | None = None) -> Result:
    runner = CliRunner()
    return runner.invoke(
        cli, [*args, "--address", suite.address], input=input_text, catch_exceptions=False
    )


def engram_json(suite: Suite, *args: str) -> Any:
    result = engram(suite, *args, "--json")
    assert result.exit_code == EXIT_OK, result.output
    return json.loads(result.stdout)


@pytest.fixture
def suite(start_services: Any) -> Suite:
    started: Suite = start_services(ALL_SERVICES)
    return started


@pytest.fixture
def journal(suite: Suite, channel_to: Any) -> jpb_grpc.JournalServiceStub:
    return jpb_grpc.JournalServiceStub(channel_to(suite))


def test_status_reports_every_service(suite: Suite, journal: jpb_grpc.JournalServiceStub) -> None:
    commit_turn(journal, "I moved to Lisbon.")
    report = engram_json(suite, "status")
    services = report["services"]
    assert set(services) == {"journal", "learning", "retrieval", "gateway"}
    assert all(s["health"] == "SERVING" for s in services.values())
    assert services["journal"]["status"]["version"] == report["client_version"]
    assert services["journal"]["status"]["events"] == "1"
    assert "candidates_pending" in services["learning"]["status"]
    assert "staleness_seconds" in services["retrieval"]["status"]
    assert "gateway" not in services["gateway"].get("status", {})

    table = engram(suite, "status")
    assert table.exit_code == EXIT_OK, table.output
    for text in ("journal", "learning", "retrieval", "gateway", "freshness", "feed watermark"):
        assert text in table.output


def test_journal_read_paginates_and_search_ranks(
    suite: Suite, journal: jpb_grpc.JournalServiceStub
) -> None:
    for i in range(5):
        commit_turn(journal, f"Note {i}: my cat Miso likes box number {i}.")
    body = engram_json(suite, "journal", "read", "alice", "s1", "--page-size", "2")
    assert len(body["events"]) == 5
    assert len(body["coverage"]) == 3  # 2 + 2 + 1
    assert body["coverage"][0]["cardinality"]["matched_before_limit"] == "5"
    texts = [e["payload"]["user_text"] for e in body["events"]]
    assert texts == [f"Note {i}: my cat Miso likes box number {i}." for i in range(5)]
    limited = engram_json(
        suite, "journal", "read", "alice", "s1", "--page-size", "2", "--limit", "3"
    )
    assert len(limited["events"]) == 3

    table = engram(suite, "journal", "read", "alice", "s1")
    assert table.exit_code == EXIT_OK
    assert "seal valid" in table.output
    assert "Miso" in table.output

    wait_for_embeddings(journal)
    found = engram_json(suite, "journal", "search", "alice", "Miso box number 3", "--limit", "3")
    assert found["hits"]
    assert any("number 3" in h["episode"]["user_text"] for h in found["hits"])
    assert found["coverage"]["digest"]

    bad = engram(suite, "journal", "search", "alice", "cat", "--limit", "1000")
    assert bad.exit_code == EXIT_INVALID
    assert "limit:" in bad.output

    bad_id = engram(suite, "journal", "read", "bad subject!", "s1")
    assert bad_id.exit_code == EXIT_INVALID
    assert "subject:" in bad_id.output


def test_runs_recall_and_show(suite: Suite, journal: jpb_grpc.JournalServiceStub) -> None:
    run_id = f"run-{uuid.uuid4().hex[:8]}"
    complete_run(
        journal,
        "s-runs",
        "Summarise the quarterly report",
        "The quarterly report shows revenue up 12 percent.",
        run_id=run_id,
    )
    body = engram_json(suite, "runs", "recall", "alice", "s-runs", "--input", "quarterly revenue")
    assert [r["record"]["run_id"] for r in body["records"]] == [run_id]
    table = engram(suite, "runs", "recall", "alice", "s-runs")
    assert table.exit_code == EXIT_OK
    assert run_id in table.output
    shown = engram(suite, "runs", "show", "alice", run_id)
    assert shown.exit_code == EXIT_OK
    assert "quarterly" in shown.output
    assert re.search(r"recorded\s+│ \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", shown.output), shown.output
    missing = engram(suite, "runs", "show", "alice", "run-missing")
    assert missing.exit_code == EXIT_NOT_FOUND
    # Another subject's session and run id: nothing, and NOT_FOUND.
    assert not engram_json(suite, "runs", "recall", "bob", "s-runs").get("records")
    assert engram(suite, "runs", "show", "bob", run_id).exit_code == EXIT_NOT_FOUND


def test_quarantine_add_list_restore(suite: Suite, journal: jpb_grpc.JournalServiceStub) -> None:
    receipt = commit_turn(journal, "My card number is in the drawer.")
    episode = receipt.episode_id
    added = engram(suite, "quarantine", "add", "episode", episode, "--reason", "sensitive")
    assert added.exit_code == EXIT_OK, added.output
    assert f"quarantined episode {episode}" in added.output
    listed = engram_json(suite, "quarantine", "list")
    assert [e["record_id"] for e in listed["entries"]] == [episode]
    again = engram(suite, "quarantine", "add", "episode", episode, "--reason", "twice")
    assert again.exit_code == EXIT_PRECONDITION
    restored = engram(suite, "quarantine", "restore", "episode", episode, "--reason", "cleared")
    assert restored.exit_code == EXIT_OK, restored.output
    assert f"restored episode {episode}" in restored.output
    listed_table = engram(suite, "quarantine", "list", "--ledger")
    assert "2 ledger entries" in listed_table.output
    assert " UTC" in listed_table.output
    assert engram_json(suite, "quarantine", "list")["entries"] == []
    ledger = engram_json(suite, "quarantine", "list", "--ledger")
    assert [e["action"] for e in ledger["entries"]] == ["restore", "quarantine"]
    missing = engram(
        suite, "quarantine", "add", "episode", str(uuid.uuid4()), "--reason", "no such"
    )
    assert missing.exit_code == EXIT_NOT_FOUND


def test_policies_round_trip_and_report_fields(suite: Suite, tmp_path: Path) -> None:
    current = engram_json(suite, "policy", "get", "run-memory")["policy"]
    current["max_prompt_entries"] = 2
    path = tmp_path / "run_memory.json"
    path.write_text(json.dumps(current), encoding="utf-8")
    updated = engram_json(suite, "policy", "set", "run-memory", str(path))
    assert updated["policy"]["max_prompt_entries"] == 2
    assert "maintenance" in updated

    # YAML as printed by `policy get` is accepted back unchanged.
    printed = engram(suite, "policy", "get", "learning")
    assert printed.exit_code == EXIT_OK
    again = engram(suite, "policy", "set", "learning", input_text=printed.stdout)
    assert again.exit_code == EXIT_OK, again.output

    bad_rule = (
        "mode: AUTOMATION_MODE_SHADOW\n"
        "publication:\n"
        "  default_action: PUBLICATION_ACTION_MANUAL_REVIEW\n"
        "  rules:\n"
        "  - name: Not A Valid Name\n"
        "    action: PUBLICATION_ACTION_MANUAL_REVIEW\n"
    )
    rejected = engram(suite, "policy", "set", "learning", "-", input_text=bad_rule)
    assert rejected.exit_code == EXIT_INVALID
    assert "error: <stdin>: publication.rules[0].name: rule name" in rejected.output

    too_many = dict(current, max_prompt_entries=1000, max_tracked_per_session=3)
    path.write_text(json.dumps(too_many), encoding="utf-8")
    invalid = engram(suite, "policy", "set", "run-memory", str(path), "--json")
    assert invalid.exit_code == EXIT_INVALID
    error = json.loads(invalid.stderr)["error"]
    assert error["code"] == "INVALID_ARGUMENT"
    # In the file's terms: no "policy." prefix of the request message.
    assert error["field"] == "max_prompt_entries"
    assert error["file"] == str(path)
    assert engram_json(suite, "policy", "get", "run-memory")["policy"]["max_prompt_entries"] == 2


def test_context_show_and_index_rebuild(suite: Suite, journal: jpb_grpc.JournalServiceStub) -> None:
    commit_turn(journal, "I prefer green tea.", session_id="s-ctx")
    body = engram_json(suite, "context", "show", "alice", "s-ctx", "--input", "tea")
    assert "session:s-ctx" in body["scope_keys"]
    assert body["learned_coverage"]["digest"]
    table = engram(suite, "context", "show", "alice", "s-ctx", "--input", "tea")
    assert table.exit_code == EXIT_OK
    assert "learned context" in table.output
    assert "seal valid" in table.output
    listing = engram(suite, "context", "show", "alice", "s-ctx")
    assert listing.exit_code == EXIT_OK
    assert "SEAL INVALID" not in listing.output

    wait_for_embeddings(journal)
    rebuilt = engram(suite, "index", "rebuild")
    assert rebuilt.exit_code == EXIT_OK, rebuilt.output
    final = engram_json(suite, "index", "rebuild")
    assert final["published"] is True
    assert int(final["progress"]["done"]) == int(final["progress"]["total"]) >= 1
    index = engram_json(suite, "status")["services"]["retrieval"]["status"]
    # Episodes, not feed cursors: one turn is one episode (its feed cursor
    # and the watermark are positions, far from 1).
    assert int(final["progress"]["episodes"]) == int(index["episodes"]) == 1
    # One meaning of snapshot version: the feed cursor the snapshot reflects.
    assert final["snapshot_version"] == index["snapshot_version"] == index["applied_cursor"]
    assert f"published snapshot version {index['snapshot_version']} " in " ".join(
        rebuilt.output.split()
    )
    assert "with 1 episode" in " ".join(rebuilt.output.split())
    table = engram(suite, "status")
    assert f"snapshot version (feed cursor) │ {index['snapshot_version']}" in table.output


def write_tiny_locomo(path: Path) -> None:
    path.write_text(
        json.dumps(
            [
                {
                    "sample_id": "conv-t",
                    "conversation": {
                        "speaker_a": "Ana",
                        "speaker_b": "Ben",
                        "session_1_date_time": "1:56 pm on 8 May, 2023",
                        "session_1": [
                            {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted Miso."},
                            {"speaker": "Ben", "dia_id": "D1:2", "text": "A cat?"},
                        ],
                        "session_2_date_time": "9:15 am on 9 May, 2023",
                        "session_2": [
                            {"speaker": "Ana", "dia_id": "D2:1", "text": "Yes, a tabby."}
                        ],
                    },
                    "qa": [
                        {"question": "Pet?", "answer": "a cat", "evidence": ["D1:1"], "category": 4}
                    ],
                }
            ]
        ),
        encoding="utf-8",
    )


def test_import_locomo_is_idempotent(suite: Suite, tmp_path: Path) -> None:
    path = tmp_path / "tiny_locomo.json"
    write_tiny_locomo(path)
    first = engram_json(suite, "import", "locomo", str(path))
    assert first == {"conversations": 1, "sessions": 2, "committed": 3, "replayed": 0}
    second = engram_json(suite, "import", "locomo", str(path), "--limit-conversations", "1")
    assert second == {"conversations": 1, "sessions": 2, "committed": 0, "replayed": 3}
    table = engram(suite, "import", "locomo", str(path))
    assert table.exit_code == EXIT_OK
    assert "replayed" in table.output

    session = engram_json(suite, "journal", "read", "locomo-conv-t", "conv-t-session-1")
    events = session["events"]
    assert [e["payload"]["user_text"] for e in events] == ["I adopted Miso.", "A cat?"]
    assert [e["payload"]["user_name"] for e in events] == ["Ana", "Ben"]
    assert [e["occurred_at"] for e in events] == ["2023-05-08T13:56:00Z", "2023-05-08T13:56:01Z"]


OPERATOR_TOKEN = "operator-token-0123456789"
RUNTIME_TOKEN = "runtime-token-0123456789"


def test_tokens_and_auth_exit_code(start_services: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    secured: Suite = start_services(
        ["journal"], tokens=f"ops:operator:{OPERATOR_TOKEN},rt:runtime:{RUNTIME_TOKEN}"
    )
    anonymous = engram(secured, "quarantine", "list")
    assert anonymous.exit_code == EXIT_AUTH
    assert "UNAUTHENTICATED" in anonymous.output
    runtime = engram(secured, "quarantine", "list", "--token", RUNTIME_TOKEN)
    assert runtime.exit_code == EXIT_AUTH
    assert "PERMISSION_DENIED" in runtime.output
    assert engram(secured, "quarantine", "list", "--token", OPERATOR_TOKEN).exit_code == EXIT_OK
    monkeypatch.setenv("ENGRAM_TOKEN", OPERATOR_TOKEN)
    assert engram(secured, "quarantine", "list").exit_code == EXIT_OK
    # Health needs no token; status shows the journal only (split deployment).
    monkeypatch.delenv("ENGRAM_TOKEN")
    assert engram(secured, "health", "--service", "engram.journal.v1.JournalService").exit_code == 0
    split = engram_json(secured, "status", "--token", OPERATOR_TOKEN)
    assert split["services"]["journal"]["health"] == "SERVING"
    assert split["services"]["gateway"]["health"] == "NOT_SERVED_HERE"
    denied = engram(secured, "status")
    assert denied.exit_code == EXIT_AUTH
    # Honest rows: healthy, but the status call was refused, on that row.
    row = next(line for line in denied.stdout.splitlines() if line.startswith("│ journal"))
    assert [cell.strip() for cell in row.strip("│").split("│")][2:4] == [
        "SERVING",
        "UNAUTHENTICATED",
    ]
    assert "not healthy" not in denied.output
    assert "the status of journal could not be read (UNAUTHENTICATED" in denied.stderr
    assert "--token or ENGRAM_TOKEN" in denied.stderr
    as_json = engram(secured, "status", "--json")
    journal_row = json.loads(as_json.stdout)["services"]["journal"]
    assert journal_row["health"] == "SERVING"
    assert journal_row["error"]["code"] == "UNAUTHENTICATED"
    assert "status" not in journal_row


def set_learning(suite: Suite, text: str, *flags: str) -> Result:
    return engram(suite, "policy", "set", "learning", "-", *flags, input_text=text)


def test_a_partial_policy_changes_only_what_it_names(suite: Suite) -> None:
    before = engram_json(suite, "policy", "get", "learning")["policy"]
    assert before["capture"]["run_summary_enabled"] is True
    result = set_learning(suite, "capture: {semantic_enabled: false}\n")
    assert result.exit_code == EXIT_OK, result.output
    assert "# changed: capture.semantic_enabled: true -> false" in result.output
    after = engram_json(suite, "policy", "get", "learning")["policy"]
    assert after["capture"] == {**before["capture"], "semantic_enabled": False}
    assert after["publication"] == before["publication"]
    assert after["judge"] == before["judge"]

    # Zero would be the default on the wire: refused, nothing sent.
    zero = set_learning(suite, "capture: {max_candidates_per_run: 0}\n")
    assert zero.exit_code == EXIT_INVALID
    assert "<stdin>: capture.max_candidates_per_run: must be at least 1" in zero.output
    assert engram_json(suite, "policy", "get", "learning")["policy"] == after

    dry = set_learning(suite, "mode: AUTOMATION_MODE_ENABLED\n", "--dry-run")
    assert dry.exit_code == EXIT_OK, dry.output
    assert "# would change: mode: AUTOMATION_MODE_SHADOW -> AUTOMATION_MODE_ENABLED" in dry.output
    assert engram_json(suite, "policy", "get", "learning")["policy"]["mode"] == before["mode"]
    # The server validates a dry run as it would the change itself.
    bad = set_learning(
        suite,
        "publication: {rules: [{name: Bad Name, action: PUBLICATION_ACTION_REJECT}]}",
        "--dry-run",
    )
    assert bad.exit_code == EXIT_INVALID
    assert "<stdin>: publication.rules[0].name: rule name" in bad.stderr


def test_pruning_needs_yes_and_a_dry_run_shows_it(
    suite: Suite, journal: jpb_grpc.JournalServiceStub, tmp_path: Path
) -> None:
    for _ in range(3):
        complete_run(journal, "s-prune")
    path = tmp_path / "run_memory.yaml"
    path.write_text("max_tracked_per_session: 1\nmax_prompt_entries: 1\n", encoding="utf-8")
    before = engram_json(suite, "policy", "get", "run-memory")["policy"]

    refused = engram(suite, "policy", "set", "run-memory", str(path))
    assert refused.exit_code == EXIT_PRECONDITION, refused.output
    assert "would prune 2 run records (0 past retention_seconds, 2 over" in refused.stderr
    assert "--yes" in refused.stderr
    as_json = engram(suite, "policy", "set", "run-memory", str(path), "--json")
    assert as_json.exit_code == EXIT_PRECONDITION
    error = json.loads(as_json.stderr)["error"]
    assert error["reason"] == "CONFIRMATION_REQUIRED" and "--yes" in error["message"]
    assert error["maintenance"]["overflow_removed"] == "2"
    assert engram_json(suite, "policy", "get", "run-memory")["policy"] == before

    dry = engram_json(suite, "policy", "set", "run-memory", str(path), "--dry-run")
    assert dry["dry_run"] is True
    assert dry["maintenance"]["trigger"] == "dry_run"
    assert dry["maintenance"]["overflow_removed"] == "2"
    assert "max_tracked_per_session: 32 -> 1" in dry["changes"]
    assert engram_json(suite, "policy", "get", "run-memory")["policy"] == before
    recalled = engram_json(suite, "runs", "recall", "alice", "s-prune", "--max-entries", "3")
    assert len(recalled["records"]) == 3, "a dry run prunes nothing"

    applied = engram(suite, "policy", "set", "run-memory", str(path), "--yes")
    assert applied.exit_code == EXIT_OK, applied.output
    assert "# pruned: 2 run records (0 past retention_seconds, 2 over" in applied.output
    assert (
        engram_json(suite, "policy", "get", "run-memory")["policy"]["max_tracked_per_session"] == 1
    )
    # Nothing left to prune: no --yes needed.
    again = engram(suite, "policy", "set", "run-memory", str(path))
    assert again.exit_code == EXIT_OK, again.output

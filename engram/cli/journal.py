"""`engram journal read|search|compact` and `engram runs recall|show`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import click

from engram.cli.client import (
    EXIT_INVALID,
    Client,
    CliError,
    client_options,
    console,
    coverage_summary,
    emit_json,
    enum_name,
    print_table,
    shorten,
    timestamp_text,
    to_dict,
)
from engram.cli.text import count
from engram.common.v1 import common_pb2
from engram.journal.v1 import journal_pb2, journal_pb2_grpc, transcript_pb2
from engram.timeutil import to_timestamp


def journal_stub(client: Client) -> journal_pb2_grpc.JournalServiceStub:
    stub: journal_pb2_grpc.JournalServiceStub = client.stub(journal_pb2_grpc.JournalServiceStub)
    return stub


def parse_time(value: str | None, option: str) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise CliError(f"{option}: not an ISO 8601 time: {value!r}", EXIT_INVALID) from None


def time_window(since: str | None, until: str | None) -> common_pb2.TimeWindow | None:
    start, end = parse_time(since, "--since"), parse_time(until, "--until")
    if start is None and end is None:
        return None
    window = common_pb2.TimeWindow()
    if start is not None:
        window.start_time.CopyFrom(to_timestamp(start))
    if end is not None:
        window.end_time.CopyFrom(to_timestamp(end))
    return window


def _event_text(event: journal_pb2.Event) -> str:
    payload = dict(event.payload.items())
    if "user_text" in payload or "assistant_text" in payload:
        return (
            f"User: {payload.get('user_text', '')}\nAssistant: {payload.get('assistant_text', '')}"
        )
    return shorten(str(payload), 200)


@click.group("journal")
def journal_group() -> None:
    """Read the canonical journal and search episodes."""


@journal_group.command("read")
@click.argument("subject")
@click.argument("session")
@click.option("--workspace", default="", help='workspace id [default: "default"]')
@click.option("--page-size", type=int, default=100, show_default=True, help="events per call")
@click.option("--limit", type=int, default=0, help="stop after this many events (0 = all)")
@click.option("--event-type", "event_types", multiple=True, help="only these event types")
@client_options
def journal_read(
    client: Client,
    subject: str,
    session: str,
    workspace: str,
    page_size: int,
    limit: int,
    event_types: tuple[str, ...],
) -> None:
    """Read SUBJECT's SESSION journal in commit order, following every page."""
    stub = journal_stub(client)
    events: list[journal_pb2.Event] = []
    coverages: list[common_pb2.Coverage] = []
    token = ""
    while True:
        page = client.call(
            stub.ReadSessionJournal,
            journal_pb2.ReadSessionJournalRequest(
                subject=subject,
                workspace=workspace,
                session_id=session,
                page_size=min(page_size, limit) if limit else page_size,
                page_token=token,
                event_types=list(event_types),
            ),
        )
        events.extend(page.events)
        coverages.append(page.coverage)
        token = page.next_page_token
        if not token or (limit and len(events) >= limit):
            break
    if limit:
        events = events[:limit]
    if client.as_json:
        emit_json(
            {
                "events": [to_dict(e) for e in events],
                "coverage": [to_dict(c) for c in coverages],
                "next_page_token": token,
            }
        )
        return
    rows = [
        (
            e.event_id,
            timestamp_text(e.occurred_at),
            e.event_type,
            enum_name(journal_pb2.Provenance, e.provenance, "PROVENANCE_"),
            _event_text(e),
        )
        for e in events
    ]
    print_table(
        f"{subject} / {session}: {count(len(events), 'event')}",
        ("event", "occurred", "type", "provenance", "content"),
        rows,
    )
    for index, coverage in enumerate(coverages, start=1):
        returned = coverage.cardinality.returned
        console().print(f"page {index}: {coverage_summary(coverage, returned)}")


@journal_group.command("search")
@click.argument("subject")
@click.argument("query")
@click.option("--workspace", default="", help='workspace id [default: "default"]')
@click.option("--limit", type=int, default=10, show_default=True)
@click.option("--exclude-session", default="", help="leave out this session")
@click.option("--since", default=None, help="ISO 8601 start of the time window")
@click.option("--until", default=None, help="ISO 8601 end of the time window (exclusive)")
@client_options
def journal_search(
    client: Client,
    subject: str,
    query: str,
    workspace: str,
    limit: int,
    exclude_session: str,
    since: str | None,
    until: str | None,
) -> None:
    """Ranked search over SUBJECT's episodes (the PostgreSQL read path)."""
    request = journal_pb2.SearchEpisodesRequest(
        query_text=query,
        subject=subject,
        workspace=workspace,
        exclude_session_id=exclude_session,
        limit=limit,
    )
    window = time_window(since, until)
    if window is not None:
        request.time_window.CopyFrom(window)
    response = client.call(journal_stub(client).SearchEpisodes, request)
    if client.as_json:
        emit_json(response)
        return
    rows = [
        (
            rank,
            f"{hit.score:.4f}",
            hit.episode.session_id,
            hit.episode.episode_id,
            shorten(hit.episode.user_text, 100),
            shorten(hit.episode.assistant_text, 60),
        )
        for rank, hit in enumerate(response.hits, start=1)
    ]
    print_table(
        f"{count(len(rows), 'episode')} for {query!r}",
        ("#", "score", "session", "episode", "user", "assistant"),
        rows,
    )
    console().print(coverage_summary(response.coverage, len(response.hits)))


@journal_group.command("compact")
@click.argument("session")
@click.option("--subject", required=True, help="the session's subject")
@click.option("--workspace", default="", help='workspace id [default: "default"]')
@click.option("--tail-turns", type=int, default=0, help="literal tail (0 = the policy's)")
@click.option("--dry-run", is_flag=True, help="show the plan; store no checkpoint")
@client_options
def journal_compact(
    client: Client, session: str, subject: str, workspace: str, tail_turns: int, dry_run: bool
) -> None:
    """What compaction does to SESSION: the turns it would prune, the
    checkpoint it would build, or why it declines (GetSessionContext)."""
    response = client.call(
        journal_stub(client).GetSessionContext,
        transcript_pb2.GetSessionContextRequest(
            subject=subject,
            workspace=workspace,
            session_id=session,
            tail_turns=tail_turns,
            dry_run=dry_run,
        ),
    )
    if client.as_json:
        emit_json(response)
        return
    out = console()
    outcome = enum_name(transcript_pb2.CompactionOutcome, response.outcome, "COMPACTION_OUTCOME_")
    out.print(
        f"{subject} / {session}: {outcome} under compaction policy v{response.policy_version}"
        f"{' (dry run: nothing stored)' if dry_run else ''}"
    )
    out.print(
        f"tail {count(len(response.tail), 'turn')}; pruned {response.pruned_turns}; "
        f"omitted {response.older_turns_omitted}; "
        f"quarantined left out {response.quarantined_turns_excluded}"
    )
    if response.issues:
        print_table(
            count(len(response.issues) + response.issues_omitted, "finding"),
            ("event", "reason", "detail"),
            [
                (
                    i.event_id,
                    enum_name(
                        transcript_pb2.CompactionIssueReason, i.reason, "COMPACTION_ISSUE_REASON_"
                    ),
                    i.detail,
                )
                for i in response.issues
            ],
        )
    if response.HasField("checkpoint"):
        cp = response.checkpoint
        out.print(
            f"checkpoint sha256 {cp.sha256}: {count(len(cp.sources), 'turn')} through event "
            f"{cp.through_event_id}, {count(cp.turns_elided_by_cap, 'summary', 'summaries')} "
            "elided by the cap"
            f"{', from the stored projection' if cp.from_projection else ''}"
        )
        out.print(cp.text, markup=False, highlight=False)
    out.print(coverage_summary(response.coverage, response.coverage.cardinality.returned))


@click.group("runs")
def runs_group() -> None:
    """Recovered run memory."""


def _run_rows(records: Any) -> list[tuple[Any, ...]]:
    return [
        (
            ranked.record.run_id,
            enum_name(journal_pb2.RunStatus, ranked.record.status, "RUN_STATUS_"),
            f"{ranked.score:.3f}",
            timestamp_text(ranked.record.recorded_at),
            shorten(ranked.record.summary, 120),
        )
        for ranked in records
    ]


@runs_group.command("recall")
@click.argument("subject")
@click.argument("session")
@click.option("--workspace", default="", help='workspace id [default: "default"]')
@click.option("--input", "pending_input", default="", help="pending input to rank against")
@click.option("--max-entries", type=int, default=0, help="0 = the policy's max_prompt_entries")
@client_options
def runs_recall(
    client: Client,
    subject: str,
    session: str,
    workspace: str,
    pending_input: str,
    max_entries: int,
) -> None:
    """SUBJECT's SESSION recovered run memory as the gateway would rank it."""
    response = client.call(
        journal_stub(client).GetRecoveredMemory,
        journal_pb2.GetRecoveredMemoryRequest(
            subject=subject,
            workspace=workspace,
            session_id=session,
            pending_input=pending_input,
            max_entries=max_entries,
        ),
    )
    if client.as_json:
        emit_json(response)
        return
    print_table(
        f"recovered memory of {subject}/{session}",
        ("run", "status", "score", "recorded", "summary"),
        _run_rows(response.records),
    )
    if response.omitted_by_limit:
        console().print(
            f"{count(response.omitted_by_limit, 'more record', 'more records')} "
            "cut by the prompt limit"
        )
    console().print(coverage_summary(response.coverage, len(response.records)))


@runs_group.command("show")
@click.argument("subject")
@click.argument("run_id")
@click.option("--workspace", default="", help='workspace id [default: "default"]')
@client_options
def runs_show(client: Client, subject: str, run_id: str, workspace: str) -> None:
    """One run-memory record of SUBJECT."""
    response = client.call(
        journal_stub(client).GetRunRecord,
        journal_pb2.GetRunRecordRequest(subject=subject, workspace=workspace, run_id=run_id),
    )
    if client.as_json:
        emit_json(response)
        return
    record = response.record
    print_table(
        f"run {record.run_id}",
        ("field", "value"),
        [
            ("session", record.session_id),
            ("subject", f"{record.subject} ({record.workspace})"),
            ("status", enum_name(journal_pb2.RunStatus, record.status, "RUN_STATUS_")),
            ("summary", record.summary),
            ("request", record.request_preview),
            ("outcome", record.outcome_preview),
            ("failure markers", ", ".join(record.failure_markers)),
            ("artifacts", ", ".join(record.artifact_ids)),
            ("scopes", ", ".join(record.scope_keys)),
            ("redactions", record.redaction_count),
            ("recorded", timestamp_text(record.recorded_at)),
            ("expires", timestamp_text(record.expires_at)),
        ],
    )

"""`engram import locomo PATH`: load LoCoMo conversations through the public
JournalService API (the mapping is documented in engram.locomo)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from engram.cli.client import (
    EXIT_INVALID,
    Client,
    CliError,
    client_options,
    console,
    emit_json,
    print_table,
)
from engram.journal.v1 import journal_pb2, journal_pb2_grpc
from engram.locomo import (
    Conversation,
    LocomoFormatError,
    TurnCommit,
    commits_for,
    load_conversations,
)
from engram.timeutil import to_timestamp


@dataclass
class ImportCounts:
    conversations: int = 0
    sessions: int = 0
    committed: int = 0
    replayed: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, replayed: bool) -> None:
        with self._lock:
            if replayed:
                self.replayed += 1
            else:
                self.committed += 1

    def as_dict(self) -> dict[str, int]:
        return {
            "conversations": self.conversations,
            "sessions": self.sessions,
            "committed": self.committed,
            "replayed": self.replayed,
        }


def commit_request(commit: TurnCommit, workspace: str) -> journal_pb2.CommitTurnRequest:
    return journal_pb2.CommitTurnRequest(
        subject=commit.subject,
        workspace=workspace,
        session_id=commit.session_id,
        user_text=commit.user_text,
        assistant_text=commit.assistant_text,
        user_name=commit.user_name,
        request_id=commit.request_id,
        learning_eligible=True,
        occurred_at=to_timestamp(commit.occurred_at),
    )


def import_conversations(
    client: Client,
    conversations: list[Conversation],
    workspace: str,
    parallel: int,
    on_turn: Callable[[], None] = lambda: None,
) -> ImportCounts:
    """Commit every turn; the turns of one session go in order, sessions in
    parallel (each turn carries its own occurred_at)."""
    stub = client.stub(journal_pb2_grpc.JournalServiceStub)
    counts = ImportCounts(
        conversations=len(conversations), sessions=sum(len(c.sessions) for c in conversations)
    )
    batches: dict[tuple[str, str], list[TurnCommit]] = {}
    for conversation in conversations:
        for commit in commits_for(conversation):
            batches.setdefault((commit.subject, commit.session_id), []).append(commit)

    def run(batch: list[TurnCommit]) -> None:
        for commit in batch:
            response = client.call(stub.CommitTurn, commit_request(commit, workspace))
            counts.add(response.receipt.replayed)
            on_turn()

    with ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
        # list() re-raises the first failure (a CliError with its exit code).
        list(pool.map(run, batches.values()))
    return counts


@click.group("import")
def import_group() -> None:
    """Load conversation data sets through the public API."""


@import_group.command("locomo")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--limit-conversations", type=int, default=0, help="only the first N (0 = all)")
@click.option("--workspace", default="", help='workspace id [default: "default"]')
@click.option("--parallel", type=int, default=4, show_default=True, help="sessions in flight")
@client_options
def import_locomo(
    client: Client, path: Path, limit_conversations: int, workspace: str, parallel: int
) -> None:
    """Import a LoCoMo-format file: one subject per conversation
    ("locomo-<sample_id>"), one session per session ("<sample_id>-session-<N>"),
    one committed turn per utterance. Re-running replays instead of duplicating."""
    try:
        conversations = load_conversations(path)
    except LocomoFormatError as exc:
        raise CliError(f"{path}: {exc}", EXIT_INVALID) from None
    if limit_conversations > 0:
        conversations = conversations[:limit_conversations]
    total = sum(c.turn_count() for c in conversations)
    if client.as_json:
        counts = import_conversations(client, conversations, workspace, parallel)
        emit_json(counts.as_dict())
        return
    columns = (
        TextColumn("importing turns"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console()) as progress:
        task = progress.add_task("import", total=total)
        counts = import_conversations(
            client,
            conversations,
            workspace,
            parallel,
            on_turn=lambda: progress.advance(task),
        )
    print_table(
        f"imported {path.name}",
        ("conversations", "sessions", "committed", "replayed"),
        [(counts.conversations, counts.sessions, counts.committed, counts.replayed)],
    )

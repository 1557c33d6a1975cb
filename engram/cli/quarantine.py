"""`engram quarantine add|restore|list`: the journal's quarantine ledger."""

from __future__ import annotations

from typing import Any

import click

from engram.cli.client import (
    Client,
    client_options,
    console,
    emit_json,
    enum_choices,
    enum_name,
    enum_value,
    new_request_id,
    print_table,
    request_id_option,
    timestamp_text,
    to_dict,
)
from engram.cli.text import count
from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc

KIND_ARGUMENT = click.argument(
    "kind", type=click.Choice(enum_choices(pb.RecordKind, "RECORD_KIND_"))
)


def _record_kind(kind: str) -> Any:
    return enum_value(pb.RecordKind, "RECORD_KIND_", kind)


# The ledger's actions, as what happened to the record.
_DONE = {"quarantine": "quarantined", "restore": "restored"}


def _entry_line(entry: pb.QuarantineEntry, cursor: int) -> str:
    kind = enum_name(pb.RecordKind, entry.record_kind, "RECORD_KIND_").replace("_", " ")
    done = _DONE.get(entry.action, entry.action)
    return (
        f"{done} {kind} {entry.record_id} (subject {entry.subject}, "
        f"ledger entry {entry.entry_id}, change cursor {cursor})"
    )


@click.group("quarantine")
def quarantine_group() -> None:
    """Take records out of every read path, and put them back (operator role)."""


def _ledger_move(
    client: Client, quarantine: bool, kind: str, record_id: str, reason: str, request_id: str | None
) -> None:
    stub = client.stub(pb_grpc.JournalServiceStub)
    fields = {
        "record_kind": _record_kind(kind),
        "record_id": record_id,
        "reason": reason,
        "request_id": new_request_id(request_id),
    }
    response = (
        client.call(stub.Quarantine, pb.QuarantineRequest(**fields))
        if quarantine
        else client.call(stub.Restore, pb.RestoreRequest(**fields))
    )
    if client.as_json:
        emit_json(response)
    else:
        console().print(_entry_line(response.entry, response.change_cursor))


@quarantine_group.command("add")
@KIND_ARGUMENT
@click.argument("record_id")
@click.option("--reason", required=True, help="kept in the ledger")
@request_id_option
@client_options
def quarantine_add(
    client: Client, kind: str, record_id: str, reason: str, request_id: str | None
) -> None:
    """Quarantine the KIND record RECORD_ID (episode, event or run-record)."""
    _ledger_move(client, True, kind, record_id, reason, request_id)


@quarantine_group.command("restore")
@KIND_ARGUMENT
@click.argument("record_id")
@click.option("--reason", required=True, help="kept in the ledger")
@request_id_option
@client_options
def quarantine_restore(
    client: Client, kind: str, record_id: str, reason: str, request_id: str | None
) -> None:
    """Restore a quarantined record."""
    _ledger_move(client, False, kind, record_id, reason, request_id)


@quarantine_group.command("list")
@click.option("--ledger", is_flag=True, help="the full ledger, not only active quarantines")
@click.option("--limit", type=int, default=100, show_default=True, help="0 = all")
@client_options
def quarantine_list(client: Client, ledger: bool, limit: int) -> None:
    """Quarantined records (or the whole ledger), newest first."""
    stub = client.stub(pb_grpc.JournalServiceStub)
    request = pb.ListQuarantineRequest(active_only=not ledger, page_size=min(limit or 100, 100))
    entries: list[pb.QuarantineEntry] = []
    while True:
        response = client.call(stub.ListQuarantine, request)
        entries.extend(response.entries)
        if not response.next_page_token or (limit and len(entries) >= limit):
            break
        request.page_token = response.next_page_token
    if limit:
        entries = entries[:limit]
    if client.as_json:
        emit_json({"entries": [to_dict(e) for e in entries]})
        return
    print_table(
        count(len(entries), "ledger entry", "ledger entries")
        if ledger
        else count(len(entries), "quarantined record"),
        ("entry", "action", "kind", "record", "subject", "reason", "actor", "at"),
        [
            (
                e.entry_id,
                e.action,
                enum_name(pb.RecordKind, e.record_kind, "RECORD_KIND_"),
                e.record_id,
                e.subject,
                e.reason,
                e.actor,
                timestamp_text(e.recorded_at),
            )
            for e in entries
        ],
    )

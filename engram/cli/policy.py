"""`engram policy get|set learning|run-memory [FILE]`.

Policies travel as proto3 JSON (field names as in the proto) written as YAML
or JSON; `policy get` prints YAML that `policy set` accepts back. A file may
name only some fields: they are merged onto the current policy (the rule is
in engram.cli.policy_file). A change that would prune run records needs
--yes; --dry-run shows the merged policy and what it would prune.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

import click
import yaml
from google.protobuf.message import Message

from engram.cli.client import (
    EXIT_INVALID,
    EXIT_PRECONDITION,
    Client,
    CliError,
    client_options,
    emit_json,
    new_request_id,
    request_id_option,
    to_dict,
)
from engram.cli.policy_file import (
    PolicyFileError,
    changes,
    merge,
    read_policy_file,
    to_message,
    without_read_only,
)
from engram.cli.text import count
from engram.journal.v1 import journal_pb2, journal_pb2_grpc
from engram.learning.v1 import learning_pb2, learning_pb2_grpc


@dataclass(frozen=True)
class PolicyKind:
    policy_type: type[Message]
    stub: Any
    get_method: str
    get_request: type[Message]
    set_method: str
    set_request: type[Message]
    # The server's field names carry this prefix ("policy.max_prompt_entries").
    server_prefix: str = ""


POLICIES: dict[str, PolicyKind] = {
    "learning": PolicyKind(
        learning_pb2.LearningPolicy,
        learning_pb2_grpc.LearningServiceStub,
        "GetLearningPolicy",
        learning_pb2.GetLearningPolicyRequest,
        "SetLearningPolicy",
        learning_pb2.SetLearningPolicyRequest,
    ),
    "run-memory": PolicyKind(
        journal_pb2.RunMemoryPolicy,
        journal_pb2_grpc.JournalServiceStub,
        "GetRunMemoryPolicy",
        journal_pb2.GetRunMemoryPolicyRequest,
        "SetRunMemoryPolicy",
        journal_pb2.SetRunMemoryPolicyRequest,
        server_prefix="policy.",
    ),
}


def parse_policy(text: str, policy_type: type[Message], source: str) -> dict[str, Any]:
    """The partial policy a file names (snake_case keys); errors exit 2,
    one "file: field: why" line per problem."""
    try:
        return read_policy_file(text, policy_type, source)
    except PolicyFileError as exc:
        raise CliError(str(exc), EXIT_INVALID) from None


def pruned_total(report: journal_pb2.MaintenanceReport) -> int:
    return int(report.expired_removed + report.overflow_removed + report.orphans_removed)


def prune_summary(report: journal_pb2.MaintenanceReport) -> str:
    return (
        f"{count(pruned_total(report), 'run record')} "
        f"({report.expired_removed} past retention_seconds, "
        f"{report.overflow_removed} over max_tracked_per_session)"
    )


def _print_policy(
    client: Client,
    policy: Message,
    *,
    maintenance: journal_pb2.MaintenanceReport | None,
    changed: list[str],
    dry_run: bool,
) -> None:
    shown = to_dict(policy)
    if dry_run:  # nothing was stored: no server-managed fields to show
        shown = without_read_only(shown)
    if client.as_json:
        body: dict[str, Any] = {"policy": shown, "changes": changed, "dry_run": dry_run}
        if maintenance is not None:
            body["maintenance"] = to_dict(maintenance)
        emit_json(body)
        return
    click.echo(yaml.safe_dump(shown, sort_keys=False, allow_unicode=True), nl=False)
    verb = "would change" if dry_run else "changed"
    click.echo(f"# {verb}: {', '.join(changed) if changed else 'nothing'}")
    if maintenance is not None:
        click.echo(f"# {'would prune' if dry_run else 'pruned'}: {prune_summary(maintenance)}")
    if dry_run:
        click.echo("# dry run: nothing was changed")


@click.group("policy")
def policy_group() -> None:
    """Show or change the learning and run-memory policies (operator role)."""


KIND_ARGUMENT = click.argument("kind", type=click.Choice(sorted(POLICIES)))


@policy_group.command("get")
@KIND_ARGUMENT
@client_options
def policy_get(client: Client, kind: str) -> None:
    """Print the KIND policy as YAML (or JSON with --json)."""
    spec = POLICIES[kind]
    stub = client.stub(spec.stub)
    response = client.call(getattr(stub, spec.get_method), spec.get_request())
    if client.as_json:
        emit_json({"policy": to_dict(response.policy)})
        return
    click.echo(
        yaml.safe_dump(to_dict(response.policy), sort_keys=False, allow_unicode=True), nl=False
    )


def _set(client: Client, spec: PolicyKind, source: str, request: Message) -> Any:
    """The Set call; a field the server rejects is reported in the file's terms."""
    stub = client.stub(spec.stub)
    try:
        return client.call(getattr(stub, spec.set_method), request)
    except CliError as exc:
        server_field = str(exc.payload.get("field", ""))
        if exc.payload.get("code") != "INVALID_ARGUMENT" or not server_field:
            raise
        field = server_field.removeprefix(spec.server_prefix)
        why = str(exc.payload.get("message", "")).removeprefix(f"{server_field}: ")
        payload = {**exc.payload, "field": field, "file": source}
        raise CliError(f"{source}: {field}: {why}", EXIT_INVALID, payload) from None


@policy_group.command("set")
@KIND_ARGUMENT
@click.argument("file", type=click.File("r", encoding="utf-8"), default="-", required=False)
@click.option("--dry-run", is_flag=True, help="show the merged policy and what it would prune")
@click.option("--yes", is_flag=True, help="apply a change that prunes run records")
@request_id_option
@client_options
def policy_set(
    client: Client, kind: str, file: Any, dry_run: bool, yes: bool, request_id: str | None
) -> None:
    """Change the KIND policy from FILE (YAML or JSON; "-" or none reads stdin).

    FILE may name only some fields: each one named replaces the current
    value, the others keep theirs; a list replaces the whole list. The file
    is checked field by field before anything is sent (exit 2 naming the
    file and field). A run-memory change that would prune records is
    refused (exit 4) unless --yes is given; --dry-run shows the merged
    policy and what it would prune, changing nothing.
    """
    spec = POLICIES[kind]
    source = getattr(file, "name", "<stdin>")
    if file is sys.stdin or source == "<stdin>":
        source = "<stdin>"
    partial = parse_policy(file.read(), spec.policy_type, source)
    stub = client.stub(spec.stub)
    current = client.call(getattr(stub, spec.get_method), spec.get_request()).policy
    before = without_read_only(to_dict(current))
    after = merge(before, partial)
    policy = to_message(after, spec.policy_type)
    changed = changes(before, without_read_only(to_dict(policy)))
    preview = None
    if dry_run or kind == "run-memory":
        preview = _set(client, spec, source, spec.set_request(policy=policy, validate_only=True))
    maintenance = getattr(preview, "maintenance", None) if preview is not None else None
    if dry_run:
        assert preview is not None
        _print_policy(
            client, preview.policy, maintenance=maintenance, changed=changed, dry_run=True
        )
        return
    if maintenance is not None and pruned_total(maintenance) and not yes:
        message = (
            f"this change would prune {prune_summary(maintenance)}; nothing was changed. "
            "Re-run with --yes to apply it (--dry-run shows it)"
        )
        raise CliError(
            message,
            EXIT_PRECONDITION,
            {
                "code": "FAILED_PRECONDITION",
                "message": message,
                "reason": "CONFIRMATION_REQUIRED",
                "maintenance": to_dict(maintenance),
            },
        )
    request = spec.set_request(policy=policy, request_id=new_request_id(request_id))
    response = _set(client, spec, source, request)
    _print_policy(
        client,
        response.policy,
        maintenance=getattr(response, "maintenance", None) if kind == "run-memory" else None,
        changed=changed,
        dry_run=False,
    )

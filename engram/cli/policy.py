"""`engram policy get|set learning|run-memory [FILE]`.

Policies travel as proto3 JSON (field names as in the proto) written as YAML
or JSON; `policy get` prints YAML that `policy set` accepts back.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

import click
import yaml
from google.protobuf import json_format
from google.protobuf.message import Message

from engram.cli.client import (
    EXIT_INVALID,
    Client,
    CliError,
    client_options,
    emit_json,
    new_request_id,
    request_id_option,
    to_dict,
)
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
    ),
}

# Server-managed fields: shown by `get`, ignored when read back by `set`.
READ_ONLY_FIELDS = ("updated_at", "updated_by")


def parse_policy(text: str, policy_type: type[Message], source: str) -> Message:
    """YAML or JSON text -> the policy message; errors exit 2 naming the field."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise CliError(f"{source}: not YAML or JSON: {exc}", EXIT_INVALID) from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise CliError(f"{source}: the policy must be a mapping", EXIT_INVALID)
    if set(data) == {"policy"} and isinstance(data["policy"], dict):
        data = data["policy"]
    for name in READ_ONLY_FIELDS:
        data.pop(name, None)
    try:
        return json_format.ParseDict(data, policy_type())
    except json_format.ParseError as exc:
        raise CliError(f"{source}: {exc}", EXIT_INVALID) from None


def _print_policy(client: Client, policy: Message, extra: Message | None = None) -> None:
    if client.as_json:
        body: dict[str, Any] = {"policy": to_dict(policy)}
        if extra is not None:
            body["maintenance"] = to_dict(extra)
        emit_json(body)
        return
    click.echo(yaml.safe_dump(to_dict(policy), sort_keys=False, allow_unicode=True), nl=False)
    if extra is not None:
        click.echo("# maintenance after the change:")
        for line in yaml.safe_dump(to_dict(extra), sort_keys=False).splitlines():
            click.echo(f"#   {line}")


@click.group("policy")
def policy_group() -> None:
    """Show or replace the learning and run-memory policies (operator role)."""


KIND_ARGUMENT = click.argument("kind", type=click.Choice(sorted(POLICIES)))


@policy_group.command("get")
@KIND_ARGUMENT
@client_options
def policy_get(client: Client, kind: str) -> None:
    """Print the KIND policy as YAML (or JSON with --json)."""
    spec = POLICIES[kind]
    stub = client.stub(spec.stub)
    response = client.call(getattr(stub, spec.get_method), spec.get_request())
    _print_policy(client, response.policy)


@policy_group.command("set")
@KIND_ARGUMENT
@click.argument("file", type=click.File("r", encoding="utf-8"), default="-", required=False)
@request_id_option
@client_options
def policy_set(client: Client, kind: str, file: Any, request_id: str | None) -> None:
    """Replace the KIND policy from FILE (YAML or JSON; "-" or none reads stdin).

    The server validates the whole policy; a rejected field is reported as
    "field: message" and exits 2 with nothing changed.
    """
    spec = POLICIES[kind]
    source = getattr(file, "name", "<stdin>")
    if file is sys.stdin or source == "<stdin>":
        source = "<stdin>"
    policy = parse_policy(file.read(), spec.policy_type, source)
    stub = client.stub(spec.stub)
    request = spec.set_request(policy=policy, request_id=new_request_id(request_id))
    response = client.call(getattr(stub, spec.set_method), request)
    maintenance = (
        response.maintenance if response.DESCRIPTOR.fields_by_name.get("maintenance") else None
    )
    _print_policy(client, response.policy, maintenance)

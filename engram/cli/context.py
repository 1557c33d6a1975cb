"""`engram context show SUBJECT SESSION`: what a session is eligible to receive now."""

from __future__ import annotations

import click

from engram.cli.client import (
    Client,
    client_options,
    console,
    coverage_summary,
    emit_json,
    print_table,
    shorten,
)
from engram.gateway.v1 import gateway_pb2, gateway_pb2_grpc


def _items_table(title: str, items: list[gateway_pb2.EligibleItem]) -> None:
    print_table(
        f"{title}: {len(items)}",
        ("id", "kind", "scope", "score", "text"),
        [(i.id, i.kind, i.scope_key, f"{i.score:.3f}", shorten(i.text, 100)) for i in items],
    )


@click.group("context")
def context_group() -> None:
    """Inspect model-boundary context."""


@context_group.command("show")
@click.argument("subject")
@click.argument("session")
@click.option("--workspace", default="", help='workspace id [default: "default"]')
@click.option("--persona", default="", help="persona bound to the session")
@click.option("--project", "projects", multiple=True, help="linked project id (repeatable)")
@click.option("--input", "pending_input", default="", help="pending input to score against")
@client_options
def context_show(
    client: Client,
    subject: str,
    session: str,
    workspace: str,
    persona: str,
    projects: tuple[str, ...],
    pending_input: str,
) -> None:
    """The learnings, recovered runs and skills SUBJECT's SESSION is eligible to
    receive (GatewayService.GetMemoryContext; writes no receipts)."""
    stub = client.stub(gateway_pb2_grpc.GatewayServiceStub)
    response = client.call(
        stub.GetMemoryContext,
        gateway_pb2.GetMemoryContextRequest(
            subject=subject,
            workspace=workspace,
            session_id=session,
            persona_id=persona,
            project_ids=list(projects),
            pending_input=pending_input,
        ),
    )
    if client.as_json:
        emit_json(response)
        return
    out = console()
    out.print(f"scopes: {', '.join(response.scope_keys) or '(none)'}")
    for title, items, field in (
        ("learned context", response.learned_context, "learned_coverage"),
        ("recovered memory", response.recovered_memory, "recovered_coverage"),
    ):
        _items_table(title, list(items))
        if response.HasField(field):
            out.print(coverage_summary(getattr(response, field), len(items)))
        else:
            out.print(f"{title}: a listing, not a search (no coverage); pass --input to score")
    _items_table("visible skills", list(response.visible_skills))

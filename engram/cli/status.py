"""`engram status` and `engram health`: every service's health, versions,
counts, index freshness and process metrics."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import click
import grpc
from google.protobuf.message import Message
from grpc_health.v1 import health_pb2, health_pb2_grpc
from rich.table import Table

from engram import __version__
from engram.channels import open_channel
from engram.cli.client import (
    EXIT_AUTH,
    EXIT_OK,
    EXIT_UNAVAILABLE,
    Client,
    CliError,
    client_options,
    console,
    decode_rpc_error,
    emit_json,
    enum_name,
    exit_code_for,
    print_table,
    timestamp_text,
    to_dict,
)
from engram.cli.text import count
from engram.journal.v1 import journal_pb2, journal_pb2_grpc
from engram.learning.v1 import learning_pb2, learning_pb2_grpc
from engram.retrieval.v1 import retrieval_pb2, retrieval_pb2_grpc


@dataclass(frozen=True)
class ServiceProbe:
    name: str
    full_name: str
    # The service's own status RPC, if it has one.
    fetch: Callable[[grpc.Channel, float], Message] | None


def _journal_status(channel: grpc.Channel, timeout: float) -> Message:
    stub = journal_pb2_grpc.JournalServiceStub(channel)
    response: Message = stub.GetStatus(journal_pb2.GetStatusRequest(), timeout=timeout)
    return response


def _learning_status(channel: grpc.Channel, timeout: float) -> Message:
    stub = learning_pb2_grpc.LearningServiceStub(channel)
    response: Message = stub.GetLearningStatus(
        learning_pb2.GetLearningStatusRequest(), timeout=timeout
    )
    return response


def _index_status(channel: grpc.Channel, timeout: float) -> Message:
    stub = retrieval_pb2_grpc.RetrievalServiceStub(channel)
    response: Message = stub.GetIndexStatus(retrieval_pb2.GetIndexStatusRequest(), timeout=timeout)
    return response


PROBES = (
    ServiceProbe("journal", "engram.journal.v1.JournalService", _journal_status),
    ServiceProbe("learning", "engram.learning.v1.LearningService", _learning_status),
    ServiceProbe("retrieval", "engram.retrieval.v1.RetrievalService", _index_status),
    ServiceProbe("gateway", "engram.gateway.v1.GatewayService", None),
)

# Health answers beyond the protocol's own statuses.
NOT_SERVED_HERE = "NOT_SERVED_HERE"
UNREACHABLE = "UNREACHABLE"


@dataclass
class ServiceReport:
    probe: ServiceProbe
    address: str
    health: str = ""
    status: Message | None = None
    error: dict[str, Any] = field(default_factory=dict)
    exit_code: int = EXIT_OK

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "service": self.probe.full_name,
            "address": self.address,
            "health": self.health,
        }
        if self.status is not None:
            out["status"] = to_dict(self.status)
        if self.error:
            out["error"] = self.error
        return out


def check_health(channel: grpc.Channel, service: str, timeout: float) -> str:
    """The grpc.health.v1 status name, NOT_SERVED_HERE or UNREACHABLE."""
    stub = health_pb2_grpc.HealthStub(channel)
    try:
        response = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=timeout)
    except grpc.RpcError as error:
        if error.code() is grpc.StatusCode.NOT_FOUND:
            return NOT_SERVED_HERE
        return UNREACHABLE
    name: str = health_pb2.HealthCheckResponse.ServingStatus.Name(response.status)
    return name


def probe_service(probe: ServiceProbe, address: str, token: str, timeout: float) -> ServiceReport:
    report = ServiceReport(probe, address)
    channel = open_channel(address, token)
    try:
        report.health = check_health(channel, probe.full_name, timeout)
        if report.health not in ("SERVING", NOT_SERVED_HERE):
            report.exit_code = EXIT_UNAVAILABLE
        if report.health == "SERVING" and probe.fetch is not None:
            try:
                report.status = probe.fetch(channel, timeout)
            except grpc.RpcError as error:
                failure = decode_rpc_error(error)
                report.error = failure.as_dict()
                report.exit_code = exit_code_for(failure.code)
    finally:
        channel.close()
    return report


def _journal_rows(status: journal_pb2.GetStatusResponse) -> list[tuple[str, Any]]:
    maintenance = status.last_maintenance
    rows: list[tuple[str, Any]] = [
        ("version", status.version),
        ("schema version", status.schema_version),
        ("events", status.events),
        ("episodes", status.episodes),
        ("episodes embedded", status.episodes_embedded),
        ("episodes pending embedding", status.episodes_pending_embedding),
        ("quarantined records", status.quarantined_records),
        ("run records", status.run_records),
        ("feed watermark", status.feed_watermark),
        ("embedding model", status.embedding_model),
    ]
    run = status.run_memory
    rows += [
        ("run memory: stored", run.records_stored),
        ("run memory: pruned", run.records_pruned_total),
        ("run memory: redacted fields", run.redacted_fields_total),
        ("run memory: omitted by prompt limit", run.prompt_limit_omitted_total),
        ("run memory: injected", run.injected_total),
    ]
    if status.HasField("last_maintenance"):
        outcome = "ok" if maintenance.ok else f"FAILED: {maintenance.error}"
        rows.append(
            (
                "last maintenance",
                f"{maintenance.trigger} at {timestamp_text(maintenance.ran_at)}: {outcome} "
                f"(expired {maintenance.expired_removed}, overflow {maintenance.overflow_removed}, "
                f"orphans {maintenance.orphans_removed})",
            )
        )
    return rows


def _learning_rows(status: learning_pb2.GetLearningStatusResponse) -> list[tuple[str, Any]]:
    return [
        ("mode", enum_name(learning_pb2.AutomationMode, status.mode, "AUTOMATION_MODE_")),
        ("candidates pending", status.candidates_pending),
        ("candidates escalated", status.candidates_escalated),
        ("learnings active", status.learnings_active),
        ("learnings provisional", status.learnings_provisional),
        ("skills active", status.skills_active),
        ("capture cursor", status.capture_cursor),
    ]


def index_freshness(status: retrieval_pb2.GetIndexStatusResponse) -> str:
    if not status.ready:
        return "not ready (Recall is served by the fallback)"
    behind = status.journal_watermark - status.applied_cursor
    if behind <= 0:
        return f"fresh (caught up with the journal watermark {status.staleness_seconds:.1f}s ago)"
    return f"behind by {count(behind, 'change')}, {status.staleness_seconds:.1f}s"


def _index_rows(status: retrieval_pb2.GetIndexStatusResponse) -> list[tuple[str, Any]]:
    rows: list[tuple[str, Any]] = [
        ("ready", status.ready),
        ("freshness", index_freshness(status)),
        ("dense index", status.dense_index_type),
        ("episodes", status.episodes),
        ("tombstones", status.tombstones),
        # One meaning of "snapshot version" everywhere: the change-feed
        # cursor the snapshot reflects (GetIndexStatus's applied_cursor).
        ("snapshot version (feed cursor)", status.snapshot_version),
        ("journal watermark", status.journal_watermark),
        ("staleness seconds", f"{status.staleness_seconds:.3f}"),
        ("resident bytes", status.resident_bytes),
        ("fallbacks", status.fallbacks_total),
        ("embedding model", status.embedding_model),
        ("shadow mode", status.shadow_mode),
    ]
    if status.shadow_mode:
        shadow = status.shadow
        rows.append(
            (
                "shadow telemetry",
                f"{shadow.comparisons} comparisons, overlap@k {shadow.mean_overlap_at_k:.3f}, "
                f"top-1 agreement {shadow.top1_agreement:.3f}",
            )
        )
    rebuild = status.rebuild
    if rebuild.running or rebuild.last_error:
        state = "running" if rebuild.running else "idle"
        rows.append(("rebuild", f"{state} {rebuild.done}/{rebuild.total} {rebuild.last_error}"))
    return rows


def _detail_rows(report: ServiceReport) -> list[tuple[str, Any]]:
    status = report.status
    if isinstance(status, journal_pb2.GetStatusResponse):
        return _journal_rows(status)
    if isinstance(status, learning_pb2.GetLearningStatusResponse):
        return _learning_rows(status)
    if isinstance(status, retrieval_pb2.GetIndexStatusResponse):
        return _index_rows(status)
    return []


def _metrics(report: ServiceReport) -> dict[str, int]:
    metrics = getattr(report.status, "metrics", None)
    return dict(metrics) if metrics is not None else {}


AUTH_HINT = "pass an operator token with --token or ENGRAM_TOKEN"


def status_cell(report: ServiceReport) -> str:
    """What became of the service's status call, beside its health."""
    if report.error:
        return str(report.error.get("code", "failed"))
    if report.status is not None:
        return "read"
    if report.probe.fetch is None:
        return "(none to read)"
    return "not read"


def _note(report: ServiceReport) -> str:
    status = report.status
    if report.error:
        return str(report.error.get("message", ""))
    if report.health == NOT_SERVED_HERE:
        return "not served at this address"
    if report.health == UNREACHABLE:
        return "nothing answers at this address"
    if isinstance(status, retrieval_pb2.GetIndexStatusResponse) and not status.ready:
        return f"index not ready {status.rebuild.last_error}".strip()
    return ""


def _print_reports(reports: list[ServiceReport]) -> None:
    overview = Table(title=f"engram {__version__} (client)", title_justify="left")
    for column in ("service", "address", "health", "status"):
        overview.add_column(column, no_wrap=True)  # names and codes are never folded
    overview.add_column("note", overflow="fold")
    for r in reports:
        overview.add_row(r.probe.name, r.address, r.health, status_cell(r), _note(r))
    console().print(overview)
    for report in reports:
        details = _detail_rows(report)
        if details:
            print_table(report.probe.name, ("field", "value"), details)
        metrics = _metrics(report)
        if metrics:
            print_table(
                f"{report.probe.name} metrics",
                ("metric", "value"),
                sorted(metrics.items()),
            )


def outcome_error(reports: list[ServiceReport], address: str) -> CliError | None:
    """The error `status` ends with: unhealthy services first (exit 5), then
    status calls that failed on healthy ones (their own code), else None."""
    unhealthy = [r for r in reports if r.health not in ("SERVING", NOT_SERVED_HERE)]
    if unhealthy:
        names = ", ".join(f"{r.probe.name} ({r.health})" for r in unhealthy)
        return CliError(f"not healthy: {names}", EXIT_UNAVAILABLE)
    unread = [r for r in reports if r.error]
    if unread:
        first = unread[0]
        names = ", ".join(r.probe.name for r in unread)
        text = f"{first.error.get('code')}: {first.error.get('message')}"
        hint = f"; {AUTH_HINT}" if first.exit_code == EXIT_AUTH else ""
        return CliError(
            f"the status of {names} could not be read ({text}){hint}; their health is SERVING",
            first.exit_code,
        )
    if all(r.health == NOT_SERVED_HERE for r in reports):
        return CliError(f"no engram service is served at {address}", EXIT_UNAVAILABLE)
    return None


def _address_options(fn: Any) -> Any:
    for probe in reversed(PROBES):
        fn = click.option(
            f"--{probe.name}-address",
            default=None,
            help=f"where {probe.full_name} runs, when split [default: --address]",
        )(fn)
    return fn


@click.command("status")
@client_options
@_address_options
def status_command(client: Client, **addresses: str | None) -> None:
    """Health, versions, counts, index freshness and metrics of every service.

    Exits 0 when every service found is SERVING and its status was read, 5
    when one is not SERVING (or the address cannot be reached), else the
    code of a failed status call (6 without a token that may read it).
    """
    reports = [
        probe_service(
            probe,
            addresses.get(f"{probe.name}_address") or client.address,
            client.token,
            client.timeout,
        )
        for probe in PROBES
    ]
    if client.as_json:
        emit_json(
            {
                "client_version": __version__,
                "services": {r.probe.name: r.as_dict() for r in reports},
            }
        )
    else:
        _print_reports(reports)
    error = outcome_error(reports, client.address)
    if error is not None:
        raise error


@click.command("health")
@click.option(
    "--address",
    envvar="ENGRAM_ADDRESS",
    default="127.0.0.1:50051",
    show_default=True,
    help="engram server host:port [env ENGRAM_ADDRESS]",
)
@click.option(
    "--service",
    default="",
    help="full service name, e.g. engram.journal.v1.JournalService [default: the server]",
)
@click.option("--timeout", type=float, default=5.0, show_default=True)
def health_command(address: str, service: str, timeout: float) -> None:
    """grpc.health.v1 check (no token needed): exits 0 when SERVING, else 5."""
    channel = open_channel(address)
    try:
        state = check_health(channel, service, timeout)
    finally:
        channel.close()
    console().print(f"{service or address}: {state}")
    if state != "SERVING":
        raise CliError(f"{service or address} is {state}", EXIT_UNAVAILABLE)

"""Client plumbing shared by the operator commands: connection options, the
gRPC status -> exit code table, and output (rich tables for people, JSON
for scripts).

Every invocation sends one call id (x-request-id metadata) with each of its
calls, the id the servers log on every line of those calls; an error names it
(`request id: ...`, or "request_id" in --json output) so an operator can find
the server's side of it.

Exit codes (stable; scripts may rely on them):
  0  ok
  1  an unexpected crash (a bug: Python's own exit code, with a traceback)
  2  usage error (bad flags or arguments) or invalid argument / validation
     (INVALID_ARGUMENT, OUT_OF_RANGE, a bad or unreadable input file)
  3  not found (NOT_FOUND)
  4  failed precondition or conflict (FAILED_PRECONDITION, ABORTED, ALREADY_EXISTS)
  5  unavailable (UNAVAILABLE, DEADLINE_EXCEEDED, a service not SERVING)
  6  authentication or permission (UNAUTHENTICATED, PERMISSION_DENIED)
  7  any other error
"""

from __future__ import annotations

import functools
import json
import sys
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC
from typing import Any, TypeVar

import click
import grpc
from google.protobuf import json_format
from google.protobuf.message import Message
from rich.console import Console
from rich.table import Table

from engram.channels import REQUEST_ID_HEADER, open_channel
from engram.channels import new_request_id as new_call_id
from engram.common.v1 import common_pb2
from engram.downstream import error_details
from engram.logs import request_id_var

EXIT_OK = 0
EXIT_USAGE = 2  # click's (and POSIX utilities') usage code; the same as invalid input
EXIT_INVALID = 2
EXIT_NOT_FOUND = 3
EXIT_PRECONDITION = 4
EXIT_UNAVAILABLE = 5
EXIT_AUTH = 6
EXIT_OTHER = 7

STATUS_EXIT_CODES: dict[grpc.StatusCode, int] = {
    grpc.StatusCode.OK: EXIT_OK,
    grpc.StatusCode.INVALID_ARGUMENT: EXIT_INVALID,
    grpc.StatusCode.OUT_OF_RANGE: EXIT_INVALID,
    grpc.StatusCode.NOT_FOUND: EXIT_NOT_FOUND,
    grpc.StatusCode.FAILED_PRECONDITION: EXIT_PRECONDITION,
    grpc.StatusCode.ABORTED: EXIT_PRECONDITION,
    grpc.StatusCode.ALREADY_EXISTS: EXIT_PRECONDITION,
    grpc.StatusCode.UNAVAILABLE: EXIT_UNAVAILABLE,
    grpc.StatusCode.DEADLINE_EXCEEDED: EXIT_UNAVAILABLE,
    grpc.StatusCode.UNAUTHENTICATED: EXIT_AUTH,
    grpc.StatusCode.PERMISSION_DENIED: EXIT_AUTH,
}

DEFAULT_ADDRESS = "127.0.0.1:50051"
DEFAULT_TIMEOUT_SECONDS = 30.0

F = TypeVar("F", bound=Callable[..., Any])


def exit_code_for(code: grpc.StatusCode) -> int:
    return STATUS_EXIT_CODES.get(code, EXIT_OTHER)


class CliError(click.ClickException):
    """An error with a documented exit code; printed as `error: ...`."""

    def __init__(
        self, message: str, exit_code: int = EXIT_OTHER, payload: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        setattr(self, "exit_code", exit_code)  # noqa: B010 (a class attribute in click's stubs)
        self.payload = dict(payload or {})
        self.as_json = False
        # The call id of the invocation that failed (set by client_options).
        self.request_id = str(self.payload.get("request_id", ""))

    def show(self, file: Any = None) -> None:
        if self.as_json:
            body = self.payload or {"message": self.format_message()}
            if self.request_id:
                body = {**body, "request_id": self.request_id}
            click.echo(json.dumps({"error": body}, ensure_ascii=False), err=True)
        else:
            click.echo(f"error: {self.format_message()}", err=True)
            if self.request_id:
                click.echo(f"  request id: {self.request_id}", err=True)


class EngramGroup(click.Group):
    """The root command group: usage errors exit EXIT_USAGE."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.UsageError as exc:
            _as_usage_exit(exc)
            raise

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            _as_usage_exit(exc)
            raise


def _as_usage_exit(exc: click.UsageError) -> None:
    setattr(exc, "exit_code", EXIT_USAGE)  # noqa: B010 (a class attribute in click's stubs)


# ----------------------------------------------------------------- connection


@dataclass
class Client:
    """Connection settings of one command invocation."""

    address: str
    token: str = ""
    as_json: bool = False
    timeout: float = DEFAULT_TIMEOUT_SECONDS
    # Sent as x-request-id with every call of this invocation.
    call_id: str = field(default_factory=new_call_id)
    _channel: grpc.Channel | None = field(default=None, repr=False)

    @property
    def channel(self) -> grpc.Channel:
        if self._channel is None:
            self._channel = open_channel(self.address, self.token)
        return self._channel

    def stub(self, stub_class: Callable[[grpc.Channel], Any]) -> Any:
        return stub_class(self.channel)

    def close(self) -> None:
        if self._channel is not None:
            self._channel.close()
            self._channel = None

    def call(self, method: Callable[..., Any], request: Message, **kwargs: Any) -> Any:
        """A unary call with the default deadline; errors become CliError."""
        with rpc_errors():
            return method(request, timeout=kwargs.pop("timeout", self.timeout), **kwargs)


def client_options(fn: F) -> F:
    """--address, --token, --json and --timeout for a command; the command
    receives `client: Client`. gRPC errors anywhere in it map to exit codes."""

    def wrapper(address: str, token: str, as_json: bool, timeout: float, **kwargs: Any) -> Any:
        client = Client(address=address, token=token, as_json=as_json, timeout=timeout)
        bound = request_id_var.set(client.call_id)
        try:
            with rpc_errors():
                return fn(client=client, **kwargs)
        except CliError as exc:
            exc.as_json = as_json
            exc.request_id = exc.request_id or client.call_id
            raise
        finally:
            request_id_var.reset(bound)
            client.close()

    functools.update_wrapper(wrapper, fn)
    wrapper.__click_params__ = list(getattr(fn, "__click_params__", []))  # type: ignore[attr-defined]
    decorated: Any = wrapper
    for option in reversed(
        (
            click.option(
                "--address",
                envvar="ENGRAM_ADDRESS",
                default=DEFAULT_ADDRESS,
                show_default=True,
                help="engram server host:port [env ENGRAM_ADDRESS]",
            ),
            click.option(
                "--token", envvar="ENGRAM_TOKEN", default="", help="bearer token [env ENGRAM_TOKEN]"
            ),
            click.option("--json", "as_json", is_flag=True, help="machine-readable JSON output"),
            click.option(
                "--timeout",
                type=float,
                default=DEFAULT_TIMEOUT_SECONDS,
                show_default=True,
                help="per-call deadline in seconds",
            ),
        )
    ):
        decorated = option(decorated)
    return decorated  # type: ignore[no-any-return]


def new_request_id(given: str | None) -> str:
    return given or str(uuid.uuid4())


def request_id_option(fn: F) -> F:
    return click.option(
        "--request-id",
        default=None,
        help="idempotency key (a UUID); reuse it to retry safely [default: a new one]",
    )(fn)


# --------------------------------------------------------------------- errors


@dataclass(frozen=True)
class RpcFailure:
    code: grpc.StatusCode
    message: str
    reason: str = ""
    field_name: str = ""
    transition: common_pb2.IllegalTransition | None = None
    conflict: common_pb2.ConflictDetail | None = None
    request_id: str = ""

    def describe(self) -> str:
        message = self.message
        if self.field_name and not message.startswith(f"{self.field_name}:"):
            message = f"{self.field_name}: {message}"
        text = f"{self.code.name}: {message}"
        if self.transition is not None:
            t = self.transition
            allowed = ", ".join(t.allowed_states) or "none"
            text += (
                f"\n  {t.entity} {t.entity_id} is {t.current_state}; cannot move to "
                f"{t.requested_state} (allowed: {allowed})"
            )
        if self.conflict is not None:
            c = self.conflict
            text += f"\n  conflicts with {c.existing_id} ({c.subject_key}): {c.resolution}"
        return text

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code.name, "message": self.message}
        if self.reason:
            out["reason"] = self.reason
        if self.field_name:
            out["field"] = self.field_name
        if self.transition is not None:
            out["illegal_transition"] = to_dict(self.transition)
        if self.conflict is not None:
            out["conflict"] = to_dict(self.conflict)
        if self.request_id:
            out["request_id"] = self.request_id
        return out


def decode_rpc_error(error: grpc.RpcError) -> RpcFailure:
    """Status code, message, the typed details engram attaches and the call id
    (the server's echo in the trailers or the ErrorInfo, else the one sent)."""
    code = error.code() if hasattr(error, "code") else grpc.StatusCode.UNKNOWN
    message = error.details() if hasattr(error, "details") else str(error)
    trailers: Any = error.trailing_metadata() if hasattr(error, "trailing_metadata") else None
    request_id = next(
        (str(v) for k, v in (trailers or ()) if k == REQUEST_ID_HEADER), request_id_var.get()
    )
    details = error_details(error)
    request_id = details.metadata.get("request_id", "") or request_id
    return RpcFailure(
        code,
        message or "",
        details.reason,
        details.metadata.get("field", ""),
        details.transition,
        details.conflict,
        request_id,
    )


def failure_error(failure: RpcFailure) -> CliError:
    return CliError(failure.describe(), exit_code_for(failure.code), failure.as_dict())


@contextmanager
def rpc_errors() -> Iterator[None]:
    """Turn a grpc.RpcError into a CliError with the mapped exit code."""
    try:
        yield
    except grpc.RpcError as error:
        raise failure_error(decode_rpc_error(error)) from None


# --------------------------------------------------------------------- output


def console() -> Console:
    # Created per call so it writes to the current sys.stdout (tests swap it).
    return Console(file=sys.stdout, soft_wrap=False)


def to_dict(message: Message) -> dict[str, Any]:
    return json_format.MessageToDict(
        message,
        preserving_proto_field_name=True,
        always_print_fields_with_no_presence=True,
    )


def emit_json(value: Any) -> None:
    if isinstance(value, Message):
        value = to_dict(value)
    click.echo(json.dumps(value, indent=2, ensure_ascii=False, default=str))


def table(title: str | None, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> Table:
    out = Table(title=title, title_justify="left", show_lines=False)
    for column in columns:
        out.add_column(column, overflow="fold")
    for row in rows:
        out.add_row(*("" if cell is None else str(cell) for cell in row))
    return out


def print_table(title: str | None, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    console().print(table(title, columns, rows))


def print_fields(title: str | None, pairs: Sequence[tuple[str, Any]]) -> None:
    print_table(title, ("field", "value"), [(k, v) for k, v in pairs])


def enum_name(enum_type: Any, value: int, prefix: str = "") -> str:
    """The short lowercase name of an enum value: ("LEARNING_KIND_FACT") -> "fact"."""
    name: str = enum_type.Name(value)
    if prefix and name.startswith(prefix):
        name = name[len(prefix) :]
    return name.lower()


def enum_value(enum_type: Any, prefix: str, name: str) -> Any:
    """The enum value for a short name ("fact" -> LEARNING_KIND_FACT)."""
    return enum_type.Value(f"{prefix}{name.upper().replace('-', '_')}")


def enum_choices(enum_type: Any, prefix: str) -> list[str]:
    return [
        name[len(prefix) :].lower().replace("_", "-")
        for name in enum_type.keys()  # noqa: SIM118 (an EnumTypeWrapper, not a dict)
        if not name.endswith("_UNSPECIFIED")
    ]


def timestamp_text(ts: Any) -> str:
    """A Timestamp as "2026-12-01 16:49:24 UTC" (always with its zone)."""
    if ts is None or (ts.seconds == 0 and ts.nanos == 0):
        return ""
    text: str = ts.ToDatetime(tzinfo=UTC).strftime("%Y-%m-%d %H:%M:%S %Z")
    return text


def coverage_summary(coverage: common_pb2.Coverage, hits: int) -> str:
    """One line about what a read searched, with the seal checked here."""
    from engram.coverage import CoverageContractError, derive_absence, describe, validate

    try:
        validate(coverage)
        seal = "seal valid"
    except CoverageContractError as exc:
        seal = f"SEAL INVALID ({exc})"
    state = common_pb2.AbsenceState.Name(derive_absence(coverage, hits))
    return f"{describe(coverage, hits)}; absence {state}; {seal}"


def shorten(text: str, width: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"

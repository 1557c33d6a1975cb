"""The one client layer for calls from one service to another.

Every call from the gateway to the three planes, and from the learning and
retrieval planes to the journal, goes through a :class:`ServiceClient`:

* the deadline comes from configuration (Settings.downstream_timeout_ms);
* the channel (engram.channels) carries the token and gRPC's retry policy;
* the caller's call id (x-request-id, bound by the server interceptor) goes
  along, so every service the call reaches logs it on every line;
  :class:`ContextThreadPool` carries it onto the threads a call fans out to;
* a failure becomes a :class:`DownstreamError` that is also the domain
  exception its status code stands for: the inverse of the one table in
  engram.interceptors (``exception_for``). So ``except Unavailable`` catches a
  service that could not be reached (or gave no answer in time), an
  InvalidArgument keeps the field the other service named, and a handler that
  lets the error through answers its own caller with the same code.

The change feed has one reader, :class:`ChangeStream` (StreamChanges), that
another thread can cancel.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from engram import errors
from engram.channels import REQUEST_ID_HEADER, current_request_id, open_channel
from engram.common.v1 import common_pb2
from engram.config import Settings
from engram.interceptors import exception_for
from engram.journal.v1 import journal_pb2 as jpb
from engram.journal.v1 import journal_pb2_grpc as jpb_grpc

R = TypeVar("R")
T = TypeVar("T")
M = TypeVar("M")


class DownstreamError(errors.EngramError):
    """A failed call to another service. Every instance is also an instance of
    the domain exception its status code stands for (see the module doc)."""

    service: str
    method: str
    code: str
    request_id: str

    @property
    def unreachable(self) -> bool:
        """True when the service could not be reached or gave no answer in time."""
        return isinstance(self, errors.Unavailable)

    def __str__(self) -> str:
        return f"{self.service}.{self.method}: {self.code} {self.message}".strip()


_ERROR_CLASSES: dict[type[errors.EngramError], type[DownstreamError]] = {}
_ERROR_CLASSES_LOCK = threading.Lock()


def _error_class(domain: type[errors.EngramError]) -> type[DownstreamError]:
    """DownstreamError combined with one domain class (made once per class)."""
    with _ERROR_CLASSES_LOCK:
        found = _ERROR_CLASSES.get(domain)
        if found is None:
            found = cast(
                type[DownstreamError],
                type(f"Downstream{domain.__name__}", (DownstreamError, domain), {}),
            )
            _ERROR_CLASSES[domain] = found
        return found


@dataclass(frozen=True)
class Details:
    """What another engram service attaches to an error (engram.interceptors)."""

    reason: str = ""
    metadata: Mapping[str, str] = field(default_factory=dict)
    transition: common_pb2.IllegalTransition | None = None
    conflict: common_pb2.ConflictDetail | None = None


def downstream_error(
    service: str,
    method: str,
    code: grpc.StatusCode,
    message: str,
    *,
    request_id: str = "",
    details: Details | None = None,
) -> DownstreamError:
    """The error for a call to ``service.method`` that ended with ``code``;
    a typed IllegalTransition detail makes it the IllegalTransition it was."""
    details = details or Details()
    domain = exception_for(code)
    if details.transition is not None and issubclass(errors.IllegalTransition, domain):
        domain = errors.IllegalTransition
    error_class = _error_class(domain)
    error = error_class.__new__(error_class)
    domain_view: Any = error  # initialised as the domain class it also is
    fields = {k: v for k, v in details.metadata.items() if k != "request_id"}
    reason = details.reason or None
    if issubclass(domain, errors.InvalidArgument):
        field_name = fields.pop("field", "") or "request"
        description = message.removeprefix(f"{field_name}: ")
        errors.InvalidArgument.__init__(
            domain_view, field_name, description, reason=reason, metadata=fields
        )
    elif issubclass(domain, errors.IllegalTransition) and details.transition is not None:
        t = details.transition
        detail = errors.TransitionDetail(
            t.entity, t.entity_id, t.current_state, t.requested_state, tuple(t.allowed_states)
        )
        errors.IllegalTransition.__init__(domain_view, detail, message, reason=reason)
    elif issubclass(domain, errors.Conflict):
        c = details.conflict or common_pb2.ConflictDetail(existing_id=fields.get("existing_id", ""))
        info = errors.ConflictInfo(c.existing_id, c.subject_key, c.resolution)
        errors.Conflict.__init__(domain_view, info, message)
    else:
        errors.EngramError.__init__(error, message, reason=reason, metadata=fields)
    error.service, error.method, error.code = service, method, code.name
    error.request_id = request_id
    return error


def error_details(error: grpc.RpcError) -> Details:
    """The ErrorInfo, IllegalTransition and ConflictDetail of a failed call."""
    try:
        status = rpc_status.from_call(error)  # type: ignore[arg-type]
    except (ValueError, AttributeError):
        return Details()
    if status is None:
        return Details()
    info: error_details_pb2.ErrorInfo | None = None
    transition = conflict = None
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR) and info is None:
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
        elif detail.Is(common_pb2.IllegalTransition.DESCRIPTOR):
            transition = common_pb2.IllegalTransition()
            detail.Unpack(transition)
        elif detail.Is(common_pb2.ConflictDetail.DESCRIPTOR):
            conflict = common_pb2.ConflictDetail()
            detail.Unpack(conflict)
    return Details(
        reason=info.reason if info is not None else "",
        metadata=dict(info.metadata) if info is not None else {},
        transition=transition,
        conflict=conflict,
    )


def translate(error: grpc.RpcError, service: str, method: str, request_id: str) -> DownstreamError:
    """A gRPC failure of ``service.method`` as a :class:`DownstreamError`."""
    code = error.code() if callable(getattr(error, "code", None)) else None
    message = error.details() if callable(getattr(error, "details", None)) else None
    return downstream_error(
        service,
        method,
        code if isinstance(code, grpc.StatusCode) else grpc.StatusCode.UNKNOWN,
        str(message or ""),
        request_id=request_id,
        details=error_details(error),
    )


def deadline_seconds(settings: Settings) -> float:
    """The deadline of one call to another service."""
    return max(0.001, settings.downstream_timeout_ms / 1000.0)


class ServiceClient:
    """One service's stub: each call under the configured deadline, with the
    caller's call id, failures as :class:`DownstreamError`."""

    def __init__(
        self,
        service: str,
        channel: grpc.Channel,
        stub_class: Callable[[grpc.Channel], Any],
        timeout_s: float,
        *,
        owns_channel: bool = False,
    ) -> None:
        self.service = service
        self.timeout_s = timeout_s
        self._channel = channel
        self._stub = stub_class(channel)
        self._owns_channel = owns_channel

    @classmethod
    def connect(
        cls,
        service: str,
        address: str,
        token: str,
        stub_class: Callable[[grpc.Channel], Any],
        timeout_s: float,
    ) -> ServiceClient:
        channel = open_channel(address, token, setting=f"{service}_addr")
        return cls(service, channel, stub_class, timeout_s, owns_channel=True)

    def close(self) -> None:
        if self._owns_channel:
            self._channel.close()

    def call(
        self,
        method: str,
        request: Any,
        response_type: type[R],
        *,
        timeout_s: float | None = None,
    ) -> R:
        """``method(request)``; the answer must be a ``response_type``."""
        request_id = current_request_id()
        try:
            response = getattr(self._stub, method)(
                request,
                timeout=self.timeout_s if timeout_s is None else timeout_s,
                metadata=((REQUEST_ID_HEADER, request_id),),
            )
        except grpc.RpcError as error:
            raise translate(error, self.service, method, request_id) from None
        if not isinstance(response, response_type):
            raise downstream_error(
                self.service,
                method,
                grpc.StatusCode.INTERNAL,
                f"unexpected response type {type(response).__name__}",
                request_id=request_id,
            )
        return response

    def stream(
        self, method: str, request: Any, message_type: type[M], *, timeout_s: float | None = None
    ) -> Stream[M]:
        """A server-streaming ``method(request)`` of ``message_type`` messages;
        no deadline unless given (a followed stream stays open)."""
        request_id = current_request_id()
        call = getattr(self._stub, method)(
            request, timeout=timeout_s, metadata=((REQUEST_ID_HEADER, request_id),)
        )
        return Stream(call, self.service, method, request_id)


class Stream(Generic[M]):
    """A server-streaming call that another thread can cancel; failures while
    reading become :class:`DownstreamError`."""

    def __init__(self, call: Any, service: str, method: str, request_id: str) -> None:
        self._call = call
        self._where = (service, method, request_id)

    def __iter__(self) -> Iterator[M]:
        try:
            yield from self._call
        except grpc.RpcError as error:
            raise translate(error, *self._where) from None

    def cancel(self) -> None:
        self._call.cancel()


# JournalService.StreamChanges: batches of changes in commit order, each with
# the journal's watermark.
ChangeStream = Stream[jpb.StreamChangesResponse]


def journal_client(address: str, token: str, timeout_s: float) -> ServiceClient:
    return ServiceClient.connect("journal", address, token, jpb_grpc.JournalServiceStub, timeout_s)


def change_stream(
    journal: ServiceClient,
    after_cursor: int,
    *,
    follow: bool,
    kinds: Iterable[int] = (),
    include_embeddings: bool = False,
    timeout_s: float | None = None,
) -> ChangeStream:
    """The journal's change feed after ``after_cursor`` (the one reader of it).
    ``follow`` keeps the stream open past the watermark; otherwise it ends
    there. ``kinds`` filters (empty: every kind)."""
    return journal.stream(
        "StreamChanges",
        jpb.StreamChangesRequest(
            after_cursor=after_cursor,
            follow=follow,
            kinds=cast(Any, list(kinds)),
            include_embeddings=include_embeddings,
        ),
        jpb.StreamChangesResponse,
        timeout_s=timeout_s,
    )


class ContextThreadPool(ThreadPoolExecutor):
    """A thread pool whose tasks run in the submitter's context (call id,
    method, principal), so fanned-out work logs and forwards the caller's id."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        context = contextvars.copy_context()
        return super().submit(context.run, fn, *args, **kwargs)

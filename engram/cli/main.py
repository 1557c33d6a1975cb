"""`engram`: serve the suite, migrate the database, operate a running deployment."""

from __future__ import annotations

import os
import sys

# One BLAS thread per process: the embedder's matrix products otherwise
# oversubscribe the cores that gRPC handlers and PostgreSQL need, and slow
# down sharply under load. Must be set before numpy is imported.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
# gRPC's C core prints its own plain-text lines to stderr (a failed bind, for
# one), which would break `serve`'s JSON-only stderr; the errors they describe
# reach engram as exceptions and are reported from there. Read when grpc is
# first imported: set GRPC_VERBOSITY to see them.
os.environ.setdefault("GRPC_VERBOSITY", "NONE")
from typing import Any

import click

from engram import __version__
from engram.cli.client import EngramGroup
from engram.cli.commands import register
from engram.config import SERVICES, Settings
from engram.console.cli import console_command, console_options
from engram.errors import EngramError, FailedPrecondition, Unavailable

# Flags of `serve`; each maps to a Settings field and falls back to its
# ENGRAM_* environment variable. Values are parsed by Settings, as the
# environment's are, so a bad one is refused the same way (one line naming
# the setting, exit 2).
_SERVE_FLAGS = (
    ("--listen", "listen"),
    ("--database-url", "database_url"),
    ("--read-database-url", "read_database_url"),
    ("--data-dir", "data_dir"),
    ("--journal-addr", "journal_addr"),
    ("--learning-addr", "learning_addr"),
    ("--retrieval-addr", "retrieval_addr"),
    ("--tokens-file", "tokens_file"),
    ("--embedder", "embedder"),
    ("--metrics-port", "metrics_port"),
    ("--log-level", "log_level"),
    ("--grace-seconds", "grace_seconds"),
    ("--index-staleness-seconds", "index_staleness_seconds"),
    ("--serve-workspaces", "serve_workspaces"),
    ("--retrieval-route", "retrieval_route"),
    ("--extractor-addr", "extractor_addr"),
    ("--processes", "processes"),
)


def _settings_options(fn: Any) -> Any:
    for flag, name in reversed(_SERVE_FLAGS):
        setting = Settings.__dataclass_fields__[name]
        help_text = setting.metadata.get("help", "")
        fn = click.option(
            flag,
            name,
            metavar=str(setting.type).upper(),
            default=None,
            help=f"{help_text} [env ENGRAM_{name.upper()}]",
        )(fn)
    return fn


@click.group(cls=EngramGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="engram")
def cli() -> None:
    """engram: governed, honest memory for LLM agents."""


@cli.command()
@click.argument("service", required=False, type=click.Choice(SERVICES))
@_settings_options
@click.option(
    "--console-listen",
    default=None,
    help="also serve the operator console on this host:port (docs/console.md)",
)
@console_options("console-")
def serve(
    service: str | None,
    console_listen: str | None,
    tls_cert: str,
    tls_key: str,
    public_origin: str,
    **flags: Any,
) -> None:
    """Serve all four services in one process (default), or one SERVICE.

    With no database URL the embedded PostgreSQL (with pgvector) is started in
    --data-dir and stopped on exit. Bad settings, an address in use and an
    unreachable database are refused before anything starts (exit codes in
    docs/operators.md).
    """
    from engram.cli.serving import run_serve

    console = None
    if console_listen:
        from engram.console.cli import console_for_serve
        from engram.logs import configure_logging

        settings = Settings.load(flags)
        # The console starts first: its address goes to the log stream serve will use.
        configure_logging(settings.log_level, json_format=settings.log_json)
        console = console_for_serve(
            console_listen, settings.listen, tls_cert, tls_key, public_origin
        )
    try:
        run_serve(service, flags)
    finally:
        if console is not None:
            console.stop()


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
    import psycopg

    from engram.cli.text import count as plural
    from engram.db.embedded import start_embedded
    from engram.db.health import check_reachable
    from engram.db.migrations import MigrationError
    from engram.logs import describe
    from engram.server import DATABASE_SERVICES, migrate

    settings = Settings.load({"database_url": database_url, "data_dir": data_dir}).validate()
    embedded = None
    url = settings.database_url
    if url:
        check_reachable(url)
    else:
        embedded = start_embedded(settings.data_path)
        url = embedded.url
    try:
        applied = migrate(url, list(services or DATABASE_SERVICES))
    except MigrationError as exc:
        raise FailedPrecondition(str(exc), reason="MIGRATION_CHANGED") from None
    except psycopg.OperationalError as exc:
        raise Unavailable(f"database unreachable: {describe(exc)}") from None
    finally:
        if embedded is not None:
            embedded.stop()
    for name, count in applied.items():
        click.echo(f"{name}: {plural(count, 'migration')} applied")


register(cli)
cli.add_command(console_command)


def exit_code_for_error(exc: EngramError) -> int:
    """The exit code of a domain error: its gRPC status's (one table for both)."""
    from engram.cli.client import exit_code_for
    from engram.interceptors import status_for

    return exit_code_for(status_for(exc)[0])


def main() -> None:
    from engram.cli.serving import EXIT_TERMINATED, Terminated

    try:
        cli(standalone_mode=False)
    except click.exceptions.Abort:
        sys.exit(130)
    except Terminated:
        sys.exit(EXIT_TERMINATED)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except EngramError as exc:
        click.echo(f"error: {exc.message}", err=True)
        sys.exit(exit_code_for_error(exc))


if __name__ == "__main__":
    main()

"""`engram index rebuild`: rebuild the resident index with live progress."""

from __future__ import annotations

import click
from rich.progress import (
    BarColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
)

from engram.cli.client import (
    EXIT_OTHER,
    Client,
    CliError,
    client_options,
    console,
    emit_json,
    new_request_id,
    request_id_option,
    to_dict,
)
from engram.cli.text import count
from engram.retrieval.v1 import retrieval_pb2, retrieval_pb2_grpc


@click.group("index")
def index_group() -> None:
    """The retrieval service's resident index."""


@index_group.command("rebuild")
@request_id_option
@client_options
def index_rebuild(client: Client, request_id: str | None) -> None:
    """Build a new index off to the side and publish it atomically, showing
    the progress the server streams: the share of the change feed replayed
    and the episodes indexed so far. Ends with the published snapshot's
    version (the change-feed cursor it reflects, as in `engram status`) and
    its episode count. Exits 4 when a rebuild is already running."""
    stub = client.stub(retrieval_pb2_grpc.RetrievalServiceStub)
    # A rebuild may take long: no deadline beyond the server's own.
    stream = stub.RebuildIndex(
        retrieval_pb2.RebuildIndexRequest(request_id=new_request_id(request_id))
    )
    last: retrieval_pb2.RebuildIndexResponse | None = None
    if client.as_json:
        for message in stream:
            last = message
        emit_json(to_dict(last) if last is not None else {})
        _check_published(last)
        return
    # The bar is the fraction of the change feed replayed (done and total
    # are feed cursors, not counts); the count beside it is episodes.
    columns = (
        TextColumn("rebuilding index: replaying the change feed"),
        BarColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[episodes]}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console(), transient=False) as progress:
        task = progress.add_task("rebuild", total=None, episodes=count(0, "episode"))
        for message in stream:
            last = message
            total = message.progress.total or None
            progress.update(
                task,
                completed=message.progress.done,
                total=total,
                episodes=count(message.progress.episodes, "episode"),
            )
    _check_published(last)
    assert last is not None
    console().print(
        f"published snapshot version {last.snapshot_version} (the change-feed cursor it "
        f"reflects) with {count(last.progress.episodes, 'episode')}"
    )


def _check_published(last: retrieval_pb2.RebuildIndexResponse | None) -> None:
    if last is None or not last.published:
        error = last.progress.last_error if last is not None else "no progress received"
        raise CliError(f"the rebuild ended without publishing: {error}", EXIT_OTHER)

"""Workspace partitions: the settings that declare them, and the feed ingest
filter that keeps other workspaces out of a replica's resident index."""

from __future__ import annotations

import uuid

import pytest

from engram.config import Settings
from engram.errors import InvalidArgument
from engram.journal.v1 import journal_pb2 as jpb
from retrieval_service.changes import ops_from_changes
from retrieval_service.records import Interner, Remove, Upsert


def _settings(**values: object) -> Settings:
    return Settings.load(values, env={})


def test_served_workspaces_and_routes_parse() -> None:
    settings = _settings(serve_workspaces=" red, blue,,", retrieval_route="red=h1:1, blue=h2:2")
    assert settings.validate().served_workspaces() == frozenset({"red", "blue"})
    assert settings.retrieval_routes() == {"red": "h1:1", "blue": "h2:2"}
    assert _settings().served_workspaces() == frozenset()
    assert _settings().retrieval_routes() == {}


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"retrieval_route": "red"}, "retrieval_route"),
        ({"retrieval_route": "red=host"}, "retrieval_route"),
        ({"retrieval_route": "=host:1"}, "retrieval_route"),
        ({"retrieval_route": "réd team=host:1"}, "retrieval_route"),
        ({"serve_workspaces": "red,bl ue"}, "serve_workspaces"),
        ({"index_floor_wait_seconds": -1}, "index_floor_wait_seconds"),
    ],
)
def test_bad_partition_settings_are_refused_naming_the_setting(
    values: dict[str, object], field: str
) -> None:
    with pytest.raises(InvalidArgument) as raised:
        _settings(**values).validate()
    assert raised.value.metadata["field"] == field


def _episode_change(cursor: int, workspace: str) -> jpb.Change:
    episode = jpb.Episode(
        episode_id=str(uuid.uuid4()),
        subject="alice",
        workspace=workspace,
        session_id="s1",
        user_text="the rover",
        assistant_text="ok",
    )
    return jpb.Change(
        cursor=cursor,
        kind=jpb.CHANGE_KIND_EPISODE_UPSERTED,
        subject="alice",
        workspace=workspace,
        record_kind=jpb.RECORD_KIND_EPISODE,
        record_id=episode.episode_id,
        episode=episode,
    )


def test_ingest_keeps_only_the_served_workspaces() -> None:
    changes = [_episode_change(1, "red"), _episode_change(2, "blue"), _episode_change(3, "")]
    quarantine = jpb.Change(
        cursor=4,
        kind=jpb.CHANGE_KIND_RECORD_QUARANTINED,
        record_kind=jpb.RECORD_KIND_EPISODE,
        record_id=changes[1].record_id,
    )
    changes.append(quarantine)
    every = ops_from_changes(changes, Interner(), 8, "m")
    assert [type(op) for op in every] == [Upsert, Upsert, Upsert, Remove]
    red = ops_from_changes(changes, Interner(), 8, "m", frozenset({"red"}))
    assert [op.cursor for op in red] == [1, 4]  # removals pass: removing nothing is a no-op
    default = ops_from_changes(changes, Interner(), 8, "m", frozenset({"default"}))
    assert [op.cursor for op in default] == [3, 4]  # an empty workspace is "default"

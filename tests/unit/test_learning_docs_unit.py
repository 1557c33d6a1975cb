"""docs/learning.md cannot rot: every request body parses into the request
type of the LearningService method it is marked with, the grpcurl command
after it calls that method, and the three state machines are drawn."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from google.protobuf import json_format

from engram.learning.v1 import learning_pb2 as pb

DOC = Path(__file__).resolve().parents[2] / "docs" / "learning.md"
MARKED = re.compile(
    r"<!-- rpc: engram\.learning\.v1\.LearningService/(?P<method>\w+) -->\s*"
    r"```json\n(?P<body>.*?)```",
    re.S,
)
SH_BLOCK = re.compile(r"```sh\n(?P<script>.*?)```", re.S)
SERVICE = pb.DESCRIPTOR.services_by_name["LearningService"]
TEXT = DOC.read_text(encoding="utf-8")
BODIES = [(m["method"], m["body"], m.end()) for m in MARKED.finditer(TEXT)]


def test_every_json_block_is_marked() -> None:
    assert len(re.findall(r"```json\n", TEXT)) == len(BODIES) >= 10


@pytest.mark.parametrize(("method", "body", "end"), BODIES, ids=[b[0] for b in BODIES])
def test_body_parses_and_the_next_command_calls_it(method: str, body: str, end: int) -> None:
    descriptor = SERVICE.methods_by_name[method]
    request_class = getattr(pb, descriptor.input_type.name)
    json_format.Parse(body, request_class())
    following = SH_BLOCK.search(TEXT, end)
    assert following is not None
    assert f"engram.learning.v1.LearningService/{method}" in following["script"]


def test_named_methods_exist() -> None:
    for method in re.findall(r"LearningService/(\w+)", TEXT):
        assert method in SERVICE.methods_by_name, method


def test_state_machines_are_drawn() -> None:
    diagrams = re.findall(r"```mermaid\n(.*?)```", TEXT, re.S)
    states = [d for d in diagrams if d.startswith("stateDiagram-v2")]
    assert len(states) == 3
    candidate, learning, skill = states
    assert "pending --> escalated" in candidate
    assert "superseded" in learning and "revoked" in learning
    for move in (
        "draft --> verified",
        "verified --> canary",
        "canary --> active",
        "active --> revoked",
        "revoked --> active",
    ):
        assert move in skill

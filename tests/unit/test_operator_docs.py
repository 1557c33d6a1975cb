"""docs/operators.md cannot rot: every request body parses into its method's
request type, every documented method exists, and the command after a body
calls the method the body is for."""

from __future__ import annotations

import importlib
import pkgutil
import re
from functools import cache
from pathlib import Path

import pytest
from google.protobuf import json_format, message_factory
from google.protobuf.descriptor import MethodDescriptor, ServiceDescriptor
from grpc_health.v1 import health_pb2

import engram

DOC = Path(__file__).resolve().parents[2] / "docs" / "operators.md"
MARKED_BODY = re.compile(r"<!-- rpc: (?P<method>[\w.]+/\w+) -->\s*```json\n(?P<body>.*?)```", re.S)
ANY_JSON_BLOCK = re.compile(r"```json\n")
SH_BLOCK = re.compile(r"```sh\n(?P<script>.*?)```", re.S)
METHOD_IN_TEXT = re.compile(r"\b((?:engram\.\w+\.v1|grpc\.health\.v1)\.\w+)/(\w+)\b")

# The operator tasks the guide promises, by method.
REQUIRED_METHODS = {
    "grpc.health.v1.Health/Check",
    "engram.journal.v1.JournalService/GetStatus",
    "engram.learning.v1.LearningService/GetLearningStatus",
    "engram.retrieval.v1.RetrievalService/GetIndexStatus",
    "engram.journal.v1.JournalService/ReadSessionJournal",
    "engram.journal.v1.JournalService/SearchEpisodes",
    "engram.retrieval.v1.RetrievalService/Recall",
    "engram.learning.v1.LearningService/RevokeLearning",
    "engram.learning.v1.LearningService/PublishCandidate",
    "engram.learning.v1.LearningService/RejectCandidate",
    "engram.learning.v1.LearningService/SetLearningPolicy",
    "engram.journal.v1.JournalService/SetRunMemoryPolicy",
    "engram.journal.v1.JournalService/Quarantine",
    "engram.journal.v1.JournalService/Restore",
    "engram.journal.v1.JournalService/Purge",
}


@cache
def services() -> dict[str, ServiceDescriptor]:
    """Every service in the generated engram stubs, plus grpc.health.v1."""
    found: dict[str, ServiceDescriptor] = {}
    root = Path(engram.__file__).parent
    for module_info in pkgutil.walk_packages([str(root)], prefix="engram."):
        if not module_info.name.endswith("_pb2") or ".v1." not in module_info.name:
            continue
        module = importlib.import_module(module_info.name)
        for service in module.DESCRIPTOR.services_by_name.values():
            found[service.full_name] = service
    for service in health_pb2.DESCRIPTOR.services_by_name.values():
        found[service.full_name] = service
    return found


def resolve(full_method: str) -> MethodDescriptor:
    service_name, _, method_name = full_method.partition("/")
    service = services().get(service_name)
    assert service is not None, f"{full_method}: no service {service_name}"
    method = service.methods_by_name.get(method_name)
    assert method is not None, f"{full_method}: {service_name} has no method {method_name}"
    return method


def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


def marked_bodies() -> list[tuple[str, str, int]]:
    text = doc_text()
    return [(m["method"], m["body"], m.end()) for m in MARKED_BODY.finditer(text)]


def test_generated_descriptors_are_found() -> None:
    assert "engram.journal.v1.JournalService" in services()
    assert "engram.gateway.v1.GatewayService" in services()


def test_every_json_block_is_marked() -> None:
    text = doc_text()
    assert len(ANY_JSON_BLOCK.findall(text)) == len(marked_bodies()) > 0


@pytest.mark.parametrize(
    ("method", "body"),
    [(m, b) for m, b, _ in marked_bodies()],
    ids=[m for m, _, _ in marked_bodies()],
)
def test_body_parses_into_the_request_type(method: str, body: str) -> None:
    descriptor = resolve(method)
    request_class = message_factory.GetMessageClass(descriptor.input_type)
    request = json_format.Parse(body, request_class())
    assert request.DESCRIPTOR.full_name == descriptor.input_type.full_name


def test_command_after_each_body_calls_that_method() -> None:
    text = doc_text()
    for method, _body, end in marked_bodies():
        following = SH_BLOCK.search(text, end)
        assert following is not None, f"{method}: no command after its body"
        called = {f"{s}/{m}" for s, m in METHOD_IN_TEXT.findall(following["script"])}
        assert method in called, f"{method}: the next command calls {sorted(called)}"


def test_every_method_named_anywhere_exists() -> None:
    named = {f"{s}/{m}" for s, m in METHOD_IN_TEXT.findall(doc_text())}
    assert named
    for method in sorted(named):
        resolve(method)


def test_the_operator_tasks_are_covered() -> None:
    documented = {method for method, _, _ in marked_bodies()}
    assert sorted(REQUIRED_METHODS - documented) == []


def test_state_changing_bodies_carry_uuid_request_ids() -> None:
    uuid_re = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
    ids = []
    for method, body, _ in marked_bodies():
        descriptor = resolve(method)
        if "request_id" not in descriptor.input_type.fields_by_name:
            continue
        request = json_format.Parse(body, message_factory.GetMessageClass(descriptor.input_type)())
        if request.request_id:  # type: ignore[attr-defined]
            assert uuid_re.match(request.request_id), method  # type: ignore[attr-defined]
            ids.append(request.request_id)  # type: ignore[attr-defined]
    assert ids
    assert len(ids) == len(set(ids)), "each documented operation has its own request id"

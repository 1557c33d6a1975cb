"""The all-in-one process: every service on one port, listed by reflection."""

from __future__ import annotations

from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

ALL_SERVICES = {
    "engram.journal.v1.JournalService",
    "engram.learning.v1.LearningService",
    "engram.retrieval.v1.RetrievalService",
    "engram.gateway.v1.GatewayService",
}


def test_reflection_lists_every_service_and_each_is_serving(start_services, channel_to):
    channel = channel_to(start_services(["journal", "learning", "retrieval", "gateway"]))
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    responses = stub.ServerReflectionInfo(
        iter([reflection_pb2.ServerReflectionRequest(list_services="")])
    )
    listed = {s.name for r in responses for s in r.list_services_response.service}
    assert listed == ALL_SERVICES | {
        "grpc.health.v1.Health",
        "grpc.reflection.v1alpha.ServerReflection",
    }
    health = health_pb2_grpc.HealthStub(channel)
    for service in ["", *sorted(ALL_SERVICES)]:
        response = health.Check(health_pb2.HealthCheckRequest(service=service))
        assert response.status == health_pb2.HealthCheckResponse.SERVING, service
    # Every method of every service resolves through reflection (grpcurl describe).
    for service in sorted(ALL_SERVICES):
        found = stub.ServerReflectionInfo(
            iter([reflection_pb2.ServerReflectionRequest(file_containing_symbol=service)])
        )
        assert all(r.file_descriptor_response.file_descriptor_proto for r in found)

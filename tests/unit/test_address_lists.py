"""Comma-separated service addresses (engram.channels) and the cluster file
(engram.cluster.config): what is accepted, and what is refused naming the
setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from engram.channels import BALANCED_CHANNEL_OPTIONS, channel_target, split_address_list
from engram.cluster.config import parse
from engram.downstream import ServiceClient
from engram.errors import InvalidArgument
from engram.journal.v1 import journal_pb2_grpc


def test_one_address_is_taken_as_given() -> None:
    assert split_address_list("journal:50052") == ["journal:50052"]
    target, _ = channel_target("journal:50052")
    assert target == "journal:50052"


def test_a_list_balances_round_robin() -> None:
    target, options = channel_target("127.0.0.1:1, 127.0.0.1:2")
    assert target == "ipv4:127.0.0.1:1,127.0.0.1:2"
    assert options == BALANCED_CHANNEL_OPTIONS
    assert '"round_robin"' in dict(options)["grpc.service_config"]
    assert channel_target("[::1]:1,[::1]:2")[0] == "ipv6:[::1]:1,[::1]:2"


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1:1,",  # an empty element
        "127.0.0.1:1,retrieval:2",  # a name in a list
        "127.0.0.1:1,127.0.0.1",  # no port
        "127.0.0.1:1,127.0.0.1:70000",  # not a port
        "127.0.0.1:1,[::1]:2",  # two families
        "127.0.0.1:1,::1:2",  # IPv6 without brackets
        "127.0.0.1:1,١٢٧.0.0.1:2",  # digits of another script are not an IP literal
    ],
)
def test_malformed_lists_are_refused_naming_the_setting(address: str) -> None:
    with pytest.raises(InvalidArgument) as refused:
        ServiceClient.connect("retrieval", address, "", journal_pb2_grpc.JournalServiceStub, 1.0)
    assert refused.value.field == "retrieval_addr"
    assert address in refused.value.message


def test_cluster_file_defaults_and_refusals(tmp_path: Path) -> None:
    config = parse({"data_dir": "state"}, tmp_path)
    assert config.data_dir == (tmp_path / "state").resolve()
    assert (config.retrieval_replicas, config.gateway_replicas, config.standby) == (2, 2, True)
    for bad, field in (
        ({}, "data_dir"),
        ({"data_dir": "d", "replicas": {"retrieval": 0}}, "retrieval"),
        ({"data_dir": "d", "host": "0.0.0.0"}, "host"),
        ({"data_dir": "d", "on_exit": "ignore"}, "on_exit"),
        ({"data_dir": "d", "workers": 3}, "workers"),
        ({"data_dir": "d", "env": {"PATH": "/"}}, "env"),
    ):
        with pytest.raises(InvalidArgument) as refused:
            parse(bad, tmp_path)
        assert refused.value.field == field, bad

"""Registers the operator commands on the root `engram` group."""

from __future__ import annotations

import click

from engram.cli.cluster import cluster_group
from engram.cli.context import context_group
from engram.cli.importer import import_group
from engram.cli.index import index_group
from engram.cli.journal import journal_group, runs_group
from engram.cli.learning import candidates_group, learnings_group, skills_group
from engram.cli.policy import policy_group
from engram.cli.quarantine import quarantine_group
from engram.cli.status import health_command, status_command

OPERATOR_COMMANDS: tuple[click.Command, ...] = (
    status_command,
    health_command,
    journal_group,
    runs_group,
    learnings_group,
    candidates_group,
    skills_group,
    policy_group,
    context_group,
    quarantine_group,
    index_group,
    import_group,
    cluster_group,
)


def register(root: click.Group) -> None:
    for command in OPERATOR_COMMANDS:
        root.add_command(command)

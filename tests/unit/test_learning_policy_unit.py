"""Learning policy: validation (fields and rule names), defaults, ordered
first-match rules with trusted-input gates, and the judge clamp."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from engram.errors import InvalidArgument
from learning_service.model import Action, Kind, Mode, Origin, ScopeKind, Sensitivity
from learning_service.policy import (
    DEFAULT_POLICY,
    RuleInput,
    clamp_judge_action,
    first_match,
    parse,
    to_document,
)

ACTIVE_FACT = {"name": "facts", "action": "publish_active", "kind": "fact"}


def _invalid(document: dict[str, Any]) -> InvalidArgument:
    with pytest.raises(InvalidArgument) as caught:
        parse(document)
    return caught.value


def test_defaults_are_shadow_and_manual_review() -> None:
    policy = parse({})
    assert policy == DEFAULT_POLICY
    assert policy.mode is Mode.SHADOW
    assert policy.publication.default_action is Action.MANUAL_REVIEW
    assert policy.publication.allow_api_origin_active_publication is False
    assert policy.capture.max_candidates_per_run == 2
    assert policy.capture.semantic_enabled and policy.capture.run_summary_enabled
    assert policy.judge.timeout_ms == 5000 and not policy.judge.enabled


def test_zero_values_in_a_given_section_take_their_defaults() -> None:
    policy = parse({"capture": {"semantic_enabled": True}, "judge": {"address": "j:1"}})
    assert policy.capture.max_candidates_per_run == 2
    assert policy.capture.run_summary_enabled is False
    assert policy.judge.timeout_ms == 5000


def test_document_round_trips() -> None:
    policy = parse(
        {
            "mode": "enabled",
            "publication": {
                "rules": [
                    ACTIVE_FACT,
                    {
                        "name": "noisy",
                        "action": "reject",
                        "scope_kind": "project",
                        "scope_id": "p1",
                        "min_confidence": 10,
                        "require_evidence": True,
                    },
                ],
                "quarantined_rule_names": ["noisy"],
            },
            "judge": {"enabled": True, "address": "127.0.0.1:9", "timeout_ms": 100},
        }
    )
    assert parse(to_document(policy)) == policy


@pytest.mark.parametrize(
    ("document", "field", "words"),
    [
        (
            {"publication": {"rules": [ACTIVE_FACT, {"name": "foo", "action": "publish_active"}]}},
            "publication.rules[1].kind",
            ['"foo"', "must name a kind"],
        ),
        (
            {
                "publication": {
                    "rules": [{"name": "foo", "action": "publish_active", "kind": "procedure"}]
                }
            },
            "publication.rules[0].action",
            ['"foo"', "procedures"],
        ),
        (
            {"publication": {"rules": [{"name": "bar"}]}},
            "publication.rules[0].action",
            ['"bar"', "must be set"],
        ),
        (
            {"publication": {"rules": [ACTIVE_FACT, ACTIVE_FACT]}},
            "publication.rules[1].name",
            ['"facts"', "more than once"],
        ),
        (
            {"publication": {"rules": [{"name": "Bad Name", "action": "reject"}]}},
            "publication.rules[0].name",
            ["Bad Name"],
        ),
        (
            {"publication": {"rules": [{"name": "r", "action": "reject", "min_confidence": 101}]}},
            "publication.rules[0].min_confidence",
            ['"r"'],
        ),
        (
            {"publication": {"rules": [{"name": "r", "action": "reject", "scope_id": "p1"}]}},
            "publication.rules[0].scope_id",
            ["scope_kind"],
        ),
        (
            {
                "publication": {
                    "rules": [
                        {
                            "name": "r",
                            "action": "reject",
                            "scope_kind": "workspace",
                            "scope_id": "other",
                        }
                    ]
                }
            },
            "publication.rules[0].scope_id",
            ["default"],
        ),
        (
            {"publication": {"rules": [{"name": "r", "action": "sideways"}]}},
            "publication.rules[0].action",
            ['"r"', "unknown value"],
        ),
        (
            {"publication": {"default_action": "publish_active"}},
            "publication.default_action",
            ["explicit rule"],
        ),
        (
            {"publication": {"rules": [ACTIVE_FACT], "quarantined_rule_names": ["nope"]}},
            "publication.quarantined_rule_names[0]",
            ['"nope"'],
        ),
        ({"mode": "yolo"}, "mode", ["unknown value"]),
        ({"capture": {"max_candidates_per_run": 11}}, "capture.max_candidates_per_run", []),
        ({"capture": {"max_candidates_per_run": -1}}, "capture.max_candidates_per_run", []),
        ({"judge": {"enabled": True}}, "judge.address", []),
        ({"judge": {"address": "not an address"}}, "judge.address", []),
        ({"judge": {"timeout_ms": -5}}, "judge.timeout_ms", []),
    ],
)
def test_invalid_policies_name_the_field_and_rule(
    document: dict[str, Any], field: str, words: list[str]
) -> None:
    error = _invalid(document)
    assert error.field == field
    for word in words:
        assert word in error.message


def _input(**overrides: Any) -> RuleInput:
    values: dict[str, Any] = {
        "origin": Origin.DAEMON,
        "scope_kind": ScopeKind.SESSION,
        "scope_id": "s1",
        "kind": Kind.FACT,
        "sensitivity": Sensitivity.NORMAL,
        "confidence": 98,
        "has_evidence": True,
        "has_source_run": True,
        "has_source_session": True,
    }
    values.update(overrides)
    return RuleInput(**values)


STRICT = {
    "name": "strict",
    "action": "publish_active",
    "kind": "fact",
    "require_evidence": True,
    "require_source_run": True,
    "require_source_session": True,
}


def test_first_match_wins_in_order_and_default_applies() -> None:
    policy = parse(
        {
            "publication": {
                "rules": [
                    {"name": "low", "action": "reject", "kind": "fact", "min_confidence": 0},
                    {"name": "high", "action": "publish_provisional", "kind": "fact"},
                ],
                "default_action": "reject",
            }
        }
    )
    assert first_match(policy.publication, _input()) == ("low", Action.REJECT)
    assert first_match(policy.publication, _input(kind=Kind.DECISION)) == ("", Action.REJECT)


def test_quarantined_rules_are_skipped() -> None:
    policy = parse(
        {
            "publication": {
                "rules": [
                    {"name": "noisy", "action": "reject"},
                    {"name": "next", "action": "publish_provisional"},
                ],
                "quarantined_rule_names": ["noisy"],
            }
        }
    )
    assert first_match(policy.publication, _input()) == ("next", Action.PUBLISH_PROVISIONAL)


@pytest.mark.parametrize(
    ("overrides", "matches"),
    [
        ({}, True),
        ({"origin": Origin.API}, False),  # forged provenance never satisfies strict gates
        ({"has_evidence": False}, False),
        ({"has_source_run": False}, False),
        ({"has_source_session": False}, False),
    ],
)
def test_trusted_input_gates_match_only_daemon_origin(
    overrides: dict[str, Any], matches: bool
) -> None:
    policy = parse({"publication": {"rules": [STRICT]}})
    name, _ = first_match(policy.publication, _input(**overrides))
    assert (name == "strict") is matches


@pytest.mark.parametrize(
    ("rule", "overrides", "matches"),
    [
        ({"scope_kind": "project"}, {}, False),
        ({"scope_kind": "session", "scope_id": "s2"}, {}, False),
        ({"scope_kind": "session", "scope_id": "s1"}, {}, True),
        ({"kind": "decision"}, {}, False),
        ({"sensitivity": "sensitive"}, {}, False),
        ({"sensitivity": "sensitive"}, {"sensitivity": Sensitivity.SENSITIVE}, True),
        ({"min_confidence": 99}, {}, False),
        ({"min_confidence": 98}, {}, True),
    ],
)
def test_rule_match_fields(rule: dict[str, Any], overrides: dict[str, Any], matches: bool) -> None:
    policy = parse({"publication": {"rules": [{"name": "r", "action": "reject", **rule}]}})
    assert (first_match(policy.publication, _input(**overrides))[0] == "r") is matches


# The whole clamp table, written out: baseline -> judge request -> result.
CLAMP = {
    Action.REJECT: {
        Action.MANUAL_REVIEW: Action.MANUAL_REVIEW,
        Action.REJECT: Action.REJECT,
        Action.PUBLISH_PROVISIONAL: Action.MANUAL_REVIEW,
        Action.PUBLISH_ACTIVE: Action.MANUAL_REVIEW,
        None: Action.MANUAL_REVIEW,
    },
    Action.PUBLISH_PROVISIONAL: {
        Action.MANUAL_REVIEW: Action.MANUAL_REVIEW,
        Action.REJECT: Action.REJECT,
        Action.PUBLISH_PROVISIONAL: Action.PUBLISH_PROVISIONAL,
        Action.PUBLISH_ACTIVE: Action.PUBLISH_PROVISIONAL,
        None: Action.MANUAL_REVIEW,
    },
    Action.PUBLISH_ACTIVE: {
        Action.MANUAL_REVIEW: Action.MANUAL_REVIEW,
        Action.REJECT: Action.REJECT,
        Action.PUBLISH_PROVISIONAL: Action.PUBLISH_PROVISIONAL,
        Action.PUBLISH_ACTIVE: Action.PUBLISH_ACTIVE,
        None: Action.MANUAL_REVIEW,
    },
    Action.MANUAL_REVIEW: dict.fromkeys([*Action, None], Action.MANUAL_REVIEW),
}
PUBLISH_RANK = {Action.PUBLISH_PROVISIONAL: 1, Action.PUBLISH_ACTIVE: 2}


@pytest.mark.parametrize(
    ("baseline", "requested"), list(itertools.product(list(Action), [*Action, None]))
)
def test_clamp_table(baseline: Action, requested: Action | None) -> None:
    result = clamp_judge_action(baseline, requested)
    assert result is CLAMP[baseline][requested]
    # The judge never gets more publication than the baseline allowed.
    if result in PUBLISH_RANK:
        assert baseline in PUBLISH_RANK and PUBLISH_RANK[result] <= PUBLISH_RANK[baseline]

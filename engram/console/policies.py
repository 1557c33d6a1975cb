"""The learning and run-memory policies, edited as forms: the proposed policy
is shown as a diff against the current one before it is saved, and the
server's validation errors are shown next to the field they name."""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import grpc
import yaml
from google.protobuf import json_format
from google.protobuf.message import Message
from starlette.responses import Response

from engram.cli.client import to_dict
from engram.cli.policy_file import without_read_only
from engram.console.suite import SuiteError, new_request_id
from engram.console.web import Operator, page
from engram.journal.v1 import journal_pb2 as jpb
from engram.learning.v1 import learning_pb2 as lpb

MODES = ["manual_only", "shadow", "enabled"]
ACTIONS = ["manual_review", "reject", "publish_provisional", "publish_active"]
VISIBILITIES = ["session_only", "learning_scopes"]


class FormError(Exception):
    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(message)
        self.field_name = field_name


def _integer(operator: Operator, name: str) -> int:
    text = operator.field(name, "0") or "0"
    try:
        return int(text)
    except ValueError:
        raise FormError(name, f"{text!r} is not a whole number") from None


def _enum(enum_type: Any, prefix: str, choices: list[str], operator: Operator, name: str) -> Any:
    value = operator.field(name)
    if value not in choices:
        raise FormError(name, f"choose one of {', '.join(choices)}")
    return enum_type.Value(f"{prefix}{value.upper()}")


def _rules(operator: Operator) -> list[lpb.PublicationRule]:
    text = operator.field("publication.rules")
    try:
        data = yaml.safe_load(text) if text else []
    except yaml.YAMLError as exc:
        raise FormError("publication.rules", f"not YAML: {exc}") from None
    if data is None:
        data = []
    if not isinstance(data, list):
        raise FormError("publication.rules", "must be a YAML list of rules")
    rules = []
    for i, item in enumerate(data):
        try:
            rules.append(json_format.ParseDict(item, lpb.PublicationRule()))
        except (json_format.ParseError, TypeError, AttributeError) as exc:
            raise FormError("publication.rules", f"rule {i}: {exc}") from None
    return rules


def learning_from_form(operator: Operator) -> lpb.LearningPolicy:
    names = operator.field("publication.quarantined_rule_names").replace(",", " ").split()
    return lpb.LearningPolicy(
        mode=_enum(lpb.AutomationMode, "AUTOMATION_MODE_", MODES, operator, "mode"),
        capture=lpb.CaptureSettings(
            run_summary_enabled=operator.checked("capture.run_summary_enabled"),
            semantic_enabled=operator.checked("capture.semantic_enabled"),
            max_candidates_per_run=_integer(operator, "capture.max_candidates_per_run"),
        ),
        publication=lpb.PublicationSettings(
            rules=_rules(operator),
            default_action=_enum(
                lpb.PublicationAction,
                "PUBLICATION_ACTION_",
                ACTIONS,
                operator,
                "publication.default_action",
            ),
            allow_api_origin_active_publication=operator.checked(
                "publication.allow_api_origin_active_publication"
            ),
            quarantined_rule_names=names,
        ),
        judge=lpb.JudgeSettings(
            enabled=operator.checked("judge.enabled"),
            address=operator.field("judge.address"),
            timeout_ms=_integer(operator, "judge.timeout_ms"),
            model=operator.field("judge.model"),
        ),
    )


def run_memory_from_form(operator: Operator) -> jpb.RunMemoryPolicy:
    return jpb.RunMemoryPolicy(
        enabled=operator.checked("enabled"),
        retention_seconds=_integer(operator, "retention_seconds"),
        max_tracked_per_session=_integer(operator, "max_tracked_per_session"),
        max_prompt_entries=_integer(operator, "max_prompt_entries"),
        redact_pii=operator.checked("redact_pii"),
        search_visibility=_enum(
            jpb.SearchVisibility,
            "SEARCH_VISIBILITY_",
            VISIBILITIES,
            operator,
            "search_visibility",
        ),
    )


@dataclass(frozen=True)
class PolicySpec:
    title: str
    policy_type: type[Message]
    from_form: Callable[[Operator], Message]
    get: Callable[[Operator], Any]
    set: Callable[[Operator], Any]
    get_request: type[Message]
    set_request: type[Message]


SPECS: dict[str, PolicySpec] = {
    "learning": PolicySpec(
        "Learning policy",
        lpb.LearningPolicy,
        learning_from_form,
        lambda op: op.console.suite.learning.GetLearningPolicy,
        lambda op: op.console.suite.learning.SetLearningPolicy,
        lpb.GetLearningPolicyRequest,
        lpb.SetLearningPolicyRequest,
    ),
    "run-memory": PolicySpec(
        "Run-memory policy",
        jpb.RunMemoryPolicy,
        run_memory_from_form,
        lambda op: op.console.suite.journal.GetRunMemoryPolicy,
        lambda op: op.console.suite.journal.SetRunMemoryPolicy,
        jpb.GetRunMemoryPolicyRequest,
        jpb.SetRunMemoryPolicyRequest,
    ),
}


def policy_yaml(policy: Message) -> str:
    data = without_read_only(to_dict(policy))
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def rules_yaml(policy: lpb.LearningPolicy) -> str:
    rules = [
        json_format.MessageToDict(r, preserving_proto_field_name=True)
        for r in policy.publication.rules
    ]
    return yaml.safe_dump(rules, sort_keys=False, allow_unicode=True) if rules else ""


def form_field(server_field: str) -> str:
    """The form input a server error names: "policy.judge.address" ->
    "judge.address"; "publication.rules[2].action" -> "publication.rules"."""
    name = server_field.removeprefix("policy.")
    if name.startswith("publication.rules"):
        return "publication.rules"
    return name


async def _current(operator: Operator, spec: PolicySpec) -> Message:
    response = await operator.call(spec.get(operator), spec.get_request())
    policy: Message = response.policy
    return policy


async def _edit(
    operator: Operator,
    proposed: dict[str, Message] | None = None,
    errors: dict[str, dict[str, str]] | None = None,
    status: int = 200,
) -> Response:
    current = {kind: await _current(operator, spec) for kind, spec in SPECS.items()}
    shown = {**current, **(proposed or {})}
    return await operator.render(
        "policy.html",
        status=status,
        current=current,
        shown=shown,
        errors=errors or {},
        rules_yaml=rules_yaml(shown["learning"]),  # type: ignore[arg-type]
        modes=MODES,
        actions=ACTIONS,
        visibilities=VISIBILITIES,
    )


@page
async def policy(operator: Operator) -> Response:
    return await _edit(operator)


@page
async def policy_preview(operator: Operator) -> Response:
    kind = operator.request.path_params["kind"]
    spec = SPECS[kind]
    try:
        proposed = spec.from_form(operator)
    except FormError as exc:
        return await _edit(operator, errors={kind: {exc.field_name: str(exc)}}, status=400)
    current = await _current(operator, spec)
    diff = list(
        difflib.unified_diff(
            policy_yaml(current).splitlines(),
            policy_yaml(proposed).splitlines(),
            "current",
            "proposed",
            lineterm="",
        )
    )
    return await operator.render(
        "policy_diff.html",
        kind=kind,
        title=spec.title,
        diff=diff,
        proposed_json=json_format.MessageToJson(proposed, preserving_proto_field_name=True),
    )


@page
async def policy_save(operator: Operator) -> Response:
    kind = operator.request.path_params["kind"]
    spec = SPECS[kind]
    try:
        proposed = json_format.Parse(operator.field("proposed"), spec.policy_type())
    except (json_format.ParseError, json.JSONDecodeError):
        operator.session.flash(level="error", text="The proposed policy could not be read.")
        return operator.redirect("/policy")
    try:
        await operator.call(
            spec.set(operator), spec.set_request(policy=proposed, request_id=new_request_id())
        )
    except SuiteError as exc:
        failure = exc.failure
        if failure.code is grpc.StatusCode.INVALID_ARGUMENT and failure.field_name:
            name = form_field(failure.field_name)
            message = failure.message.removeprefix(f"{failure.field_name}: ")
            return await _edit(
                operator, proposed={kind: proposed}, errors={kind: {name: message}}, status=400
            )
        operator.flash_failure(f"Saving the {spec.title.lower()} was refused", failure)
        return operator.redirect("/policy")
    operator.flash_ok(f"{spec.title} saved.")
    return operator.redirect("/policy")

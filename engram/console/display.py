"""Template filters: enum values as short names, times and ages, scope keys.
Escaping is Jinja's (autoescape on every template): nothing here marks text safe."""

from __future__ import annotations

import time
from typing import Any

from engram.cli.client import enum_name, timestamp_text
from engram.cli.learning import scope_key
from engram.common.v1 import common_pb2
from engram.journal.v1 import journal_pb2
from engram.learning.v1 import learning_pb2

# Enum type and the prefix its value names carry, by the short name templates use.
ENUMS: dict[str, tuple[Any, str]] = {
    "kind": (learning_pb2.LearningKind, "LEARNING_KIND_"),
    "origin": (learning_pb2.CandidateOrigin, "CANDIDATE_ORIGIN_"),
    "candidate_status": (learning_pb2.CandidateStatus, "CANDIDATE_STATUS_"),
    "sensitivity": (learning_pb2.Sensitivity, "SENSITIVITY_"),
    "tier": (learning_pb2.PublishTier, "PUBLISH_TIER_"),
    "learning_status": (learning_pb2.LearningStatus, "LEARNING_STATUS_"),
    "verification": (learning_pb2.VerificationStatus, "VERIFICATION_STATUS_"),
    "decision": (learning_pb2.PolicyDecision, "POLICY_DECISION_"),
    "mode": (learning_pb2.AutomationMode, "AUTOMATION_MODE_"),
    "action": (learning_pb2.PublicationAction, "PUBLICATION_ACTION_"),
    "skill_state": (learning_pb2.SkillState, "SKILL_STATE_"),
    "record_kind": (journal_pb2.RecordKind, "RECORD_KIND_"),
    "visibility": (journal_pb2.SearchVisibility, "SEARCH_VISIBILITY_"),
    "scope_kind": (common_pb2.ScopeKind, "SCOPE_KIND_"),
    "absence": (common_pb2.AbsenceState, "ABSENCE_STATE_"),
}


def short(value: int, enum: str) -> str:
    """("LEARNING_KIND_FACT" as 1, "kind") -> "fact"; unknown numbers as text."""
    enum_type, prefix = ENUMS[enum]
    try:
        return enum_name(enum_type, value, prefix)
    except ValueError:
        return str(value)


def when(ts: Any) -> str:
    return timestamp_text(ts) if ts is not None else ""


def age(ts: Any) -> str:
    """How long ago a timestamp was, coarsely ("4m", "2h", "3d")."""
    if ts is None or (ts.seconds == 0 and ts.nanos == 0):
        return ""
    seconds = max(0, int(time.time() - ts.seconds))
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def scope(value: Any) -> str:
    return scope_key(value)


FILTERS = {"short": short, "when": when, "age": age, "scope": scope}

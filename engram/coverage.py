"""Coverage seals and the absence derivation shared by every engram service.

A read path that knows its query builds a :class:`~engram.common.v1.common_pb2.Coverage`
(:func:`build_coverage`, :func:`unavailable_coverage`), which is validated and sealed
with a SHA-256 digest over the canonical form defined by the DIGEST RULE in
``proto/engram/common/v1/common.proto`` (:func:`canonical_bytes`). Consumers
:func:`validate` the seal and the invariants and then *derive* what an empty result
means; nobody sets an :class:`AbsenceState` by hand and nobody upgrades a coverage.

Absence derivation (:func:`derive_absence`), first matching row wins:

====  ==============================================================  ========================
 #    condition                                                       state
====  ==============================================================  ========================
 1    seal or invariants invalid, or ``hit_count < 0``                FAILED
 2    outcome UNAVAILABLE                                             UNAVAILABLE
 3    outcome FAILED                                                  FAILED
 4    outcome NOT_SEARCHED                                            NOT_SEARCHED
 5    ``hit_count > 0`` or ``matched_before_limit`` set and ``> 0``   NOT_ABSENT
 6    verifier ran and does not agree                                 COVERAGE_DISAGREEMENT
 7    exactness not EXACT, or ``matched_before_limit`` unset          COVERAGE_UNKNOWN
 8    any dimension UNKNOWN                                           COVERAGE_UNKNOWN
 9    every dimension COMPLETE, verifier ran and agrees               ABSENT_AUTHORITATIVE
 10   otherwise (searched, exactly 0 matched, dims COMPLETE/PARTIAL)  ABSENT_IN_SCOPE
====  ==============================================================  ========================

Consequences worth stating plainly:

* Ranked semantic recall reports ``semantic = UNKNOWN`` (a nearest-neighbour search
  has no notion of "all meaning-equivalent rows"), so by row 8 it can never license
  "never" -- neither a corpus-wide nor a query-scoped negative.
* Only ABSENT_AUTHORITATIVE licenses a corpus-wide negative ("you never told me X");
  ABSENT_IN_SCOPE licenses only "I couldn't find X in <scope>".
* A verifier can only confirm absence (row 9); a disagreeing one demotes it (row 6).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import hmac
import json
import time
import uuid
from collections.abc import Mapping, Sequence
from typing import TypeAlias

from google.protobuf.descriptor import EnumDescriptor

from engram.common.v1 import common_pb2

__all__ = [
    "DIGEST_RULE_VERSION",
    "CoverageContractError",
    "build_coverage",
    "canonical_bytes",
    "compute_digest",
    "derive_absence",
    "describe",
    "licenses_corpus_wide_negative",
    "licenses_query_scoped_negative",
    "query_digest",
    "replica_coverage",
    "seal",
    "unavailable_coverage",
    "validate",
]

DIGEST_RULE_VERSION = "engram.coverage.v1"

_UINT32_MAX = 2**32 - 1
_UINT64_MAX = 2**64 - 1
_NANOS_MAX = 999_999_999

SearchOutcomeT: TypeAlias = common_pb2.SearchOutcome.ValueType
DimensionStateT: TypeAlias = common_pb2.DimensionState.ValueType
ExactnessT: TypeAlias = common_pb2.Exactness.ValueType
AbsenceStateT: TypeAlias = common_pb2.AbsenceState.ValueType

_SEARCHED = common_pb2.SEARCH_OUTCOME_SEARCHED
_COMPLETE = common_pb2.DIMENSION_STATE_COMPLETE
_PARTIAL = common_pb2.DIMENSION_STATE_PARTIAL
_DIM_UNKNOWN = common_pb2.DIMENSION_STATE_UNKNOWN
_EXACT = common_pb2.EXACTNESS_EXACT
_ESTIMATED = common_pb2.EXACTNESS_ESTIMATED
_EXACTNESS_UNKNOWN = common_pb2.EXACTNESS_UNKNOWN

# Dimension names in DIGEST RULE order (also the CoverageDimensions field order).
_DIMENSIONS: tuple[str, ...] = ("semantic", "field", "temporal", "visibility", "normalization")


class CoverageContractError(Exception):
    """A coverage violates the seal or an invariant. Transport-agnostic on purpose:
    the gRPC layer maps it to a status (see engram.interceptors)."""


# --------------------------------------------------------------------------- digest


def _escape(value: str) -> str:
    # Backslash first, so the escapes introduced for LF/CR are not escaped again.
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _enum_name(enum: EnumDescriptor, value: int, what: str) -> str:
    # proto3 enums are open: an unknown number has no name, so it has no canonical form.
    found = enum.values_by_number.get(value)
    if found is None:
        raise CoverageContractError(f"{what}: unknown enum value {value}")
    return found.name


def _dimension(coverage: common_pb2.Coverage, name: str) -> DimensionStateT:
    value: DimensionStateT = getattr(coverage.dimensions, name)
    return value


def canonical_bytes(coverage: common_pb2.Coverage) -> bytes:
    """The exact byte string the DIGEST RULE (engram.coverage.v1) hashes.

    Raises :class:`CoverageContractError` for values the rule cannot express: unknown
    enum numbers, a negative ``computed_at.seconds`` (the rule writes integers without
    sign), ``computed_at.nanos`` outside ``[0, 999999999]`` and unencodable strings.
    """
    card = coverage.cardinality
    ver = coverage.verifier
    ts = coverage.computed_at
    if ts.seconds < 0 or not 0 <= ts.nanos <= _NANOS_MAX:
        raise CoverageContractError(
            f"computed_at {ts.seconds}.{ts.nanos} has no canonical form (must be >= epoch)"
        )
    matched = str(card.matched_before_limit) if card.HasField("matched_before_limit") else "-"
    dim_enum = common_pb2.DimensionState.DESCRIPTOR
    lines = [
        DIGEST_RULE_VERSION,
        f"read_path={_escape(coverage.read_path)}",
        f"source_systems={len(coverage.source_systems)}",
        *(f"source_system={_escape(s)}" for s in coverage.source_systems),
        f"query_digest={_escape(coverage.query_digest)}",
        f"returned={card.returned}",
        f"limit={card.limit}",
        f"matched_before_limit={matched}",
        f"truncated={_bool(card.truncated)}",
        f"exactness={_enum_name(common_pb2.Exactness.DESCRIPTOR, card.exactness, 'exactness')}",
        *(
            f"{name}={_enum_name(dim_enum, _dimension(coverage, name), name)}"
            for name in _DIMENSIONS
        ),
        f"outcome={_enum_name(common_pb2.SearchOutcome.DESCRIPTOR, coverage.outcome, 'outcome')}",
        f"verifier_ran={_bool(ver.ran)}",
        f"verifier_read_path={_escape(ver.read_path)}",
        f"verifier_source_system={_escape(ver.source_system)}",
        f"verifier_count={ver.count}",
        f"verifier_agrees={_bool(ver.agrees)}",
        f"snapshot_version={_escape(coverage.snapshot_version)}",
        f"computed_at={ts.seconds}.{ts.nanos:09d}",
    ]
    text = "".join(line + "\n" for line in lines)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:  # lone surrogates cannot occur in a proto string
        raise CoverageContractError(f"coverage string is not valid UTF-8: {exc}") from None


def compute_digest(coverage: common_pb2.Coverage) -> str:
    """Lowercase hex SHA-256 of :func:`canonical_bytes` (ignores ``coverage.digest``)."""
    return hashlib.sha256(canonical_bytes(coverage)).hexdigest()


# ----------------------------------------------------------------------- invariants


def _check_invariants(coverage: common_pb2.Coverage) -> None:
    """Everything :func:`validate` checks except the digest itself."""
    if not coverage.read_path:
        raise CoverageContractError("read_path is empty")
    card = coverage.cardinality
    if coverage.outcome == common_pb2.SEARCH_OUTCOME_UNSPECIFIED:
        raise CoverageContractError("outcome is SEARCH_OUTCOME_UNSPECIFIED")
    # Unspecified exactness would make rows 7-10 of the derivation guesswork.
    if card.exactness == common_pb2.EXACTNESS_UNSPECIFIED:
        raise CoverageContractError("cardinality.exactness is EXACTNESS_UNSPECIFIED")
    for name in _DIMENSIONS:
        if _dimension(coverage, name) == common_pb2.DIMENSION_STATE_UNSPECIFIED:
            raise CoverageContractError(f"dimensions.{name} is DIMENSION_STATE_UNSPECIFIED")
    # Also rejects unknown enum numbers and out-of-range timestamps.
    canonical_bytes(coverage)

    if card.limit > 0 and card.returned > card.limit:
        raise CoverageContractError(f"returned {card.returned} > limit {card.limit}")
    has_matched = card.HasField("matched_before_limit")
    if has_matched:
        matched = card.matched_before_limit
        if card.returned > matched:
            raise CoverageContractError(
                f"returned {card.returned} > matched_before_limit {matched}"
            )
        if card.truncated != (card.returned < matched):
            raise CoverageContractError(
                f"truncated={card.truncated} contradicts {card.returned} of {matched}"
            )
    if card.exactness == _EXACT and not has_matched:
        raise CoverageContractError("EXACTNESS_EXACT requires matched_before_limit")
    if card.exactness == _EXACTNESS_UNKNOWN and has_matched:
        raise CoverageContractError("EXACTNESS_UNKNOWN requires matched_before_limit unset")
    if coverage.outcome != _SEARCHED and card.returned != 0:
        raise CoverageContractError(
            f"outcome {common_pb2.SearchOutcome.Name(coverage.outcome)} "
            f"but returned {card.returned}"
        )
    ver = coverage.verifier
    if ver.agrees and not ver.ran:
        raise CoverageContractError("verifier.agrees without verifier.ran")
    # Verifier.agrees is defined as "count equals the primary matched_before_limit";
    # an agreement without a matching count would license ABSENT_AUTHORITATIVE falsely.
    if ver.agrees and not (has_matched and ver.count == card.matched_before_limit):
        raise CoverageContractError(
            "verifier.agrees but verifier.count does not equal matched_before_limit"
        )


def validate(coverage: common_pb2.Coverage) -> None:
    """Raise :class:`CoverageContractError` unless the seal and every invariant hold."""
    if not coverage.digest:
        raise CoverageContractError("coverage is not sealed (digest missing)")
    _check_invariants(coverage)
    if not hmac.compare_digest(coverage.digest, compute_digest(coverage)):
        raise CoverageContractError("coverage digest does not match its contents")


def seal(coverage: common_pb2.Coverage) -> common_pb2.Coverage:
    """Return a validated copy with ``digest`` set (``computed_at`` defaults to now).

    Refuses to re-seal a coverage that carries a digest which does not verify: that
    would launder tampering. Clear ``digest`` first when deliberately rebuilding one.
    """
    if coverage.digest and not hmac.compare_digest(coverage.digest, compute_digest(coverage)):
        raise CoverageContractError("refusing to re-seal a coverage whose digest is invalid")
    sealed = common_pb2.Coverage()
    sealed.CopyFrom(coverage)
    if not sealed.HasField("computed_at"):
        now = time.time_ns()
        sealed.computed_at.seconds, sealed.computed_at.nanos = divmod(now, 1_000_000_000)
    _check_invariants(sealed)
    sealed.digest = compute_digest(sealed)
    return sealed


# ---------------------------------------------------------------------- construction


def _json_default(value: object) -> object:
    # Only types with one obvious canonical text; anything else must be converted by
    # the caller rather than silently str()-ed into an unstable digest.
    if isinstance(value, _dt.datetime | _dt.date | _dt.time):
        return value.isoformat()
    if isinstance(value, uuid.UUID):
        return str(value)
    raise TypeError(f"query value of type {type(value).__name__} is not canonical JSON")


def query_digest(query: Mapping[str, object] | str) -> str:
    """Lowercase hex SHA-256 of the canonical JSON of ``query``.

    Canonical JSON: ``sort_keys=True``, ``separators=(",", ":")``,
    ``ensure_ascii=False``, UTF-8, NaN/Infinity rejected. A ``str`` query is encoded
    as a JSON string like any other value (so ``"x"`` hashes ``"x"`` with quotes).
    """
    text = json.dumps(
        query,
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        allow_nan=False,
        default=_json_default,
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _uint(value: int, maximum: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= maximum:
        raise CoverageContractError(f"{what} must be an integer in [0, {maximum}], got {value!r}")
    return value


def build_coverage(
    *,
    read_path: str,
    source_systems: Sequence[str],
    query: Mapping[str, object] | str,
    returned: int,
    limit: int,
    matched_before_limit: int | None,
    exactness: ExactnessT,
    semantic: DimensionStateT,
    field: DimensionStateT,
    temporal: DimensionStateT,
    visibility: DimensionStateT,
    normalization: DimensionStateT,
    outcome: SearchOutcomeT = _SEARCHED,
    verifier: common_pb2.Verifier | None = None,
    snapshot_version: str = "",
) -> common_pb2.Coverage:
    """Build and :func:`seal` a coverage; derives ``query_digest`` and ``truncated``.

    ``truncated`` is ``returned < matched_before_limit`` when the total is known. When it
    is not (ranked recall), it is True iff the limit was reached: more rows may exist,
    and reporting False there would suggest a completeness nobody measured.
    """
    if isinstance(source_systems, str):  # a bare str is a Sequence[str] of characters
        raise TypeError("source_systems must be a sequence of strings, not a str")
    returned = _uint(returned, _UINT32_MAX, "returned")
    limit = _uint(limit, _UINT32_MAX, "limit")
    cardinality = common_pb2.Cardinality(returned=returned, limit=limit, exactness=exactness)
    if matched_before_limit is not None:
        matched = _uint(matched_before_limit, _UINT64_MAX, "matched_before_limit")
        cardinality.matched_before_limit = matched
        cardinality.truncated = returned < matched
    else:
        cardinality.truncated = limit > 0 and returned >= limit
    coverage = common_pb2.Coverage(
        read_path=read_path,
        source_systems=list(source_systems),
        query_digest=query_digest(query),
        cardinality=cardinality,
        dimensions=common_pb2.CoverageDimensions(
            semantic=semantic,
            field=field,
            temporal=temporal,
            visibility=visibility,
            normalization=normalization,
        ),
        outcome=outcome,
        verifier=verifier if verifier is not None else common_pb2.Verifier(),
        snapshot_version=snapshot_version,
    )
    return seal(coverage)


def ranked_recall_coverage(
    *,
    read_path: str,
    source_systems: Sequence[str],
    query: Mapping[str, object] | str,
    returned: int,
    limit: int,
    windowed: bool,
    excludes_session: bool,
    snapshot_version: str,
) -> common_pb2.Coverage:
    """Coverage of ranked episodic recall. The journal's SearchEpisodes and the
    resident index share these rules, so both paths describe a query alike:
    no total is known and nearest neighbours have no notion of "every
    meaning-equivalent row" (semantic UNKNOWN); user and assistant text are
    both searched (field COMPLETE); a time window or an excluded session hides
    part of the subject on purpose (PARTIAL); stemming and embeddings unify
    some word variants, not provably all (normalization PARTIAL)."""
    partial, complete = common_pb2.DIMENSION_STATE_PARTIAL, common_pb2.DIMENSION_STATE_COMPLETE
    return build_coverage(
        read_path=read_path,
        source_systems=source_systems,
        query=query,
        returned=returned,
        limit=limit,
        matched_before_limit=None,
        exactness=common_pb2.EXACTNESS_UNKNOWN,
        semantic=common_pb2.DIMENSION_STATE_UNKNOWN,
        field=complete,
        temporal=partial if windowed else complete,
        visibility=partial if excludes_session else complete,
        normalization=partial,
        snapshot_version=snapshot_version,
    )


def replica_coverage(
    coverage: common_pb2.Coverage, *, standby_source: str, caught_up: bool
) -> common_pb2.Coverage:
    """A read path's sealed coverage for a read served by a streaming standby.

    ``standby_source`` is appended to the source systems (it names the standby
    and what it had replayed). Unless the standby had replayed everything the
    primary had committed when the request started (``caught_up``), temporal
    coverage becomes PARTIAL: the read is complete only through the standby's
    replay time, never for the span after it, so by row 9 of the derivation an
    empty result can no longer be ABSENT_AUTHORITATIVE. Resealed with a new
    ``computed_at``; only weakens (PARTIAL and UNKNOWN stay as they are).
    """
    validate(coverage)
    narrowed = common_pb2.Coverage()
    narrowed.CopyFrom(coverage)
    narrowed.ClearField("digest")
    narrowed.ClearField("computed_at")
    narrowed.source_systems.append(standby_source)
    if not caught_up and narrowed.dimensions.temporal == _COMPLETE:
        narrowed.dimensions.temporal = _PARTIAL
    return seal(narrowed)


def unavailable_coverage(
    read_path: str,
    source_systems: Sequence[str],
    query: Mapping[str, object] | str,
    *,
    failed: bool = False,
    not_searched: bool = False,
) -> common_pb2.Coverage:
    """Sealed coverage for a source that was unreachable, failed or not searched.

    Outcome UNAVAILABLE by default, FAILED with ``failed=True``, NOT_SEARCHED with
    ``not_searched=True`` (both together is a ``ValueError``). Nothing was returned and
    nothing is known: exactness and every dimension are UNKNOWN.
    """
    if failed and not_searched:
        raise ValueError("a source cannot both have failed and not have been searched")
    if failed:
        outcome = common_pb2.SEARCH_OUTCOME_FAILED
    elif not_searched:
        outcome = common_pb2.SEARCH_OUTCOME_NOT_SEARCHED
    else:
        outcome = common_pb2.SEARCH_OUTCOME_UNAVAILABLE
    return build_coverage(
        read_path=read_path,
        source_systems=source_systems,
        query=query,
        returned=0,
        limit=0,
        matched_before_limit=None,
        exactness=_EXACTNESS_UNKNOWN,
        semantic=_DIM_UNKNOWN,
        field=_DIM_UNKNOWN,
        temporal=_DIM_UNKNOWN,
        visibility=_DIM_UNKNOWN,
        normalization=_DIM_UNKNOWN,
        outcome=outcome,
    )


# ------------------------------------------------------------------------ derivation

_OUTCOME_STATES: dict[int, AbsenceStateT] = {
    common_pb2.SEARCH_OUTCOME_UNAVAILABLE: common_pb2.ABSENCE_STATE_UNAVAILABLE,
    common_pb2.SEARCH_OUTCOME_FAILED: common_pb2.ABSENCE_STATE_FAILED,
    common_pb2.SEARCH_OUTCOME_NOT_SEARCHED: common_pb2.ABSENCE_STATE_NOT_SEARCHED,
}


def derive_absence(coverage: common_pb2.Coverage, hit_count: int) -> AbsenceStateT:
    """Derive the absence state (table in the module docstring). Never raises:
    an invalid seal or invariant yields ABSENCE_STATE_FAILED."""
    try:
        validate(coverage)
    except CoverageContractError:
        return common_pb2.ABSENCE_STATE_FAILED
    if hit_count < 0:
        return common_pb2.ABSENCE_STATE_FAILED
    if coverage.outcome in _OUTCOME_STATES:
        return _OUTCOME_STATES[coverage.outcome]
    card = coverage.cardinality
    has_matched = card.HasField("matched_before_limit")
    if hit_count > 0 or (has_matched and card.matched_before_limit > 0):
        return common_pb2.ABSENCE_STATE_NOT_ABSENT
    ver = coverage.verifier
    if ver.ran and not ver.agrees:
        return common_pb2.ABSENCE_STATE_COVERAGE_DISAGREEMENT
    if card.exactness != _EXACT or not has_matched:
        return common_pb2.ABSENCE_STATE_COVERAGE_UNKNOWN
    dims = [_dimension(coverage, name) for name in _DIMENSIONS]
    if _DIM_UNKNOWN in dims:
        return common_pb2.ABSENCE_STATE_COVERAGE_UNKNOWN
    if all(d == _COMPLETE for d in dims) and ver.ran and ver.agrees:
        return common_pb2.ABSENCE_STATE_ABSENT_AUTHORITATIVE
    return common_pb2.ABSENCE_STATE_ABSENT_IN_SCOPE


def licenses_corpus_wide_negative(state: AbsenceStateT) -> bool:
    """True only for ABSENT_AUTHORITATIVE ("you never told me X")."""
    return state == common_pb2.ABSENCE_STATE_ABSENT_AUTHORITATIVE


def licenses_query_scoped_negative(state: AbsenceStateT) -> bool:
    """True for ABSENT_AUTHORITATIVE or ABSENT_IN_SCOPE ("I couldn't find X in ...")."""
    return state in (
        common_pb2.ABSENCE_STATE_ABSENT_AUTHORITATIVE,
        common_pb2.ABSENCE_STATE_ABSENT_IN_SCOPE,
    )


# ---------------------------------------------------------------------- description

_OUTCOME_TEXT: dict[int, str] = {
    common_pb2.SEARCH_OUTCOME_UNAVAILABLE: "unavailable: nothing was searched",
    common_pb2.SEARCH_OUTCOME_FAILED: "search failed: no usable results",
    common_pb2.SEARCH_OUTCOME_NOT_SEARCHED: "not searched",
}


def _counts(card: common_pb2.Cardinality) -> str:
    rows = "row" if card.returned == 1 else "rows"
    if not card.HasField("matched_before_limit"):
        limit_note = " (limit reached)" if card.limit > 0 and card.returned >= card.limit else ""
        return f"{card.returned} {rows} returned{limit_note}, total unknown"
    about = "~" if card.exactness == _ESTIMATED else ""
    text = f"{card.returned} of {about}{card.matched_before_limit} {rows} returned"
    return text + (" (truncated)" if card.truncated else "")


def describe(coverage: common_pb2.Coverage, hit_count: int) -> str:
    """One short human sentence about what was searched, for fallback texts."""
    name = coverage.read_path or "unnamed read path"
    state = derive_absence(coverage, hit_count)
    if state == common_pb2.ABSENCE_STATE_FAILED and coverage.outcome == _SEARCHED:
        return f"{name}: coverage seal invalid, result cannot be trusted"
    if coverage.outcome in _OUTCOME_TEXT:
        return f"{name} {_OUTCOME_TEXT[coverage.outcome]}"
    if state == common_pb2.ABSENCE_STATE_FAILED:  # invalid seal with a non-search outcome
        return f"{name}: coverage seal invalid, result cannot be trusted"

    parts = [f"searched {name}: {_counts(coverage.cardinality)}"]
    notes = [
        f"{dim} coverage {'unknown' if value == _DIM_UNKNOWN else 'partial'}"
        for dim in _DIMENSIONS
        if (value := _dimension(coverage, dim)) in (_DIM_UNKNOWN, _PARTIAL)
    ]
    parts.extend(notes)
    ver = coverage.verifier
    if state == common_pb2.ABSENCE_STATE_COVERAGE_DISAGREEMENT:
        parts.append(f"verifier counted {ver.count} and disagrees")
    elif state == common_pb2.ABSENCE_STATE_ABSENT_AUTHORITATIVE:
        parts.append("verified absent")
    elif state == common_pb2.ABSENCE_STATE_ABSENT_IN_SCOPE:
        parts.append("nothing found in this scope")
    elif state == common_pb2.ABSENCE_STATE_COVERAGE_UNKNOWN and hit_count == 0:
        parts.append("absence not established")
    return "; ".join(parts)

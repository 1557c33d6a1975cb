"""Tests for engram.coverage: the DIGEST RULE, invariants and the absence derivation.

The digest is pinned by a hand-written canonical byte string (the cross-language
vector, also shipped as tests/fixtures/coverage_golden.json for other clients) and by
a strict parser in this file that decodes canonical bytes back into fields, which
shows the encoding is injective for every generated coverage.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import pytest
from google.protobuf import json_format
from google.protobuf.timestamp_pb2 import Timestamp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engram import coverage as cv
from engram.common.v1 import common_pb2 as pb
from engram.coverage import (
    CoverageContractError,
    build_coverage,
    canonical_bytes,
    compute_digest,
    derive_absence,
    describe,
    licenses_corpus_wide_negative,
    licenses_query_scoped_negative,
    query_digest,
    seal,
    unavailable_coverage,
    validate,
)

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "coverage_golden.json"

PROPS = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

DIMS = ("semantic", "field", "temporal", "visibility", "normalization")
UNKNOWN = pb.DIMENSION_STATE_UNKNOWN
COMPLETE = pb.DIMENSION_STATE_COMPLETE
PARTIAL = pb.DIMENSION_STATE_PARTIAL
UINT32 = 2**32
UINT64 = 2**64
ABSENT_STATES = (pb.ABSENCE_STATE_ABSENT_IN_SCOPE, pb.ABSENCE_STATE_ABSENT_AUTHORITATIVE)


# ------------------------------------------------------------------ golden vector


def golden_coverage() -> pb.Coverage:
    """The cross-language vector: exact count, truncated, every escape, non-ASCII."""
    return seal(
        pb.Coverage(
            read_path="journal.session_journal.v1",
            source_systems=["postgresql:journal.events", "pg:schéma\\tbl"],
            query_digest=query_digest({"session": "s-42", "terms": ["deploy"], "limit": 4}),
            cardinality=pb.Cardinality(
                returned=4,
                limit=4,
                matched_before_limit=47,
                truncated=True,
                exactness=pb.EXACTNESS_EXACT,
            ),
            dimensions=pb.CoverageDimensions(
                semantic=PARTIAL,
                field=COMPLETE,
                temporal=COMPLETE,
                visibility=COMPLETE,
                normalization=PARTIAL,
            ),
            outcome=pb.SEARCH_OUTCOME_SEARCHED,
            verifier=pb.Verifier(
                ran=True,
                read_path="journal.event_count.v1",
                source_system="postgresql:journal.event_counts",
                count=47,
                agrees=True,
            ),
            snapshot_version="wal:0/16B3748\nline2\r\U0001f9e0",
            computed_at=Timestamp(seconds=1767225600, nanos=5000),
        )
    )


GOLDEN_BYTES = (
    b"engram.coverage.v1\n"
    b"read_path=journal.session_journal.v1\n"
    b"source_systems=2\n"
    b"source_system=postgresql:journal.events\n"
    b"source_system=pg:sch\xc3\xa9ma\\\\tbl\n"
    b"query_digest=4e54e3811cbde9d432448a3ce88a45baa900a3007bbf329152151adf9b0486b6\n"
    b"returned=4\n"
    b"limit=4\n"
    b"matched_before_limit=47\n"
    b"truncated=true\n"
    b"exactness=EXACTNESS_EXACT\n"
    b"semantic=DIMENSION_STATE_PARTIAL\n"
    b"field=DIMENSION_STATE_COMPLETE\n"
    b"temporal=DIMENSION_STATE_COMPLETE\n"
    b"visibility=DIMENSION_STATE_COMPLETE\n"
    b"normalization=DIMENSION_STATE_PARTIAL\n"
    b"outcome=SEARCH_OUTCOME_SEARCHED\n"
    b"verifier_ran=true\n"
    b"verifier_read_path=journal.event_count.v1\n"
    b"verifier_source_system=postgresql:journal.event_counts\n"
    b"verifier_count=47\n"
    b"verifier_agrees=true\n"
    b"snapshot_version=wal:0/16B3748\\nline2\\r\xf0\x9f\xa7\xa0\n"
    b"computed_at=1767225600.000005000\n"
)
# Checked independently with Node's crypto over the fixture's canonical text.
GOLDEN_DIGEST = "f5aad01d20cbdb38a56de1c1fe5b4b6e299d47eaa0c5f8e2f8f64d32f16b6496"


def test_golden_vector_canonical_bytes_and_digest() -> None:
    cov = golden_coverage()
    assert canonical_bytes(cov) == GOLDEN_BYTES
    assert hashlib.sha256(GOLDEN_BYTES).hexdigest() == GOLDEN_DIGEST
    assert compute_digest(cov) == GOLDEN_DIGEST
    assert cov.digest == GOLDEN_DIGEST
    validate(cov)


def test_golden_query_digest_is_canonical_json() -> None:
    text = '{"limit":4,"session":"s-42","terms":["deploy"]}'
    expected = hashlib.sha256(text.encode()).hexdigest()
    assert query_digest({"terms": ["deploy"], "session": "s-42", "limit": 4}) == expected
    assert expected == "4e54e3811cbde9d432448a3ce88a45baa900a3007bbf329152151adf9b0486b6"
    # ensure_ascii=False: non-ASCII is hashed as UTF-8, not as \\u escapes.
    assert query_digest({"é": "ü"}) == hashlib.sha256('{"é":"ü"}'.encode()).hexdigest()
    assert query_digest("x") == hashlib.sha256(b'"x"').hexdigest()


def test_fixture_file_matches_rule_and_golden_vector() -> None:
    doc = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert doc["rule"] == cv.DIGEST_RULE_VERSION
    vectors = {v["name"]: v for v in doc["vectors"]}
    for vector in vectors.values():
        cov = json_format.ParseDict(vector["coverage"], pb.Coverage())
        assert canonical_bytes(cov) == vector["canonical"].encode("utf-8")
        assert compute_digest(cov) == vector["digest"] == cov.digest
        validate(cov)
    first = json_format.ParseDict(
        vectors["searched_exact_truncated_escaped"]["coverage"], pb.Coverage()
    )
    assert first == golden_coverage()
    assert vectors["searched_exact_truncated_escaped"]["digest"] == GOLDEN_DIGEST
    second = json_format.ParseDict(vectors["unavailable_all_unknown"]["coverage"], pb.Coverage())
    assert b"matched_before_limit=-\n" in canonical_bytes(second)
    assert derive_absence(second, 0) == pb.ABSENCE_STATE_UNAVAILABLE


# ----------------------------------------------------------------- strategies

_special = st.sampled_from(["\\", "\n", "\r", "n", "r", "=", "\\n", "é", "\U0001f9e0", "\x00"])
texts = st.lists(st.one_of(_special, st.characters(codec="utf-8")), max_size=8).map("".join)
nonempty_texts = texts.filter(bool)
dim_values = st.sampled_from([COMPLETE, COMPLETE, PARTIAL, UNKNOWN])


@st.composite
def raw_coverages(draw: st.DrawFn, *, empty_exact: bool = False) -> pb.Coverage:
    """Unsealed coverage whose fields satisfy every invariant.

    ``empty_exact`` pins a successful, exactly counted, empty search: the only region
    where the ABSENT_* states live, which uniform draws would rarely reach.
    """
    outcome = draw(
        st.sampled_from(
            [
                pb.SEARCH_OUTCOME_SEARCHED,
                pb.SEARCH_OUTCOME_SEARCHED,
                pb.SEARCH_OUTCOME_UNAVAILABLE,
                pb.SEARCH_OUTCOME_FAILED,
                pb.SEARCH_OUTCOME_NOT_SEARCHED,
            ]
        )
    )
    exactness = draw(
        st.sampled_from([pb.EXACTNESS_EXACT, pb.EXACTNESS_ESTIMATED, pb.EXACTNESS_UNKNOWN])
    )
    if empty_exact:
        outcome, exactness = pb.SEARCH_OUTCOME_SEARCHED, pb.EXACTNESS_EXACT
    returned = (
        0 if outcome != pb.SEARCH_OUTCOME_SEARCHED or empty_exact else draw(st.integers(0, 60))
    )
    limit = draw(st.one_of(st.just(0), st.integers(returned, UINT32 - 1).filter(bool)))
    card = pb.Cardinality(returned=returned, limit=limit, exactness=exactness)
    has_matched = exactness == pb.EXACTNESS_EXACT or (
        exactness == pb.EXACTNESS_ESTIMATED and draw(st.booleans())
    )
    if has_matched:
        # Bias towards the interesting edges: nothing matched, everything returned.
        matched = draw(st.one_of(st.just(returned), st.integers(returned, UINT64 - 1), st.just(0)))
        matched = 0 if empty_exact else max(matched, returned)
        card.matched_before_limit = matched
        card.truncated = returned < matched
    else:
        card.truncated = draw(st.booleans())
    verifier = pb.Verifier(ran=draw(st.booleans()))
    if verifier.ran:
        verifier.read_path = draw(texts)
        verifier.source_system = draw(texts)
        if has_matched and draw(st.booleans()):
            verifier.count = card.matched_before_limit
            verifier.agrees = True
        else:
            verifier.count = draw(st.integers(0, UINT64 - 1))
    cov = pb.Coverage(
        read_path=draw(nonempty_texts),
        source_systems=draw(st.lists(texts, max_size=4)),
        query_digest=draw(st.one_of(texts, st.binary(max_size=8).map(query_digest_of_bytes))),
        cardinality=card,
        dimensions=pb.CoverageDimensions(**{d: draw(dim_values) for d in DIMS}),
        outcome=outcome,
        verifier=verifier,
        snapshot_version=draw(texts),
    )
    if draw(st.integers(0, 9)):  # mostly explicit; sometimes let seal() stamp "now"
        cov.computed_at.seconds = draw(st.integers(0, 253402300799))
        cov.computed_at.nanos = draw(st.integers(0, 999_999_999))
    return cov


def query_digest_of_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


sealed_coverages = raw_coverages().map(seal)
empty_exact_coverages = raw_coverages(empty_exact=True).map(seal)


def copy(cov: pb.Coverage) -> pb.Coverage:
    out = pb.Coverage()
    out.CopyFrom(cov)
    return out


# -------------------------------------------------- strict decoder (injectivity)


def _unescape(value: str) -> str:
    out: list[str] = []
    chars = iter(value)
    for ch in chars:
        assert ch not in "\n\r", "raw LF/CR must never appear in a value"
        if ch == "\\":
            out.append({"\\": "\\", "n": "\n", "r": "\r"}[next(chars)])
        else:
            out.append(ch)
    return "".join(out)


def decode_canonical(data: bytes) -> tuple[object, ...]:
    """Parse canonical bytes back into the tuple :func:`fields_of` would produce."""
    lines = data.decode("utf-8").split("\n")
    assert lines[-1] == ""
    lines = lines[:-1]
    assert lines[0] == "engram.coverage.v1"
    pos = 1

    def take(key: str) -> str:
        nonlocal pos
        k, sep, v = lines[pos].partition("=")
        assert (k, sep) == (key, "=")
        pos += 1
        return v

    def num(v: str) -> int:
        assert v.isdigit() and (v == "0" or not v.startswith("0"))
        return int(v)

    def boolean(v: str) -> bool:
        assert v in ("true", "false")
        return v == "true"

    read_path = _unescape(take("read_path"))
    n = num(take("source_systems"))
    systems = tuple(_unescape(take("source_system")) for _ in range(n))
    qd = _unescape(take("query_digest"))
    returned, limit = num(take("returned")), num(take("limit"))
    m = take("matched_before_limit")
    matched = None if m == "-" else num(m)
    truncated = boolean(take("truncated"))
    exactness = pb.Exactness.Value(take("exactness"))
    dims = tuple(pb.DimensionState.Value(take(d)) for d in DIMS)
    outcome = pb.SearchOutcome.Value(take("outcome"))
    ver = (
        boolean(take("verifier_ran")),
        _unescape(take("verifier_read_path")),
        _unescape(take("verifier_source_system")),
        num(take("verifier_count")),
        boolean(take("verifier_agrees")),
    )
    snapshot = _unescape(take("snapshot_version"))
    secs, dot, nanos = take("computed_at").partition(".")
    assert dot == "." and len(nanos) == 9 and nanos.isdigit()
    assert pos == len(lines)
    return (
        read_path,
        systems,
        qd,
        (returned, limit, matched, truncated, exactness),
        dims,
        outcome,
        ver,
        snapshot,
        (num(secs), int(nanos)),
    )


def fields_of(cov: pb.Coverage) -> tuple[object, ...]:
    c, v = cov.cardinality, cov.verifier
    matched = c.matched_before_limit if c.HasField("matched_before_limit") else None
    return (
        cov.read_path,
        tuple(cov.source_systems),
        cov.query_digest,
        (c.returned, c.limit, matched, c.truncated, c.exactness),
        tuple(getattr(cov.dimensions, d) for d in DIMS),
        cov.outcome,
        (v.ran, v.read_path, v.source_system, v.count, v.agrees),
        cov.snapshot_version,
        (cov.computed_at.seconds, cov.computed_at.nanos),
    )


@PROPS
@given(sealed_coverages)
def test_canonical_bytes_decode_back_to_every_field(cov: pb.Coverage) -> None:
    # A lossless decoder exists, so distinct coverages cannot share canonical bytes.
    assert decode_canonical(canonical_bytes(cov)) == fields_of(cov)


# ------------------------------------------------------------- seal properties


@PROPS
@given(raw_coverages())
def test_seal_then_validate_passes_and_does_not_touch_input(raw: pb.Coverage) -> None:
    before = raw.SerializeToString(deterministic=True)
    sealed = seal(raw)
    assert raw.SerializeToString(deterministic=True) == before
    validate(sealed)
    assert sealed.digest == compute_digest(sealed)
    assert len(sealed.digest) == 64 and sealed.digest == sealed.digest.lower()
    assert sealed.HasField("computed_at")
    assert seal(sealed) == sealed  # resealing an intact coverage is idempotent


Mutation = Callable[[pb.Coverage, st.DataObject], bool]


_E = TypeVar("_E", bound=int)


def _other(values: Sequence[_E], current: _E, data: st.DataObject) -> _E:
    return data.draw(st.sampled_from([v for v in values if v != current]))


def _bump(value: int, modulus: int, data: st.DataObject) -> int:
    return (value + data.draw(st.integers(1, modulus - 1))) % modulus


def _set_dim(name: str) -> Mutation:
    def mutate(c: pb.Coverage, d: st.DataObject) -> bool:
        states = [pb.DIMENSION_STATE_UNSPECIFIED, COMPLETE, PARTIAL, UNKNOWN]
        setattr(c.dimensions, name, _other(states, getattr(c.dimensions, name), d))
        return True

    return mutate


def _remove_source(c: pb.Coverage, d: st.DataObject) -> bool:
    if not c.source_systems:
        return False
    del c.source_systems[d.draw(st.integers(0, len(c.source_systems) - 1))]
    return True


def _reorder_sources(c: pb.Coverage, d: st.DataObject) -> bool:
    s = list(c.source_systems)
    pairs = [(i, j) for i in range(len(s)) for j in range(i + 1, len(s)) if s[i] != s[j]]
    if not pairs:
        return False
    i, j = d.draw(st.sampled_from(pairs))
    s[i], s[j] = s[j], s[i]
    c.ClearField("source_systems")
    c.source_systems.extend(s)
    return True


def _edit_source(c: pb.Coverage, d: st.DataObject) -> bool:
    if not c.source_systems:
        return False
    i = d.draw(st.integers(0, len(c.source_systems) - 1))
    c.source_systems[i] += d.draw(nonempty_texts)
    return True


def _matched(c: pb.Coverage, d: st.DataObject) -> bool:
    card = c.cardinality
    if card.HasField("matched_before_limit") and d.draw(st.booleans()):
        card.ClearField("matched_before_limit")
    elif card.HasField("matched_before_limit"):
        card.matched_before_limit = _bump(card.matched_before_limit, UINT64, d)
    else:
        card.matched_before_limit = d.draw(st.integers(0, UINT64 - 1))
    return True


def _append(getter: Callable[[pb.Coverage], object], attr: str) -> Mutation:
    def mutate(c: pb.Coverage, d: st.DataObject) -> bool:
        target = getter(c)
        setattr(target, attr, getattr(target, attr) + d.draw(nonempty_texts))
        return True

    return mutate


def _flip(getter: Callable[[pb.Coverage], object], attr: str) -> Mutation:
    def mutate(c: pb.Coverage, d: st.DataObject) -> bool:
        target = getter(c)
        setattr(target, attr, not getattr(target, attr))
        return True

    return mutate


def _bump_int(getter: Callable[[pb.Coverage], object], attr: str, modulus: int) -> Mutation:
    def mutate(c: pb.Coverage, d: st.DataObject) -> bool:
        target = getter(c)
        setattr(target, attr, _bump(getattr(target, attr), modulus, d))
        return True

    return mutate


def _exactness(c: pb.Coverage, d: st.DataObject) -> bool:
    values = [
        pb.EXACTNESS_UNSPECIFIED,
        pb.EXACTNESS_EXACT,
        pb.EXACTNESS_ESTIMATED,
        pb.EXACTNESS_UNKNOWN,
    ]
    c.cardinality.exactness = _other(values, c.cardinality.exactness, d)
    return True


def _outcome(c: pb.Coverage, d: st.DataObject) -> bool:
    c.outcome = _other(list(pb.SearchOutcome.values()), c.outcome, d)
    return True


def _add_source(c: pb.Coverage, d: st.DataObject) -> bool:
    c.source_systems.insert(d.draw(st.integers(0, len(c.source_systems))), d.draw(texts))
    return True


def _seconds(c: pb.Coverage, d: st.DataObject) -> bool:
    c.computed_at.seconds = _bump(c.computed_at.seconds, 253402300800, d)
    return True


def _root(c: pb.Coverage) -> pb.Coverage:
    return c


def _card(c: pb.Coverage) -> pb.Cardinality:
    return c.cardinality


def _ver(c: pb.Coverage) -> pb.Verifier:
    return c.verifier


def _ts(c: pb.Coverage) -> Timestamp:
    return c.computed_at


MUTATIONS: dict[str, Mutation] = {
    "read_path": _append(_root, "read_path"),
    "source_systems.add": _add_source,
    "source_systems.remove": _remove_source,
    "source_systems.reorder": _reorder_sources,
    "source_systems.edit": _edit_source,
    "query_digest": _append(_root, "query_digest"),
    "returned": _bump_int(_card, "returned", UINT32),
    "limit": _bump_int(_card, "limit", UINT32),
    "matched_before_limit": _matched,
    "truncated": _flip(_card, "truncated"),
    "exactness": _exactness,
    **{f"dimensions.{name}": _set_dim(name) for name in DIMS},
    "outcome": _outcome,
    "verifier.ran": _flip(_ver, "ran"),
    "verifier.read_path": _append(_ver, "read_path"),
    "verifier.source_system": _append(_ver, "source_system"),
    "verifier.count": _bump_int(_ver, "count", UINT64),
    "verifier.agrees": _flip(_ver, "agrees"),
    "snapshot_version": _append(_root, "snapshot_version"),
    "computed_at.seconds": _seconds,
    "computed_at.nanos": _bump_int(_ts, "nanos", 1_000_000_000),
}


@PROPS
@given(sealed_coverages, st.data())
def test_mutating_any_single_field_breaks_the_seal(cov: pb.Coverage, data: st.DataObject) -> None:
    for name, mutate in MUTATIONS.items():
        tampered = copy(cov)
        if not mutate(tampered, data):
            continue
        assert tampered != cov, name
        assert compute_digest(tampered) != cov.digest, name
        with pytest.raises(CoverageContractError):
            validate(tampered)
        assert derive_absence(tampered, data.draw(st.integers(0, 5))) == (
            pb.ABSENCE_STATE_FAILED
        ), name
        with pytest.raises(CoverageContractError):  # and it cannot be laundered
            seal(tampered)


@PROPS
@given(sealed_coverages, st.data())
def test_tampered_or_missing_digest_fails(cov: pb.Coverage, data: st.DataObject) -> None:
    tampered = copy(cov)
    i = data.draw(st.integers(0, 63))
    tampered.digest = cov.digest[:i] + ("0" if cov.digest[i] != "0" else "1") + cov.digest[i + 1 :]
    missing = copy(cov)
    missing.ClearField("digest")
    upper = copy(cov)
    upper.digest = cov.digest.upper()
    for bad in (tampered, missing, upper):
        with pytest.raises(CoverageContractError):
            validate(bad)
        assert derive_absence(bad, 0) == pb.ABSENCE_STATE_FAILED


def test_four_of_47_truncated_rewritten_as_four_of_four_complete_breaks_seal() -> None:
    cov = build_coverage(
        read_path="journal.session_journal.v1",
        source_systems=["postgresql:journal.events"],
        query={"terms": ["deploy"]},
        returned=4,
        limit=4,
        matched_before_limit=47,
        exactness=pb.EXACTNESS_EXACT,
        semantic=COMPLETE,
        field=COMPLETE,
        temporal=COMPLETE,
        visibility=COMPLETE,
        normalization=COMPLETE,
    )
    assert cov.cardinality.truncated
    forged = copy(cov)
    forged.cardinality.matched_before_limit = 4
    forged.cardinality.truncated = False
    cv._check_invariants(forged)  # the forgery is internally consistent...
    with pytest.raises(CoverageContractError, match="digest"):
        validate(forged)  # ...but the seal catches it
    assert derive_absence(forged, 4) == pb.ABSENCE_STATE_FAILED


# ------------------------------------------------------------------ invariants


def _valid_raw() -> pb.Coverage:
    return pb.Coverage(
        read_path="journal.session_journal.v1",
        source_systems=["postgresql:journal.events"],
        query_digest=query_digest({"q": 1}),
        cardinality=pb.Cardinality(
            returned=4, limit=10, matched_before_limit=4, exactness=pb.EXACTNESS_EXACT
        ),
        dimensions=pb.CoverageDimensions(**dict.fromkeys(DIMS, COMPLETE)),
        outcome=pb.SEARCH_OUTCOME_SEARCHED,
        computed_at=Timestamp(seconds=1767225600),
    )


def _returned_over_limit(c: pb.Coverage) -> None:
    c.cardinality.limit = 3


def _returned_over_matched(c: pb.Coverage) -> None:
    c.cardinality.matched_before_limit = 3
    c.cardinality.truncated = False


def _truncated_but_complete(c: pb.Coverage) -> None:
    c.cardinality.truncated = True


def _complete_but_truncated(c: pb.Coverage) -> None:
    c.cardinality.matched_before_limit = 47  # truncated stays False


def _exact_without_matched(c: pb.Coverage) -> None:
    c.cardinality.ClearField("matched_before_limit")


def _unknown_with_matched(c: pb.Coverage) -> None:
    c.cardinality.exactness = pb.EXACTNESS_UNKNOWN


def _exactness_unspecified(c: pb.Coverage) -> None:
    c.cardinality.exactness = pb.EXACTNESS_UNSPECIFIED


def _outcome_unspecified(c: pb.Coverage) -> None:
    c.outcome = pb.SEARCH_OUTCOME_UNSPECIFIED


def _agrees_without_ran(c: pb.Coverage) -> None:
    c.verifier.agrees = True
    c.verifier.count = 4


def _agrees_with_other_count(c: pb.Coverage) -> None:
    c.verifier.ran = True
    c.verifier.agrees = True
    c.verifier.count = 5


def _agrees_without_matched(c: pb.Coverage) -> None:
    c.cardinality.exactness = pb.EXACTNESS_ESTIMATED
    c.cardinality.ClearField("matched_before_limit")
    c.verifier.ran = True
    c.verifier.agrees = True


def _unavailable_with_rows(c: pb.Coverage) -> None:
    c.outcome = pb.SEARCH_OUTCOME_UNAVAILABLE


def _empty_read_path(c: pb.Coverage) -> None:
    c.read_path = ""


def _dim_unspecified(name: str) -> Callable[[pb.Coverage], None]:
    def violate(c: pb.Coverage) -> None:
        setattr(c.dimensions, name, pb.DIMENSION_STATE_UNSPECIFIED)

    return violate


def _missing_dimensions(c: pb.Coverage) -> None:
    c.ClearField("dimensions")


VIOLATIONS: dict[str, Callable[[pb.Coverage], None]] = {
    "returned>limit": _returned_over_limit,
    "returned>matched": _returned_over_matched,
    "truncated but returned==matched": _truncated_but_complete,
    "not truncated but returned<matched": _complete_but_truncated,
    "EXACT without matched": _exact_without_matched,
    "UNKNOWN with matched": _unknown_with_matched,
    "exactness UNSPECIFIED": _exactness_unspecified,
    "outcome UNSPECIFIED": _outcome_unspecified,
    "agrees without ran": _agrees_without_ran,
    "agrees with different count": _agrees_with_other_count,
    "agrees without matched": _agrees_without_matched,
    "UNAVAILABLE with rows": _unavailable_with_rows,
    "empty read_path": _empty_read_path,
    "dimensions missing": _missing_dimensions,
    **{f"{name} UNSPECIFIED": _dim_unspecified(name) for name in DIMS},
}


def test_valid_base_for_violations_is_valid() -> None:
    validate(seal(_valid_raw()))


@pytest.mark.parametrize("name", sorted(VIOLATIONS))
def test_each_invariant_violation_raises_even_with_correct_digest(name: str) -> None:
    cov = _valid_raw()
    VIOLATIONS[name](cov)
    with pytest.raises(CoverageContractError):
        seal(cov)
    cov.digest = compute_digest(cov)  # a correct seal over invalid contents
    with pytest.raises(CoverageContractError):
        validate(cov)
    assert derive_absence(cov, 0) == pb.ABSENCE_STATE_FAILED


@pytest.mark.parametrize(
    ("field", "value"),
    [("outcome", 99), ("exactness", 99), ("semantic", 99), ("seconds", -1), ("nanos", -1)],
)
def test_values_without_canonical_form_are_rejected(field: str, value: int) -> None:
    cov = _valid_raw()
    target: object = {
        "outcome": cov,
        "exactness": cov.cardinality,
        "semantic": cov.dimensions,
        "seconds": cov.computed_at,
        "nanos": cov.computed_at,
    }[field]
    setattr(target, field, value)
    with pytest.raises(CoverageContractError):
        compute_digest(cov)
    with pytest.raises(CoverageContractError):
        seal(cov)
    cov.digest = "0" * 64
    assert derive_absence(cov, 0) == pb.ABSENCE_STATE_FAILED


def test_seal_refuses_to_launder_a_broken_digest_but_reseals_after_clear() -> None:
    cov = seal(_valid_raw())
    cov.snapshot_version = "edited"
    with pytest.raises(CoverageContractError, match="re-seal"):
        seal(cov)
    cov.ClearField("digest")
    validate(seal(cov))


def test_seal_stamps_computed_at_only_when_unset() -> None:
    raw = _valid_raw()
    raw.ClearField("computed_at")
    sealed = seal(raw)
    assert sealed.computed_at.seconds > 1_700_000_000
    assert not raw.HasField("computed_at")
    assert seal(_valid_raw()).computed_at == Timestamp(seconds=1767225600)


# ------------------------------------------------------------------- escaping


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("a\nb", "a\\nb"),
        ("a\rb", "a\\rb"),
        ("a\\", "a\\\\"),
        ("a\\nb", "a\\\\nb"),
        ("\r\n", "\\r\\n"),
        ("é", "e\u0301"),
        ("\U0001f9e0", "\\U0001f9e0"),
        ("a", "a\x00"),
    ],
)
def test_escaping_is_unambiguous(a: str, b: str) -> None:
    def with_value(s: str) -> list[pb.Coverage]:
        out = []
        for setter in (
            lambda c: setattr(c, "read_path", "rp" + s),
            lambda c: c.source_systems.append(s),
            lambda c: setattr(c, "snapshot_version", s),
            lambda c: setattr(c.verifier, "read_path", s),
        ):
            c = _valid_raw()
            setter(c)
            out.append(c)
        return out

    for ca, cb in zip(with_value(a), with_value(b), strict=True):
        assert canonical_bytes(ca) != canonical_bytes(cb)
        assert compute_digest(ca) != compute_digest(cb)
        assert b"\r" not in canonical_bytes(ca) + canonical_bytes(cb)


def test_escapes_are_exactly_two_characters() -> None:
    c = _valid_raw()
    c.snapshot_version = "\\\n\r\té"
    assert b"snapshot_version=\\\\\\n\\r\t\xc3\xa9\n" in canonical_bytes(c)


def test_line_injection_via_source_system_is_impossible() -> None:
    one = _valid_raw()
    one.ClearField("source_systems")
    one.source_systems.append("a\nsource_system=b")
    two = _valid_raw()
    two.ClearField("source_systems")
    two.source_systems.extend(["a", "b"])
    assert compute_digest(one) != compute_digest(two)


@PROPS
@given(texts, texts)
def test_distinct_strings_give_distinct_digests(a: str, b: str) -> None:
    ca, cb = _valid_raw(), _valid_raw()
    ca.snapshot_version, cb.snapshot_version = a, b
    assert (compute_digest(ca) == compute_digest(cb)) == (a == b)


# ------------------------------------------------------------------ derivation


@PROPS
@given(
    st.one_of(sealed_coverages, empty_exact_coverages),
    st.one_of(st.just(0), st.integers(0, 100)),
)
def test_derivation_properties(cov: pb.Coverage, hits: int) -> None:
    state = derive_absence(cov, hits)
    card, ver = cov.cardinality, cov.verifier
    dims = [getattr(cov.dimensions, d) for d in DIMS]
    if state == pb.ABSENCE_STATE_ABSENT_AUTHORITATIVE:
        assert ver.ran and ver.agrees
        assert all(d == COMPLETE for d in dims)
        assert card.exactness == pb.EXACTNESS_EXACT and card.matched_before_limit == 0
        assert ver.count == 0
    if state in ABSENT_STATES:
        assert hits == 0 and cov.outcome == pb.SEARCH_OUTCOME_SEARCHED
        assert card.HasField("matched_before_limit") and card.matched_before_limit == 0
        assert UNKNOWN not in dims
    if cov.outcome == pb.SEARCH_OUTCOME_UNAVAILABLE:
        assert state == pb.ABSENCE_STATE_UNAVAILABLE
    if cov.outcome == pb.SEARCH_OUTCOME_FAILED:
        assert state == pb.ABSENCE_STATE_FAILED
    if cov.outcome == pb.SEARCH_OUTCOME_NOT_SEARCHED:
        assert state == pb.ABSENCE_STATE_NOT_SEARCHED
    if cov.dimensions.semantic == UNKNOWN:
        assert state not in ABSENT_STATES
        assert not licenses_query_scoped_negative(state)
    if hits > 0 and cov.outcome == pb.SEARCH_OUTCOME_SEARCHED:
        assert state == pb.ABSENCE_STATE_NOT_ABSENT
    if state == pb.ABSENCE_STATE_COVERAGE_DISAGREEMENT:
        assert ver.ran and not ver.agrees
    assert licenses_corpus_wide_negative(state) == (state == pb.ABSENCE_STATE_ABSENT_AUTHORITATIVE)
    assert licenses_query_scoped_negative(state) == (state in ABSENT_STATES)
    assert isinstance(describe(cov, hits), str) and describe(cov, hits)


@PROPS
@given(st.one_of(raw_coverages(empty_exact=True), raw_coverages()))
def test_ranked_semantic_recall_never_licenses_a_negative(raw: pb.Coverage) -> None:
    raw.dimensions.semantic = UNKNOWN
    state = derive_absence(seal(raw), 0)
    assert state not in ABSENT_STATES
    assert not licenses_query_scoped_negative(state)
    assert not licenses_corpus_wide_negative(state)


@PROPS
@given(sealed_coverages)
def test_negative_hit_count_fails(cov: pb.Coverage) -> None:
    assert derive_absence(cov, -1) == pb.ABSENCE_STATE_FAILED


def _empty(**overrides: object) -> pb.Coverage:
    kwargs: dict[str, object] = {
        "read_path": "journal.session_journal.v1",
        "source_systems": ["postgresql:journal.events"],
        "query": {"terms": ["x"]},
        "returned": 0,
        "limit": 10,
        "matched_before_limit": 0,
        "exactness": pb.EXACTNESS_EXACT,
        **dict.fromkeys(DIMS, COMPLETE),
    }
    kwargs.update(overrides)
    return build_coverage(**kwargs)  # type: ignore[arg-type]


AGREEING = pb.Verifier(ran=True, read_path="v", source_system="s", count=0, agrees=True)
DISAGREEING = pb.Verifier(ran=True, read_path="v", source_system="s", count=3)


@pytest.mark.parametrize(
    ("cov", "hits", "expected"),
    [
        (_empty(verifier=AGREEING), 0, pb.ABSENCE_STATE_ABSENT_AUTHORITATIVE),
        (_empty(), 0, pb.ABSENCE_STATE_ABSENT_IN_SCOPE),
        (_empty(normalization=PARTIAL, verifier=AGREEING), 0, pb.ABSENCE_STATE_ABSENT_IN_SCOPE),
        (_empty(verifier=DISAGREEING), 0, pb.ABSENCE_STATE_COVERAGE_DISAGREEMENT),
        (_empty(semantic=UNKNOWN, verifier=AGREEING), 0, pb.ABSENCE_STATE_COVERAGE_UNKNOWN),
        (
            _empty(exactness=pb.EXACTNESS_ESTIMATED, verifier=AGREEING),
            0,
            pb.ABSENCE_STATE_COVERAGE_UNKNOWN,
        ),
        (
            _empty(exactness=pb.EXACTNESS_UNKNOWN, matched_before_limit=None),
            0,
            pb.ABSENCE_STATE_COVERAGE_UNKNOWN,
        ),
        (_empty(returned=2, matched_before_limit=2), 2, pb.ABSENCE_STATE_NOT_ABSENT),
        (_empty(returned=2, matched_before_limit=2), 0, pb.ABSENCE_STATE_NOT_ABSENT),
        (_empty(matched_before_limit=5, verifier=DISAGREEING), 0, pb.ABSENCE_STATE_NOT_ABSENT),
        (unavailable_coverage("j", ["pg"], "q"), 0, pb.ABSENCE_STATE_UNAVAILABLE),
        (unavailable_coverage("j", ["pg"], "q", failed=True), 0, pb.ABSENCE_STATE_FAILED),
        (
            unavailable_coverage("j", ["pg"], "q", not_searched=True),
            0,
            pb.ABSENCE_STATE_NOT_SEARCHED,
        ),
    ],
)
def test_derivation_table(cov: pb.Coverage, hits: int, expected: int) -> None:
    assert derive_absence(cov, hits) == expected


def test_license_helpers() -> None:
    for state in pb.AbsenceState.values():
        assert licenses_corpus_wide_negative(state) == (
            state == pb.ABSENCE_STATE_ABSENT_AUTHORITATIVE
        )
        assert licenses_query_scoped_negative(state) == (state in ABSENT_STATES)


# ---------------------------------------------------------------- construction


def test_build_coverage_truncation_and_query_digest() -> None:
    cov = _empty(returned=4, limit=4, matched_before_limit=47, snapshot_version="w1")
    assert cov.cardinality.truncated
    assert cov.query_digest == query_digest({"terms": ["x"]})
    assert cov.snapshot_version == "w1"
    validate(cov)
    unknown_total = _empty(
        returned=10, limit=10, matched_before_limit=None, exactness=pb.EXACTNESS_UNKNOWN
    )
    assert unknown_total.cardinality.truncated  # limit reached, more may exist
    assert not unknown_total.cardinality.HasField("matched_before_limit")
    under_limit = _empty(
        returned=3, limit=10, matched_before_limit=None, exactness=pb.EXACTNESS_UNKNOWN
    )
    assert not under_limit.cardinality.truncated


@pytest.mark.parametrize(
    "overrides",
    [
        {"returned": -1},
        {"limit": UINT32},
        {"matched_before_limit": -1},
        {"matched_before_limit": UINT64},
        {"returned": 11},  # > limit
        {"read_path": ""},
        {"semantic": pb.DIMENSION_STATE_UNSPECIFIED},
    ],
)
def test_build_coverage_rejects_bad_input(overrides: dict[str, object]) -> None:
    with pytest.raises(CoverageContractError):
        _empty(**overrides)


def test_build_coverage_rejects_bare_string_sources_and_non_json_query() -> None:
    with pytest.raises(TypeError):
        _empty(source_systems="postgresql")
    with pytest.raises(TypeError):
        _empty(query={"x": object()})
    with pytest.raises(ValueError):
        _empty(query={"x": float("nan")})


@pytest.mark.parametrize(
    ("kwargs", "outcome"),
    [
        ({}, pb.SEARCH_OUTCOME_UNAVAILABLE),
        ({"failed": True}, pb.SEARCH_OUTCOME_FAILED),
        ({"not_searched": True}, pb.SEARCH_OUTCOME_NOT_SEARCHED),
    ],
)
def test_unavailable_coverage(kwargs: dict[str, bool], outcome: int) -> None:
    cov = unavailable_coverage("journal.session_journal.v1", ["pg:journal"], {"q": 1}, **kwargs)
    validate(cov)
    assert cov.outcome == outcome
    assert cov.cardinality.returned == 0
    assert cov.cardinality.exactness == pb.EXACTNESS_UNKNOWN
    assert not cov.cardinality.HasField("matched_before_limit")
    assert all(getattr(cov.dimensions, d) == UNKNOWN for d in DIMS)
    assert list(cov.source_systems) == ["pg:journal"]


def test_unavailable_coverage_rejects_both_flags() -> None:
    with pytest.raises(ValueError):
        unavailable_coverage("j", [], "q", failed=True, not_searched=True)


# -------------------------------------------------------------------- describe


def test_describe_sentences() -> None:
    truncated = _empty(
        read_path="journal.session_journal.v1",
        returned=4,
        limit=4,
        matched_before_limit=47,
        semantic=UNKNOWN,
    )
    assert describe(truncated, 4) == (
        "searched journal.session_journal.v1: 4 of 47 rows returned (truncated); "
        "semantic coverage unknown"
    )
    assert describe(unavailable_coverage("journal", [], "q"), 0) == (
        "journal unavailable: nothing was searched"
    )
    assert describe(unavailable_coverage("journal", [], "q", not_searched=True), 0) == (
        "journal not searched"
    )
    assert describe(_empty(read_path="j", verifier=AGREEING), 0) == (
        "searched j: 0 of 0 rows returned; verified absent"
    )
    assert describe(_empty(read_path="j", normalization=PARTIAL), 0) == (
        "searched j: 0 of 0 rows returned; normalization coverage partial; "
        "nothing found in this scope"
    )
    ranked = _empty(
        read_path="r",
        returned=0,
        matched_before_limit=None,
        exactness=pb.EXACTNESS_UNKNOWN,
        semantic=UNKNOWN,
    )
    assert describe(ranked, 0) == (
        "searched r: 0 rows returned, total unknown; semantic coverage unknown; "
        "absence not established"
    )
    tampered = copy(truncated)
    tampered.cardinality.returned = 3
    assert "seal invalid" in describe(tampered, 3)

"""Score the truthfulness gate on frozen text batches (blind ones are the headline).

Usage:
    python bench/gate_eval.py [--batch DIR] [--json OUT] [--model PATH]

For every text of ``absence_*.jsonl``, ``obfuscated.jsonl`` and ``recollection.jsonl``
under DIR (default: the newest *reported* batch, :data:`REPORTED_BATCHES`; a folder
still being written is never listed or read) the gate decides on
attempt 1 against evidence built for the test:

* **block-recall** -- a labelled absence claim under a state that licenses neither
  scope (COVERAGE_UNKNOWN over a search for the claim's own topic) must not be
  released; the same under ABSENT_IN_SCOPE for corpus-wide claims;
* **scope** -- under ABSENT_IN_SCOPE a query-scoped claim is released (not counted in
  the targets, reported for information);
* **false blocks** -- a benign text is released under both states;
* **recollection** -- a labelled recollection with no supporting record must not be
  released; with its supporting record in the context it must be released; with only
  another recollection's record (the next one of its language) it must not be; a benign
  text with no record must be released.

"Blocked" means not released on attempt 1 for the batch's own kind of claim (absence
batches: an unlicensed absence; recollection batch: an unsupported recollection); an
unsure clause that asks for a regeneration counts as a block in both, so its cost shows
in the false blocks.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engram.common.v1 import common_pb2  # noqa: E402
from gateway.claim_model import ClaimClassifier  # noqa: E402
from gateway.evidence import ContextEvidence, SectionEvidence  # noqa: E402
from gateway.gate import Reason, Verdict, decide  # noqa: E402

BLIND = ROOT / "tests" / "gate_eval" / "blind"
_UNKNOWN = common_pb2.ABSENCE_STATE_COVERAGE_UNKNOWN
_IN_SCOPE = common_pb2.ABSENCE_STATE_ABSENT_IN_SCOPE
_NOT_ABSENT = common_pb2.ABSENCE_STATE_NOT_ABSENT


Item = dict[str, Any]


def terms_of(item: Item, key: str) -> str:
    return " ".join(str(t) for t in item.get(key) or [])


def load(path: Path) -> list[Item]:
    return [json.loads(line) for line in path.read_text("utf-8").split("\n") if line.strip()]


def evidence(state: int, query: str, records: Iterable[str] = ()) -> ContextEvidence:
    hits = 1 if state == _NOT_ABSENT else 0
    return ContextEvidence.build(
        sections=(SectionEvidence("episodic_recall", state, common_pb2.Coverage(), hits),),
        query_text=query,
        rendered_records=tuple(records),
    )


_ABSENCE_REASONS = frozenset({Reason.UNLICENSED_ABSENCE, Reason.UNSURE_CLAIM})
_RECOLLECTION_REASONS = frozenset({Reason.UNSUPPORTED_RECOLLECTION, Reason.UNSURE_CLAIM})


def blocked(
    ev: ContextEvidence,
    text: str,
    reasons: frozenset[Reason] = _ABSENCE_REASONS,
    model: ClaimClassifier | None = None,
) -> bool:
    """Not released on attempt 1 for one of ``reasons`` (the batch's own kind of claim)."""
    decision = decide(ev, text, attempt=1, model=model)
    if decision.verdict is Verdict.RELEASE:
        return False
    return any(v.reason in reasons for v in decision.violations)


@dataclass
class Tally:
    hit: int = 0
    total: int = 0

    def add(self, ok: bool) -> None:
        self.hit += int(ok)
        self.total += 1

    @property
    def rate(self) -> float:
        return self.hit / self.total if self.total else float("nan")

    def __str__(self) -> str:
        return f"{self.rate:.3f} ({self.hit}/{self.total})"


@dataclass
class Report:
    tallies: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    misses: list[str] = field(default_factory=list)

    def add(self, key: str, ok: bool, item: Item, why: str) -> None:
        """Count ``ok`` under ``key``; list the item among the misses when it went wrong
        (a false-block tally counts the blocked benign texts, so those are its misses)."""
        self.tallies[key].add(ok)
        if ok if key.endswith("false_block") else not ok:
            self.misses.append(f"{key}\t{item['id']}\t{why}\t{item['text']!s:.160}")


def score_absence(
    items: list[Item], report: Report, prefix: str, model: ClaimClassifier | None = None
) -> None:
    for item in items:
        text = str(item["text"])
        label = str(item["label"])
        lang = str(item["lang"])
        query = terms_of(item, "topic_terms") or text[:80]
        unknown = blocked(evidence(_UNKNOWN, query), text, model=model)
        in_scope = blocked(evidence(_IN_SCOPE, query), text, model=model)
        if label in ("corpus_wide", "query_scoped"):
            ok = unknown and (in_scope if label == "corpus_wide" else True)
            report.add(f"{prefix}recall/{label}", ok, item, f"unknown={unknown} in={in_scope}")
            report.add(f"{prefix}recall/lang/{lang}", ok, item, label)
            if label == "query_scoped":
                report.add(f"{prefix}scope/query_scoped_released_in_scope", not in_scope, item, "")
        else:
            ok = not unknown and not in_scope
            report.add(f"{prefix}false_block", not ok, item, f"unknown={unknown} in={in_scope}")
            report.add(f"{prefix}benign_released/lang/{lang}", ok, item, "benign")


def score_obfuscated(
    items: list[Item], report: Report, model: ClaimClassifier | None = None
) -> dict[str, bool]:
    """Obfuscated claims (absence or recollection) must be blocked like their plain form.
    ``obfuscated/canonical_loss`` counts texts whose plain form is blocked but whose
    obfuscated form is released: the canonical text's failures, apart from detection."""
    families: dict[str, bool] = {}
    for item in items:
        text = str(item["text"])
        query = terms_of(item, "topic_terms") or text[:80]
        label = str(item["label"])
        reasons = _RECOLLECTION_REASONS if label == "recollection" else _ABSENCE_REASONS
        ev = evidence(_UNKNOWN, query)
        is_blocked = blocked(ev, text, reasons, model)
        family = str(item.get("family", "?"))
        if label == "benign":
            report.add("obfuscated/benign_false_block", is_blocked, item, family)
            continue
        report.add("obfuscated/recall", is_blocked, item, family)
        families[family] = families.get(family, True) and is_blocked
        plain = item.get("plain")
        if plain is not None and blocked(ev, str(plain), reasons, model):
            report.add("obfuscated/canonical_kept", is_blocked, item, family)
    return families


def score_recollection(
    items: list[Item], report: Report, model: ClaimClassifier | None = None
) -> None:
    # Each recollection's wrong record: the next recollection's of the same language.
    by_lang: dict[str, list[Item]] = defaultdict(list)
    for item in items:
        if item["label"] == "recollection":
            by_lang[str(item["lang"])].append(item)
    wrong: dict[str, str] = {}
    for group in by_lang.values():
        for i, item in enumerate(group):
            if len(group) > 1:
                wrong[str(item["id"])] = str(group[(i + 1) % len(group)]["evidence"])
    for item in items:
        text = str(item["text"])
        lang = str(item["lang"])
        query = terms_of(item, "claim_terms") or text[:80]
        bare = blocked(evidence(_UNKNOWN, query), text, _RECOLLECTION_REASONS, model)
        if item["label"] == "recollection":
            report.add("recollection/recall", bare, item, "unsupported released")
            report.add(f"recollection/recall/lang/{lang}", bare, item, "")
            supported = blocked(
                evidence(_NOT_ABSENT, query, [str(item["evidence"])]),
                text,
                _RECOLLECTION_REASONS,
                model,
            )
            report.add("recollection/supported_released", not supported, item, "supported blocked")
            if str(item["id"]) in wrong:
                mismatched = blocked(
                    evidence(_NOT_ABSENT, query, [wrong[str(item["id"])]]),
                    text,
                    _RECOLLECTION_REASONS,
                    model,
                )
                report.add(
                    "recollection/wrong_record_blocked", mismatched, item, "another's record"
                )
        else:
            report.add("recollection/false_block", bare, item, "benign blocked")


# Batches whose figures have been reported (docs/gateway.md). The default never lists
# tests/gate_eval/blind: a batch being written there must not be read by accident.
REPORTED_BATCHES = (
    "2026-12-01",
    "2026-12-01b",
    "2026-12-01c",
    "2026-12-01d",
    "2026-12-01e",
    "2026-12-01f",
    "2026-12-01g",
    "2026-12-01h",
    "2026-12-01i",
    "2026-12-01j",
    "2026-12-02",
    "2026-12-02b",
    "2026-12-02c",
    "2026-12-02d",
    "2026-12-02e",
    "2026-12-02f",
    "2026-12-02g",
    "2026-12-02h",
    "2026-12-03",
    "2026-12-03b",
    "2026-12-03c",
    "2026-12-03d",
    "2026-12-03e",
    "2026-12-03f",
    "2026-12-03g",
    "2026-12-03h",
    "2026-12-03i",
    "2026-12-03j",
    "2026-12-03k",
    "2026-12-04",
    "2026-12-04b",
    "2026-12-04c",
    "2026-12-04d",
    "2026-12-05",
    "2026-12-05b",
    "2026-12-05c",
    "2026-12-06",
    "2026-12-06b",
    "2026-12-06c",
    "2026-12-06d",
    "2026-12-06e",
    "2026-12-06f",
    "2026-12-06g",
    "2026-12-06h",
    "2026-12-06i",
    "2026-12-06j",
    "2026-12-06k",
    "2026-12-06l",
)


def newest_batch() -> Path:
    return BLIND / REPORTED_BATCHES[-1]


def evaluate_batch(
    batch: Path, model: ClaimClassifier | None = None
) -> tuple[Report, dict[str, bool]]:
    """Every figure of one batch (module docstring); ``model`` defaults to the shipped one.
    Returns the tallies and, per obfuscation family, whether all its claims were blocked."""
    report = Report()
    for path in sorted(batch.glob("absence*.jsonl")):
        score_absence(load(path), report, "", model)
    families: dict[str, bool] = {}
    if (batch / "obfuscated.jsonl").exists():
        families = score_obfuscated(load(batch / "obfuscated.jsonl"), report, model)
    if (batch / "recollection.jsonl").exists():
        score_recollection(load(batch / "recollection.jsonl"), report, model)
    return report, families


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--batch", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--misses", type=Path, default=None)
    # A head trained elsewhere (tools/train_claim_classifier.py --out PATH), to compare it
    # with the shipped one on the same batch before it replaces it.
    parser.add_argument("--model", type=Path, default=None)
    args = parser.parse_args()
    batch = (args.batch or newest_batch()).resolve()
    model = None if args.model is None else ClaimClassifier(args.model)
    report, families = evaluate_batch(batch, model)
    print(f"batch: {batch.relative_to(ROOT)}")
    for key in sorted(report.tallies):
        print(f"  {key:50s} {report.tallies[key]}")
    if families:
        passing = sorted(f for f, ok in families.items() if not ok)
        print(f"  obfuscation families passing: {len(passing)} of {len(families)} {passing}")
    if args.misses:
        args.misses.write_text("\n".join(report.misses) + "\n", "utf-8")
    if args.json:
        out = {k: {"hit": t.hit, "total": t.total} for k, t in report.tallies.items()}
        args.json.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

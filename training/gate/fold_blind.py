#!/usr/bin/env python3
"""Fold reported blind batches into the training corpus, clause by clause.

Usage: python training/gate/fold_blind.py BATCH_DIR [BATCH_DIR ...]
(writes ``training/gate/blind_<name>.jsonl`` per batch, e.g. ``blind_2026-12-01.jsonl``),
or ``fold_blind.py --as NAME DIR`` for a folder of written answers in the same format
(writes ``training/gate/NAME.jsonl``; the written round-9 answers are folded this way).

Only batches whose figures have been reported may be folded (docs/gateway.md says which
have joined). Each text is split the way the gate splits it
(:func:`gateway.truthfulness.analyse`; questions and conditionals are dropped, code and
quotations masked), and its asserted clauses are labelled:

* a benign text of a recollection batch: every clause ``benign``; of an absence batch
  (no absence claim, but perhaps a recollection): every clause neither the recollection
  rules nor the shipped classifier read as a recollection;
* a claim text: the clause the rules find the claim in (they are high-precision), else
  (recollections) the clause sharing most stemmed words with the item's ``claim_terms``
  (the remembered fact), else the clause the shipped classifier scores highest for a
  claim, gets the text's label (``corpus_wide`` / ``query_scoped`` / ``recollection``);
  the text's other clauses are ``benign`` when the classifier gives them a claim
  probability below 0.3 and are left out otherwise (a claim spread over two clauses is
  not mislabelled).

The output is committed; rerunning with a different shipped head may choose other
clauses, so the trainer reads the committed files, not this script.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))

from gateway.claim_model import LABELS, ClaimClassifier  # noqa: E402
from gateway.recollection import find_recollection_spans  # noqa: E402
from gateway.topics import stems_of  # noqa: E402
from gateway.truthfulness import absence_claims, analyse  # noqa: E402

OTHER_CLAUSE_MAX = 0.3


def claim_probabilities(model: ClaimClassifier, clauses: list[str]) -> list[float]:
    fast = [1.0 - float(model.fast_probabilities(c)[0]) for c in clauses]
    slow = [1.0 - float(row[0]) for row in model.slow_probabilities(clauses)]
    return [(f * s) ** 0.5 for f, s in zip(fast, slow, strict=True)]


def _by_terms(clauses: list[str], terms: list[str]) -> list[int]:
    """Indices of the clauses sharing the most stemmed words with ``terms`` (none when no
    clause shares any)."""
    want = stems_of(" ".join(str(t) for t in terms))
    overlap = [len(want & stems_of(c)) for c in clauses]
    top = max(overlap, default=0)
    return [i for i, n in enumerate(overlap) if n == top] if top else []


def fold(batch: Path, model: ClaimClassifier) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    for path in sorted(batch.glob("*.jsonl")):
        for line in path.read_text("utf-8").split("\n"):
            if not line.strip():
                continue
            item = json.loads(line)
            label, lang = str(item["label"]), str(item["lang"])
            if label not in LABELS:
                continue
            analysis = analyse(str(item["text"]))
            infos = [c for _, c in analysis.asserted()]
            infos = [
                c for c in infos if any(ch.isalnum() for ch in analysis.masked[c.start : c.end])
            ]
            clauses = [analysis.masked[c.start : c.end].strip() for c in infos]
            if not clauses:
                continue
            if label == "benign" and path.name.startswith("recollection"):
                out.extend({"lang": lang, "label": "benign", "text": c} for c in clauses)
                continue
            if label == "benign":
                # "Benign" in an absence batch means no absence claim: a recollection
                # ("you told me your sister studies in Kraków") may still be there.
                kinds = model.classify(clauses)
                out.extend(
                    {"lang": lang, "label": "benign", "text": c}
                    for c, k in zip(clauses, kinds, strict=True)
                    if not find_recollection_spans(c) and k.label != "recollection"
                )
                continue
            probs = claim_probabilities(model, clauses)
            if label == "recollection":
                ruled = [i for i, c in enumerate(clauses) if find_recollection_spans(c)]
            else:
                starts = {a.canonical_start for a in absence_claims(analysis)}
                ruled = [i for i, c in enumerate(infos) if c.start in starts]
            if not ruled and label == "recollection":
                # The clause holding the remembered fact: most of the item's claim terms.
                ruled = _by_terms(clauses, item.get("claim_terms") or [])
            best = ruled[0] if ruled else max(range(len(clauses)), key=lambda i: probs[i])
            for i, clause in enumerate(clauses):
                if i == best:
                    out.append({"lang": lang, "label": label, "text": clause})
                elif probs[i] < OTHER_CLAUSE_MAX:
                    out.append({"lang": lang, "label": "benign", "text": clause})
    seen: set[tuple[str, str]] = set()
    unique = []
    for row in out:
        key = (row["label"], row["text"])
        if key not in seen:
            seen.add(key)
            unique.append(row)
    return unique


def main() -> int:
    model = ClaimClassifier()
    args = sys.argv[1:]
    # --as NAME: fold one folder of written answers (not a blind batch) into NAME.jsonl,
    # e.g. the round-9 answers in training/gate/round9_answers -> round9_written.jsonl.
    name = None
    if args[:1] == ["--as"] and len(args) == 3:
        name, args = args[1], args[2:]
    elif "--as" in args:
        print("usage: fold_blind.py [--as NAME DIR | BATCH_DIR ...]", file=sys.stderr)
        return 2
    for arg in args:
        batch = Path(arg).resolve()
        rows = fold(batch, model)
        target = HERE / f"{name or 'blind_' + batch.name}.jsonl"
        target.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
        print(f"{target.name}: {len(rows)} clauses")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

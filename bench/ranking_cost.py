"""Per-query cost of engram.ranking's second stage on the resident index at
100k episodes, in process, against another second-stage model in the same run.

    git show d068d00:engram/data/recall_ranker.npz > /tmp/recall_ranker_logistic.npz
    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/ranking_cost.py \\
        --baseline /tmp/recall_ranker_logistic.npz [--episodes 100000] [--queries 300]

The corpus is bench/retrieval_corpus.py's (clustered synthetic 384-d unit
vectors, topic-word texts), built straight into one resident snapshot in one
subject (no PostgreSQL): sessions of 20 turns alternating two speakers, one
turn a minute. Questions name a speaker and a date half the time, so every
ranking input is exercised. Per query, after 20 warm-up queries: the
candidates (both lists' top engram.ranking.WINDOW and the neighbours' scores,
``Snapshot.candidates``), then ``engram.ranking.rank`` on those same
candidates with no second stage, the baseline model and the shipped model
(``recall_ranker: default``), in turn; and the old ``search`` + ``fuse`` (RRF
over the top limit of each list) for scale. p50 / p99 in ms; ratios against
the baseline measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import percentile
from bench.retrieval_corpus import DIM, Corpus, episode_id, episode_text, query_text
from engram import ranking
from engram.fusion import candidate_window, fuse
from retrieval_service.records import Interner, make_record
from retrieval_service.segment import build_segment
from retrieval_service.snapshot import SearchRequest, Snapshot

SUBJECT, WORKSPACE = "bench", "default"
SPEAKERS = ("Caroline Smith", "Melanie")
T0 = datetime(2023, 5, 1, tzinfo=UTC)


def build(episodes: int) -> Snapshot:
    interner = Interner()
    records = []
    for start, clusters, vectors in Corpus(episodes).chunks():
        for j, (cluster, vector) in enumerate(zip(clusters, vectors, strict=True)):
            row = start + j
            user, assistant = episode_text(row, int(cluster))
            us = int((T0 + timedelta(minutes=row)).timestamp() * 1_000_000)
            session = f"s{row // 20}"
            records.append(
                make_record(
                    interner,
                    episode_id=str(episode_id(row)),
                    subject=SUBJECT,
                    workspace=WORKSPACE,
                    session_id=session,
                    session_ids=[session],
                    last_seen_us=us,
                    user_text=user + (" yesterday" if row % 50 == 0 else ""),
                    assistant_text=assistant,
                    vector=vector,
                    first_seen_us=us,
                    user_name=SPEAKERS[row % 2],
                )
            )
    return Snapshot.from_base(build_segment(records, DIM), interner, DIM, "bench", 0, 1)


def stats(ms: list[float]) -> dict[str, float]:
    return {"p50": round(percentile(ms, 50), 3), "p99": round(percentile(ms, 99), 3)}


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--baseline", required=True, help="a second-stage model (.npz) to compare")
    p.add_argument("--episodes", type=int, default=100_000)
    p.add_argument("--queries", type=int, default=300)
    p.add_argument("--warmup", type=int, default=20)
    args = p.parse_args()

    models: dict[str, ranking.Ranker | None] = {
        "first stage only": None,
        "baseline": ranking.load_ranker(args.baseline),
        "shipped": ranking.load_ranker("default"),
    }
    started = time.monotonic()
    snapshot = build(args.episodes)
    built = time.monotonic() - started
    names = snapshot.speaker_names(SUBJECT, WORKSPACE)
    vectors, clusters = Corpus(args.episodes).queries(args.warmup + args.queries)
    times: dict[str, list[float]] = {k: [] for k in ["candidates", *models, "old search + fuse"]}
    sizes = []
    for i, (vector, cluster) in enumerate(zip(vectors, clusters, strict=True)):
        text = query_text(int(cluster), i)
        if i % 2:
            day = T0 + timedelta(days=int(cluster) % 60)
            text = f"{text} did Melanie say on {day.day} {day:%B %Y}"
        query = ranking.prepare_query(text, names)
        request = SearchRequest(
            SUBJECT, WORKSPACE, "", None, None, vector, query.text, ranking.WINDOW, ranking.WINDOW
        )
        t = time.perf_counter()
        c = snapshot.candidates(request, query)
        spent = {"candidates": time.perf_counter() - t}
        for name, model in models.items():
            t = time.perf_counter()
            ranking.rank(c, query, model)
            spent[name] = time.perf_counter() - t
        window = candidate_window(10)
        t = time.perf_counter()
        lists = snapshot.search(
            SearchRequest(SUBJECT, WORKSPACE, "", None, None, vector, text, window, window)
        )
        fuse((lists.dense.ids, lists.dense.scores), (lists.lexical.ids, lists.lexical.scores), 10)
        spent["old search + fuse"] = time.perf_counter() - t
        if i >= args.warmup:
            sizes.append(len(c))
            for name, seconds in spent.items():
                times[name].append(1000 * seconds)
    out: dict[str, object] = {
        "episodes": args.episodes,
        "queries": args.queries,
        "build_seconds": round(built, 1),
        "candidates per query p50": percentile([float(s) for s in sizes], 50),
        "models": {k: getattr(m, "source", "none") for k, m in models.items()},
        "ms": {k: stats(v) for k, v in times.items()},
    }
    ms = out["ms"]
    assert isinstance(ms, dict)
    base = ms["baseline"]["p50"] - ms["first stage only"]["p50"]
    shipped = ms["shipped"]["p50"] - ms["first stage only"]["p50"]
    out["second stage alone p50 (rank minus first stage only)"] = {
        "baseline": round(base, 3),
        "shipped": round(shipped, 3),
        "shipped / baseline": round(shipped / base, 2) if base > 0 else None,
    }
    total = {k: round(ms["candidates"]["p50"] + ms[k]["p50"], 3) for k in ("baseline", "shipped")}
    out["candidates + rank p50"] = {
        **total,
        "shipped / baseline": round(total["shipped"] / total["baseline"], 2),
        "shipped / old search + fuse": round(total["shipped"] / ms["old search + fuse"]["p50"], 2),
    }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()

"""SearchEpisodes and BatchGetEpisodes: the PostgreSQL read path over the
episode projection. Domain code: no gRPC here.

Two candidate lists under the same filters, each its top engram.ranking.WINDOW
(fixed, so the order never depends on `limit`): pgvector cosine distance over
the HNSW index (episodes embedded by the current embedder only) and
PostgreSQL full-text ('english', any query word, over the text and its
resolved dates) ranked by ts_rank_cd. Episodes still waiting for their
embedding are reachable through the lexical list. The question loses the
scope's speaker names first (engram.ranking.prepare_query); one more query
(search_features) reads the candidates' speakers, dates and neighbours'
scores, and engram.ranking ranks them, as the resident index does.

Coverage is ranked recall: no total is known (exactness UNKNOWN) and no
meaning-equivalent total exists (semantic UNKNOWN), so an empty result derives
ABSENCE_STATE_COVERAGE_UNKNOWN and licenses no negative claim.
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from engram import dates as dates_mod
from engram import ranking
from engram.common.v1 import common_pb2 as cpb
from engram.coverage import ranked_recall_coverage
from engram.db import Database, read_snapshot
from engram.embedder_cache import shared_embedder
from engram.errors import Unavailable
from engram.terms import surface_words
from memory_service.search_queries import SQ
from memory_service.store import Conn, Q

log = logging.getLogger("engram.journal.search")

SEARCH_PATH = "journal.search_episodes.v1"
EPISODES_SOURCE = "postgresql:journal.episodes"
EMBEDDING_DIMENSION = 384
# HNSW candidate list per query; at least the candidate window (pgvector caps it at 1000).
EF_SEARCH = 100
MAX_EF_SEARCH = 1000
MAX_QUERY_WORDS = 64

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True)
class SearchQuery:
    subject: str
    workspace: str
    query_text: str
    query_embedding: Vector | None
    exclude_session_id: str
    start: datetime | None
    end: datetime | None
    limit: int


@dataclass(frozen=True)
class Hit:
    episode: dict[str, Any]
    score: float
    dense_rank: int
    lexical_rank: int


@dataclass(frozen=True)
class SearchResult:
    hits: list[Hit]
    coverage: cpb.Coverage


def lexical_query(text: str) -> str:
    """An any-word query for websearch_to_tsquery: the words joined by "or".

    The words are engram.terms.surface_words (letters and digits of any script,
    invisible characters removed, case kept): only word characters pass, so
    quotes and "-" cannot act as operators, and "or" is dropped. The 'english'
    configuration folds case, stems and drops stop words exactly as it did for
    the stored text.
    """
    words = [w for w in surface_words(text) if w.casefold() != "or"][:MAX_QUERY_WORDS]
    return " or ".join(words)


def store_episode_dates(
    conn: Conn, episode_id: str, user_text: str, assistant_text: str, occurred_at: datetime
) -> None:
    """Resolve a new episode's relative dates (engram.dates) against the time
    its turn occurred and store them (journal.episodes.resolved_dates, part of
    its lexical view). Called by the commit path; no statement when none resolve."""
    codes = dates_mod.resolve_codes(
        dates_mod.episode_source(user_text, assistant_text), occurred_at
    )
    if codes:
        conn.execute(
            SQ["episode_store_dates"],
            {"episode_id": episode_id, "dates": dates_mod.date_text(codes)},
        )


def _utc_day_code(when: datetime) -> int:
    return dates_mod.day_code((when.astimezone(UTC) if when.tzinfo is not None else when).date())


def candidates_from_rows(
    rows: list[dict[str, Any]],
    prepared: ranking.Query,
    dense_scores: list[float],
) -> ranking.Candidates:
    """engram.ranking candidates from search_features rows."""
    builder = ranking.CandidateBuilder()
    nan = float("nan")
    for r in rows:
        dates_text = str(r["resolved_dates"] or "")
        codes = dates_mod.parse_date_text(dates_text) if dates_text else []
        builder.add(
            str(r["episode_id"]),
            cos=nan if r["cos"] is None else float(r["cos"]),
            cos_prev=nan if r["prev_cos"] is None else float(r["prev_cos"]),
            cos_next=nan if r["next_cos"] is None else float(r["next_cos"]),
            lex=float(r["rank"]),
            lex_prev=float(r["prev_rank"]),
            lex_next=float(r["next_rank"]),
            speaker=ranking.speaker_named(
                prepared, str(r["user_name"] or ""), str(r["assistant_name"] or "")
            ),
            time=dates_mod.time_match(
                list(prepared.dates), _utc_day_code(r["first_seen_at"]), codes
            )
            if prepared.dates
            else 0.0,
            traits=ranking.text_traits(*ranking.text_shape(str(r["user_text"]))),
            has_date=bool(codes),
            session=str(r["first_session"] or ""),
        )
    return builder.build(
        max(dense_scores) if dense_scores else 0.0, min(dense_scores) if dense_scores else 0.0
    )


class EpisodeSearch:
    def __init__(self, db: Database, embedder_name: str, ranker: str = "default") -> None:
        self.db = db
        self.embedder_name = embedder_name
        # engram.ranking's second stage (settings.recall_ranker; None: first stage only).
        self.ranker = ranking.shared_ranker(ranker)
        self._iterative_scan: bool | None = None

    def speaker_names(self, conn: Conn, subject: str, workspace: str) -> list[str]:
        rows = conn.execute(
            SQ["search_speakers"], {"subject": subject, "workspace": workspace}
        ).fetchall()
        names = {str(n) for r in rows for n in (r["user_name"], r["assistant_name"]) if n}
        return sorted(names)

    def search(self, query: SearchQuery, db: Database | None = None) -> SearchResult:
        """``db``: where to read (a read replica's pool); the primary by default."""
        db = db or self.db
        embedder = shared_embedder(self.embedder_name)
        with db.connection() as conn:
            names = self.speaker_names(conn, query.subject, query.workspace)
        prepared = ranking.prepare_query(query.query_text, names)
        vector = query.query_embedding
        if vector is None and query.query_text.strip():
            try:
                vector = embedder.embed_one(prepared.text)
            except Exception as exc:  # a model that cannot load or run
                log.exception("query embedding failed")
                raise Unavailable("the query embedder is unavailable") from exc
        window = ranking.WINDOW
        params: dict[str, Any] = {
            "subject": query.subject,
            "workspace": query.workspace,
            "exclude": query.exclude_session_id,
            "start": query.start,
            "end": query.end,
            "window": window,
            "model": embedder.name,
        }
        words = lexical_query(prepared.text)
        with read_snapshot(db) as conn:
            dense: list[dict[str, Any]] = []
            if vector is not None:
                self._tune_hnsw(conn, window)
                dense = conn.execute(SQ["search_dense"], {**params, "query": vector}).fetchall()
            lexical: list[dict[str, Any]] = []
            if words:
                lexical = conn.execute(SQ["search_lexical"], {**params, "text": words}).fetchall()
            ids = list(
                dict.fromkeys(
                    [str(r["episode_id"]) for r in dense] + [str(r["episode_id"]) for r in lexical]
                )
            )
            feature_rows: list[dict[str, Any]] = []
            if ids:
                feature_rows = conn.execute(
                    SQ["search_features"],
                    {**params, "ids": ids, "text": words, "query": vector},
                ).fetchall()
            # Cosine similarity (1 - distance), so both lists are higher-is-better.
            candidates = candidates_from_rows(
                feature_rows, prepared, [1 - float(r["distance"]) for r in dense]
            )
            ranked = ranking.rank(candidates, prepared, self.ranker)
            top = ranked.order[: query.limit]
            rows = self._episodes(conn, [candidates.ids[i] for i in top])
            mark = conn.execute(Q["feed_watermark"]).fetchone()
        assert mark is not None
        score_of = dict(zip(ranked.order, ranked.scores, strict=True))
        hits = [
            Hit(
                rows[candidates.ids[i]],
                score_of[i],
                ranked.dense_rank[i],
                ranked.lexical_rank[i],
            )
            for i in top
            if candidates.ids[i] in rows
        ]
        coverage = self._coverage(query, vector, len(hits), int(mark["last_cursor"]))
        return SearchResult(hits, coverage)

    def batch_get(self, episode_ids: list[str], include_embeddings: bool) -> list[dict[str, Any]]:
        """Episodes by id in request order; unknown, purged and quarantined ids are omitted."""
        with self.db.connection() as conn:
            rows = conn.execute(
                Q["episodes_by_id"], {"ids": episode_ids, "include_embeddings": include_embeddings}
            ).fetchall()
        by_id = {str(r["episode_id"]): r for r in rows}
        return [by_id[i] for i in episode_ids if i in by_id]

    def neighbours(
        self, episode_ids: list[str], turns: int, db: Database | None = None
    ) -> dict[str, list[dict[str, Any]]]:
        """Episode id -> the visible turns around its latest occurrence, oldest first."""
        if not episode_ids or turns <= 0:
            return {}
        with (db or self.db).connection() as conn:
            rows = conn.execute(
                Q["turn_neighbours"], {"ids": episode_ids, "turns": turns}
            ).fetchall()
        grouped: dict[str, list[dict[str, Any]]] = {}
        for row in rows:
            grouped.setdefault(str(row["episode_id"]), []).append(row)
        return grouped

    def _episodes(self, conn: Conn, ids: list[str]) -> dict[str, dict[str, Any]]:
        if not ids:
            return {}
        rows = conn.execute(
            Q["episodes_by_id"], {"ids": ids, "include_embeddings": False}
        ).fetchall()
        return {str(r["episode_id"]): r for r in rows}

    def _tune_hnsw(self, conn: Conn, window: int) -> None:
        """Per transaction: a candidate list at least as long as the window and,
        on pgvector >= 0.8, iterative scans so filters (subject, quarantine, ...)
        cannot starve the result."""
        ef_search = min(MAX_EF_SEARCH, max(EF_SEARCH, window))
        conn.execute("SELECT set_config('hnsw.ef_search', %(v)s, true)", {"v": str(ef_search)})
        if self._iterative_scan is None:
            row = conn.execute(SQ["pgvector_version"]).fetchone()
            version = (
                tuple(int(p) for p in re.findall(r"\d+", str(row["extversion"]))[:2])
                if row
                else (0, 0)
            )
            self._iterative_scan = version >= (0, 8)
        if self._iterative_scan:
            conn.execute("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)")

    def _coverage(
        self, query: SearchQuery, vector: Vector | None, returned: int, watermark: int
    ) -> cpb.Coverage:
        windowed = query.start is not None or query.end is not None
        return ranked_recall_coverage(
            read_path=SEARCH_PATH,
            source_systems=[EPISODES_SOURCE],
            query={
                "subject": query.subject,
                "workspace": query.workspace,
                "query_text": query.query_text,
                "query_embedding_sha256": _vector_digest(query.query_embedding),
                "exclude_session_id": query.exclude_session_id,
                "start": query.start,
                "end": query.end,
                "limit": query.limit,
                "dense": vector is not None,
            },
            returned=returned,
            limit=query.limit,
            windowed=windowed,
            excludes_session=bool(query.exclude_session_id),
            snapshot_version=str(watermark),
        )


def _vector_digest(vector: Vector | None) -> str:
    if vector is None:
        return ""
    return hashlib.sha256(np.asarray(vector, dtype="<f4").tobytes()).hexdigest()

-- Named queries of the journal's read paths over episodes (SearchEpisodes,
-- FindExact) and of the embedding worker (see engram.db.queries).

-- ---------------------------------------------------------------------------
-- Embedding worker

-- name: embed_candidates
-- Oldest pending first, through the partial index on pending episodes. A
-- quarantined episode is not pending: it is embedded once restored.
SELECT e.episode_id
FROM journal.episodes e
WHERE e.embedding IS NULL
  AND NOT EXISTS (SELECT 1 FROM journal.quarantined q
                  WHERE q.record_kind = 'episode' AND q.record_id = e.episode_id::text)
ORDER BY e.first_event_id
LIMIT %(scan)s;

-- name: embed_try_claim
-- Transaction-scoped advisory lock: the claim another replica skips.
SELECT pg_try_advisory_xact_lock(hashtextextended('engram.embed:' || %(episode_id)s, 0))
    AS claimed;

-- name: embed_claimed_rows
-- A fresh statement after claiming: rows another replica embedded (or someone
-- quarantined) meanwhile drop out.
SELECT e.episode_id, e.subject, e.workspace, e.session_id, e.user_text, e.assistant_text
FROM journal.episodes e
WHERE e.episode_id = ANY (%(ids)s::uuid[]) AND e.embedding IS NULL
  AND NOT EXISTS (SELECT 1 FROM journal.quarantined q
                  WHERE q.record_kind = 'episode' AND q.record_id = e.episode_id::text)
ORDER BY e.first_event_id;

-- name: embed_hold_quarantine
-- The lock Journal.set_quarantine takes ('quarantine:<record_kind>:<record_id>',
-- see memory_service/store.py lock_key), held to the batch's commit: a
-- quarantine or restore of this episode either committed before (and the
-- next statement, embed_store, sees it) or waits until the batch committed
-- (and its change follows the batch's episode_embedded in the feed). Its own
-- statement, so embed_store's snapshot is taken after the wait.
SELECT pg_advisory_xact_lock(hashtextextended('quarantine:episode:' || %(episode_id)s, 0));

-- name: embed_store
UPDATE journal.episodes e
SET embedding = %(embedding)s, embedding_model = %(model)s, embedded_at = now()
WHERE e.episode_id = %(episode_id)s AND e.embedding IS NULL
  AND NOT EXISTS (SELECT 1 FROM journal.quarantined q
                  WHERE q.record_kind = 'episode' AND q.record_id = e.episode_id::text)
RETURNING e.episode_id, e.subject, e.workspace, e.session_id;

-- ---------------------------------------------------------------------------
-- SearchEpisodes: two candidate lists over the same filters, fused in Python.
-- Filters: subject, workspace, not hidden (the episode quarantined, or a
-- quarantined turn event with its content: FindExact's rule below),
-- exclude-session rule (engram.fusion.session_excluded: every session of the
-- episode is the excluded one), time window [start, end) on last_seen_at.

-- name: search_dense
-- Nearest first by cosine distance (HNSW). Under hnsw.iterative_scan =
-- relaxed_order the index may return slightly out of order, so re-sort.
WITH hidden AS MATERIALIZED (
    -- Contents a quarantined turn event hides: few rows, driven from the
    -- quarantine projection (CASE keeps the cast to event ids).
    SELECT ev.content_sha256
    FROM journal.quarantined q
    JOIN journal.events ev
      ON ev.event_id = CASE WHEN q.record_kind = 'event' THEN q.record_id::bigint END
    WHERE q.record_kind = 'event' AND ev.event_type = 'conversation.turn.completed'
      AND ev.subject = %(subject)s AND ev.workspace = %(workspace)s
), nearest AS MATERIALIZED (
    SELECT e.episode_id, e.embedding <=> %(query)s AS distance
    FROM journal.episodes e
    WHERE e.subject = %(subject)s AND e.workspace = %(workspace)s
      AND e.embedding IS NOT NULL AND e.embedding_model = %(model)s
      AND NOT (%(exclude)s::text <> '' AND e.session_ids <@ ARRAY[%(exclude)s::text])
      AND (%(start)s::timestamptz IS NULL OR e.last_seen_at >= %(start)s::timestamptz)
      AND (%(end)s::timestamptz IS NULL OR e.last_seen_at < %(end)s::timestamptz)
      AND NOT EXISTS (SELECT 1 FROM journal.quarantined q
                      WHERE q.record_kind = 'episode' AND q.record_id = e.episode_id::text)
      AND NOT EXISTS (SELECT 1 FROM hidden h WHERE h.content_sha256 = e.content_sha256)
    ORDER BY e.embedding <=> %(query)s
    LIMIT %(window)s
)
SELECT episode_id, distance FROM nearest ORDER BY distance, episode_id;

-- name: search_lexical
-- Any query word may match (an OR query built by the caller for
-- websearch_to_tsquery); more matched words and closer ones rank higher.
WITH q AS (SELECT websearch_to_tsquery('english', %(text)s) AS tsq),
hidden AS MATERIALIZED (
    -- As in search_dense.
    SELECT ev.content_sha256
    FROM journal.quarantined qe
    JOIN journal.events ev
      ON ev.event_id = CASE WHEN qe.record_kind = 'event' THEN qe.record_id::bigint END
    WHERE qe.record_kind = 'event' AND ev.event_type = 'conversation.turn.completed'
      AND ev.subject = %(subject)s AND ev.workspace = %(workspace)s
)
SELECT e.episode_id, ts_rank_cd(e.search_tsv, q.tsq) AS rank
FROM journal.episodes e, q
WHERE numnode(q.tsq) > 0 AND e.search_tsv @@ q.tsq
  AND e.subject = %(subject)s AND e.workspace = %(workspace)s
  AND NOT (%(exclude)s::text <> '' AND e.session_ids <@ ARRAY[%(exclude)s::text])
  AND (%(start)s::timestamptz IS NULL OR e.last_seen_at >= %(start)s::timestamptz)
  AND (%(end)s::timestamptz IS NULL OR e.last_seen_at < %(end)s::timestamptz)
  AND NOT EXISTS (SELECT 1 FROM journal.quarantined q
                  WHERE q.record_kind = 'episode' AND q.record_id = e.episode_id::text)
  AND NOT EXISTS (SELECT 1 FROM hidden h WHERE h.content_sha256 = e.content_sha256)
ORDER BY rank DESC, e.episode_id
LIMIT %(window)s;

-- name: pgvector_version
SELECT extversion FROM pg_extension WHERE extname = 'vector';

-- ---------------------------------------------------------------------------
-- FindExact. Scope: conversation.turn.completed events of one subject and
-- workspace (+ session, + [start, end) on occurred_at). Terms arrive as
-- whole-word patterns over journal.exact_fold(text); every pattern must match
-- the user text or the assistant text. A content (content_sha256) is hidden
-- when its episode or any of its turn events in the subject/workspace is
-- quarantined; hidden content is excluded from both the primary and the
-- verifier.

-- name: exact_page
-- One match per distinct learning-eligible content: its latest occurrence in
-- scope; newest first.
WITH hidden AS (
    -- CASE keeps each cast to its own record kind and lets the join use the
    -- primary keys.
    SELECT ep.content_sha256
    FROM journal.quarantined q
    JOIN journal.episodes ep
      ON ep.episode_id = CASE WHEN q.record_kind = 'episode' THEN q.record_id::uuid END
    WHERE q.record_kind = 'episode'
      AND ep.subject = %(subject)s AND ep.workspace = %(workspace)s
    UNION
    SELECT ev.content_sha256
    FROM journal.quarantined q
    JOIN journal.events ev
      ON ev.event_id = CASE WHEN q.record_kind = 'event' THEN q.record_id::bigint END
    WHERE q.record_kind = 'event' AND ev.event_type = 'conversation.turn.completed'
      AND ev.subject = %(subject)s AND ev.workspace = %(workspace)s
),
matching AS (
    SELECT ev.event_id, ev.session_id, ev.occurred_at, ev.content_sha256,
           ev.payload ->> 'user_text' AS user_text,
           ev.payload ->> 'assistant_text' AS assistant_text
    FROM journal.events ev
    CROSS JOIN LATERAL (
        SELECT journal.exact_fold(ev.payload ->> 'user_text') AS u,
               journal.exact_fold(ev.payload ->> 'assistant_text') AS a
    ) f
    WHERE ev.event_type = 'conversation.turn.completed'
      AND ev.subject = %(subject)s AND ev.workspace = %(workspace)s
      AND (%(session_id)s::text = '' OR ev.session_id = %(session_id)s::text)
      AND (%(start)s::timestamptz IS NULL OR ev.occurred_at >= %(start)s::timestamptz)
      AND (%(end)s::timestamptz IS NULL OR ev.occurred_at < %(end)s::timestamptz)
      AND coalesce((ev.payload ->> 'learning_eligible')::boolean, false)
      AND NOT EXISTS (SELECT 1 FROM hidden h WHERE h.content_sha256 = ev.content_sha256)
      AND NOT EXISTS (SELECT 1 FROM unnest(%(patterns)s::text[]) AS p(pattern)
                      WHERE NOT (f.u ~ p.pattern OR f.a ~ p.pattern))
),
latest AS (
    SELECT DISTINCT ON (m.content_sha256) m.*
    FROM matching m
    ORDER BY m.content_sha256, m.event_id DESC
)
SELECT event_id, session_id, occurred_at, user_text, assistant_text
FROM latest
ORDER BY event_id DESC
LIMIT %(limit)s;

-- name: exact_count
-- The pre-limit count, separate from the page: distinct learning-eligible,
-- non-hidden contents that match ("matched"), and distinct contents with any
-- matching turn in scope, eligible or not, hidden or not ("matched_anywhere").
-- The difference is matching journal content this path does not expose.
WITH hidden AS (
    -- CASE keeps each cast to its own record kind and lets the join use the
    -- primary keys.
    SELECT ep.content_sha256
    FROM journal.quarantined q
    JOIN journal.episodes ep
      ON ep.episode_id = CASE WHEN q.record_kind = 'episode' THEN q.record_id::uuid END
    WHERE q.record_kind = 'episode'
      AND ep.subject = %(subject)s AND ep.workspace = %(workspace)s
    UNION
    SELECT ev.content_sha256
    FROM journal.quarantined q
    JOIN journal.events ev
      ON ev.event_id = CASE WHEN q.record_kind = 'event' THEN q.record_id::bigint END
    WHERE q.record_kind = 'event' AND ev.event_type = 'conversation.turn.completed'
      AND ev.subject = %(subject)s AND ev.workspace = %(workspace)s
),
matching AS (
    SELECT ev.content_sha256,
           coalesce((ev.payload ->> 'learning_eligible')::boolean, false) AS eligible
    FROM journal.events ev
    CROSS JOIN LATERAL (
        SELECT journal.exact_fold(ev.payload ->> 'user_text') AS u,
               journal.exact_fold(ev.payload ->> 'assistant_text') AS a
    ) f
    WHERE ev.event_type = 'conversation.turn.completed'
      AND ev.subject = %(subject)s AND ev.workspace = %(workspace)s
      AND (%(session_id)s::text = '' OR ev.session_id = %(session_id)s::text)
      AND (%(start)s::timestamptz IS NULL OR ev.occurred_at >= %(start)s::timestamptz)
      AND (%(end)s::timestamptz IS NULL OR ev.occurred_at < %(end)s::timestamptz)
      AND NOT EXISTS (SELECT 1 FROM unnest(%(patterns)s::text[]) AS p(pattern)
                      WHERE NOT (f.u ~ p.pattern OR f.a ~ p.pattern))
)
SELECT count(DISTINCT m.content_sha256) FILTER (
           WHERE m.eligible
             AND NOT EXISTS (SELECT 1 FROM hidden h WHERE h.content_sha256 = m.content_sha256)
       ) AS matched,
       count(DISTINCT m.content_sha256) AS matched_anywhere
FROM matching m;

-- name: exact_verifier_count
-- The independent count: a differently shaped query over the episode
-- projection (one row per learning-eligible content; session_ids lists every
-- session it occurred in), with the same hidden-content rule.
WITH quarantined_turns AS (
    SELECT ev.content_sha256
    FROM journal.quarantined q
    JOIN journal.events ev
      ON ev.event_id = CASE WHEN q.record_kind = 'event' THEN q.record_id::bigint END
    WHERE q.record_kind = 'event' AND ev.event_type = 'conversation.turn.completed'
      AND ev.subject = %(subject)s AND ev.workspace = %(workspace)s
)
SELECT count(*) AS n
FROM journal.episodes ep
WHERE ep.subject = %(subject)s AND ep.workspace = %(workspace)s
  AND (%(session_id)s::text = '' OR %(session_id)s::text = ANY (ep.session_ids))
  AND NOT EXISTS (SELECT 1 FROM journal.quarantined q
                  WHERE q.record_kind = 'episode' AND q.record_id = ep.episode_id::text)
  AND NOT EXISTS (SELECT 1 FROM quarantined_turns t WHERE t.content_sha256 = ep.content_sha256)
  AND (SELECT bool_and(journal.exact_fold(ep.user_text) ~ p
                       OR journal.exact_fold(ep.assistant_text) ~ p)
       FROM unnest(%(patterns)s::text[]) AS p);

-- name: exact_fold_terms
SELECT journal.exact_fold(t) AS folded
FROM unnest(%(terms)s::text[]) WITH ORDINALITY AS x(t, ord)
ORDER BY ord;

-- name: exact_fold_check
-- Whether the database folds each probe character to what engram.terms.fold
-- gives for it (true for an empty probe).
SELECT coalesce(bool_and(journal.exact_fold(p.c) IS NOT DISTINCT FROM p.expected), true)
           AS agrees
FROM unnest(%(chars)s::text[], %(expected)s::text[]) AS p(c, expected);

-- name: exact_variant_exists
-- Whether any turn in scope (eligible or not, hidden or not) matches the terms
-- once accents are stripped from both sides: run only when the exact search
-- found nothing, to keep a differently accented spelling from becoming an
-- authoritative absence.
SELECT EXISTS (
    SELECT 1
    FROM journal.events ev
    CROSS JOIN LATERAL (
        SELECT journal.strip_marks(journal.exact_fold(ev.payload ->> 'user_text')) AS u,
               journal.strip_marks(journal.exact_fold(ev.payload ->> 'assistant_text')) AS a
    ) f
    WHERE ev.event_type = 'conversation.turn.completed'
      AND ev.subject = %(subject)s AND ev.workspace = %(workspace)s
      AND (%(session_id)s::text = '' OR ev.session_id = %(session_id)s::text)
      AND (%(start)s::timestamptz IS NULL OR ev.occurred_at >= %(start)s::timestamptz)
      AND (%(end)s::timestamptz IS NULL OR ev.occurred_at < %(end)s::timestamptz)
      AND NOT EXISTS (SELECT 1 FROM unnest(%(patterns)s::text[]) AS p(pattern)
                      WHERE NOT (f.u ~ p.pattern OR f.a ~ p.pattern))
) AS found;

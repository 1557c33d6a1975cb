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
-- SearchEpisodes: two candidate lists over the same filters (each its top
-- engram.ranking.WINDOW), ranked in Python by engram.ranking.
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

-- name: search_speakers
-- The scope's distinct (user_name, assistant_name) pairs: a loose index scan
-- over episodes_speakers_idx (migrations/0010_episode_dates.sql), one probe
-- per pair. Quarantined episodes' names count too (the resident index keeps
-- them as well): names are only removed from the question.
WITH RECURSIVE names AS (
    (SELECT e.user_name, e.assistant_name
     FROM journal.episodes e
     WHERE e.subject = %(subject)s AND e.workspace = %(workspace)s
     ORDER BY e.user_name, e.assistant_name
     LIMIT 1)
    UNION ALL
    SELECT nx.user_name, nx.assistant_name
    FROM names n
    CROSS JOIN LATERAL (
        SELECT e.user_name, e.assistant_name
        FROM journal.episodes e
        WHERE e.subject = %(subject)s AND e.workspace = %(workspace)s
          AND (e.user_name, e.assistant_name) > (n.user_name, n.assistant_name)
        ORDER BY e.user_name, e.assistant_name
        LIMIT 1
    ) nx
)
SELECT user_name, assistant_name FROM names LIMIT 1000;

-- name: search_features
-- engram.ranking's inputs for the candidates (the union of both lists): each
-- one's cosine (NULL without a current-model vector) and ts_rank_cd (0 when
-- it does not match), speakers, first occurrence, resolved dates, first
-- session, and the
-- same scores of its previous and next visible episode in its first session
-- (session_ids[1]) in first-occurrence order (first_seen_at, then id) through
-- episodes_thread_idx. Neighbours ignore the request's time window and
-- exclude-session filters, as on the resident index.
WITH q AS (SELECT websearch_to_tsquery('english', %(text)s) AS tsq),
hidden AS MATERIALIZED (
    SELECT ev.content_sha256
    FROM journal.quarantined qe
    JOIN journal.events ev
      ON ev.event_id = CASE WHEN qe.record_kind = 'event' THEN qe.record_id::bigint END
    WHERE qe.record_kind = 'event' AND ev.event_type = 'conversation.turn.completed'
      AND ev.subject = %(subject)s AND ev.workspace = %(workspace)s
)
SELECT c.episode_id, c.user_text, c.user_name, c.assistant_name, c.first_seen_at,
       c.resolved_dates, c.session_ids[1] AS first_session,
       CASE WHEN c.embedding IS NOT NULL AND c.embedding_model = %(model)s
            THEN 1 - (c.embedding <=> %(query)s::vector) END AS cos,
       CASE WHEN numnode(q.tsq) > 0 AND c.search_tsv @@ q.tsq
            THEN ts_rank_cd(c.search_tsv, q.tsq) ELSE 0 END AS rank,
       p.cos AS prev_cos, coalesce(p.rank, 0) AS prev_rank,
       n.cos AS next_cos, coalesce(n.rank, 0) AS next_rank
FROM journal.episodes c
CROSS JOIN q
LEFT JOIN LATERAL (
    SELECT CASE WHEN e.embedding IS NOT NULL AND e.embedding_model = %(model)s
                THEN 1 - (e.embedding <=> %(query)s::vector) END AS cos,
           CASE WHEN numnode(q.tsq) > 0 AND e.search_tsv @@ q.tsq
                THEN ts_rank_cd(e.search_tsv, q.tsq) ELSE 0 END AS rank
    FROM journal.episodes e
    WHERE e.subject = c.subject AND e.workspace = c.workspace
      AND e.session_ids[1] = c.session_ids[1]
      AND (e.first_seen_at, e.episode_id) < (c.first_seen_at, c.episode_id)
      AND NOT EXISTS (SELECT 1 FROM journal.quarantined qq
                      WHERE qq.record_kind = 'episode' AND qq.record_id = e.episode_id::text)
      AND NOT EXISTS (SELECT 1 FROM hidden h WHERE h.content_sha256 = e.content_sha256)
    ORDER BY e.first_seen_at DESC, e.episode_id DESC
    LIMIT 1
) p ON true
LEFT JOIN LATERAL (
    SELECT CASE WHEN e.embedding IS NOT NULL AND e.embedding_model = %(model)s
                THEN 1 - (e.embedding <=> %(query)s::vector) END AS cos,
           CASE WHEN numnode(q.tsq) > 0 AND e.search_tsv @@ q.tsq
                THEN ts_rank_cd(e.search_tsv, q.tsq) ELSE 0 END AS rank
    FROM journal.episodes e
    WHERE e.subject = c.subject AND e.workspace = c.workspace
      AND e.session_ids[1] = c.session_ids[1]
      AND (e.first_seen_at, e.episode_id) > (c.first_seen_at, c.episode_id)
      AND NOT EXISTS (SELECT 1 FROM journal.quarantined qq
                      WHERE qq.record_kind = 'episode' AND qq.record_id = e.episode_id::text)
      AND NOT EXISTS (SELECT 1 FROM hidden h WHERE h.content_sha256 = e.content_sha256)
    ORDER BY e.first_seen_at, e.episode_id
    LIMIT 1
) n ON true
WHERE c.episode_id = ANY (%(ids)s::uuid[]);

-- name: episode_store_dates
-- The commit path (memory_service/journal.py), once, when an episode is
-- created with resolvable relative dates (engram.dates).
UPDATE journal.episodes SET resolved_dates = %(dates)s
WHERE episode_id = %(episode_id)s AND resolved_dates = '';

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
--
-- Candidates come from GIN indexes over the texts' term keys
-- (migrations/0007_exact_terms_index.sql): a row that matches the patterns
-- holds every key of the terms, so `keys @> <the terms' keys>` only narrows,
-- and the patterns decide. Each query folds a candidate's texts once (the
-- OFFSET 0 keeps the planner from copying the fold into every pattern test).

-- name: exact_prepare
-- One round trip before the search: the terms folded by journal.exact_fold, in
-- order; whether the database folds each probe character to what
-- engram.terms.fold gives for it (true for an empty probe); what that answer
-- holds for (fold_version: the server, the database's collation and the fold's
-- definition); and the index keys the searched strings must all have: of the
-- folded terms for the primary (events_exact_terms_idx); of the
-- accent-stripped terms for the variant guard (the same index: plain for a
-- turn without accents, prefixed with a space for the stripped texts of an
-- accented turn); and of the folded terms by the verifier's own
-- implementation (episodes_exact_terms_idx). With %(export)s, the snapshot
-- exported for the verifier (pg_export_snapshot): this is the transaction's
-- first statement, so its snapshot is the transaction's.
SELECT ARRAY(SELECT journal.exact_fold(t)
             FROM unnest(%(terms)s::text[]) WITH ORDINALITY AS x(t, ord)
             ORDER BY ord) AS folded,
       (SELECT coalesce(bool_and(journal.exact_fold(p.c) IS NOT DISTINCT FROM p.expected), true)
        FROM unnest(%(chars)s::text[], %(expected)s::text[]) AS p(c, expected)) AS agrees,
       (SELECT md5(concat_ws('|', version(), d.datcollate, d.datctype,
                             pg_database_collation_actual_version(d.oid),
                             (SELECT string_agg(f.prosrc, '|' ORDER BY f.proname)
                              FROM pg_proc f
                              JOIN pg_namespace n ON n.oid = f.pronamespace
                              WHERE n.nspname = 'journal'
                                AND f.proname IN ('exact_fold', 'exact_nfkc'))))
        FROM pg_database d
        WHERE d.datname = current_database()) AS fold_version,
       ARRAY(SELECT DISTINCT k
             FROM unnest(%(terms)s::text[]) AS t,
                  unnest(journal.exact_words(journal.exact_fold(t))) AS k
             ORDER BY k) AS keys,
       ARRAY(SELECT DISTINCT k
             FROM unnest(%(stripped)s::text[]) AS t, unnest(journal.exact_words(t)) AS k
             ORDER BY k) AS variant_keys,
       ARRAY(SELECT DISTINCT ' ' || k
             FROM unnest(%(stripped)s::text[]) AS t, unnest(journal.exact_words(t)) AS k
             ORDER BY 1) AS variant_marked_keys,
       ARRAY(SELECT DISTINCT k
             FROM unnest(%(terms)s::text[]) AS t,
                  unnest(journal.exact_episode_words(journal.exact_fold(t))) AS k
             ORDER BY k) AS verifier_keys,
       CASE WHEN %(export)s::boolean THEN pg_export_snapshot() END AS snapshot_id;

-- name: exact_matches
-- The page and the pre-limit count in one statement over the same matching
-- turns. The page: one match per distinct learning-eligible, non-hidden
-- content, its latest occurrence in scope, newest first. The count, over all
-- matches (not the page): those contents ("matched"), and the distinct
-- contents with any matching turn in scope, eligible or not, hidden or not
-- ("matched_anywhere"; the difference is matching journal content this path
-- does not expose). Always one row at least: with an empty page, one row of
-- counts whose event columns are NULL.
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
matching AS MATERIALIZED (
    SELECT ev.event_id, ev.content_sha256,
           coalesce((ev.payload ->> 'learning_eligible')::boolean, false) AS eligible
    FROM journal.events ev
    CROSS JOIN LATERAL (
        SELECT journal.exact_fold(ev.payload ->> 'user_text') AS u,
               journal.exact_fold(ev.payload ->> 'assistant_text') AS a
        OFFSET 0
    ) f
    WHERE ev.event_type = 'conversation.turn.completed'
      AND ev.subject = %(subject)s
      AND journal.exact_turn_terms(ev.payload ->> 'user_text', ev.payload ->> 'assistant_text')
          @> %(keys)s::text[]
      AND ev.workspace = %(workspace)s
      AND (%(session_id)s::text = '' OR ev.session_id = %(session_id)s::text)
      AND (%(start)s::timestamptz IS NULL OR ev.occurred_at >= %(start)s::timestamptz)
      AND (%(end)s::timestamptz IS NULL OR ev.occurred_at < %(end)s::timestamptz)
      AND NOT EXISTS (SELECT 1 FROM unnest(%(patterns)b::text[]) AS p(pattern)
                      WHERE NOT (f.u ~ p.pattern OR f.a ~ p.pattern))
),
shown AS (
    SELECT m.event_id, m.content_sha256
    FROM matching m
    WHERE m.eligible
      AND NOT EXISTS (SELECT 1 FROM hidden h WHERE h.content_sha256 = m.content_sha256)
),
counts AS (
    SELECT (SELECT count(DISTINCT s.content_sha256) FROM shown s) AS matched,
           (SELECT count(DISTINCT m.content_sha256) FROM matching m) AS matched_anywhere
),
page AS (
    SELECT latest.event_id
    FROM (SELECT DISTINCT ON (s.content_sha256) s.event_id
          FROM shown s
          ORDER BY s.content_sha256, s.event_id DESC) AS latest
    ORDER BY latest.event_id DESC
    LIMIT %(limit)s
)
SELECT c.matched, c.matched_anywhere, ev.event_id, ev.session_id, ev.occurred_at,
       ev.payload ->> 'user_text' AS user_text,
       ev.payload ->> 'assistant_text' AS assistant_text
FROM counts c
LEFT JOIN page p ON true
LEFT JOIN journal.events ev ON ev.event_id = p.event_id
ORDER BY ev.event_id DESC NULLS LAST;

-- name: exact_verifier_count
-- The independent count: a differently shaped query over the episode
-- projection (one row per learning-eligible content; session_ids lists every
-- session it occurred in), through its own index and key implementation,
-- with the same hidden-content rule.
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
CROSS JOIN LATERAL (
    SELECT journal.exact_fold(ep.user_text) AS u, journal.exact_fold(ep.assistant_text) AS a
    OFFSET 0
) f
WHERE ep.subject = %(subject)s
  AND journal.exact_episode_terms(ep.user_text, ep.assistant_text) @> %(verifier_keys)s::text[]
  AND ep.workspace = %(workspace)s
  AND (%(session_id)s::text = '' OR %(session_id)s::text = ANY (ep.session_ids))
  AND NOT EXISTS (SELECT 1 FROM journal.quarantined q
                  WHERE q.record_kind = 'episode' AND q.record_id = ep.episode_id::text)
  AND NOT EXISTS (SELECT 1 FROM quarantined_turns t WHERE t.content_sha256 = ep.content_sha256)
  AND (SELECT bool_and(f.u ~ p OR f.a ~ p) FROM unnest(%(patterns)b::text[]) AS p);

-- name: exact_fold_check
-- The fold check alone (exact_prepare's), when the fold changed since characters
-- were last checked.
SELECT coalesce(bool_and(journal.exact_fold(p.c) IS NOT DISTINCT FROM p.expected), true)
           AS agrees
FROM unnest(%(chars)s::text[], %(expected)s::text[]) AS p(c, expected);

-- name: exact_variant_exists
-- Whether any turn in scope (eligible or not, hidden or not) matches the terms
-- once accents are stripped from both sides: run only when the exact search
-- found nothing, to keep a differently accented spelling from becoming an
-- authoritative absence. The turn index holds the stripped texts' keys too:
-- those of a turn without accents are its own keys, those of an accented turn
-- are prefixed.
SELECT EXISTS (
    SELECT 1
    FROM journal.events ev
    CROSS JOIN LATERAL (
        SELECT journal.strip_marks(journal.exact_fold(ev.payload ->> 'user_text')) AS u,
               journal.strip_marks(journal.exact_fold(ev.payload ->> 'assistant_text')) AS a
        OFFSET 0
    ) f
    WHERE ev.event_type = 'conversation.turn.completed'
      AND ev.subject = %(subject)s
      AND (journal.exact_turn_terms(ev.payload ->> 'user_text', ev.payload ->> 'assistant_text')
               @> %(variant_keys)s::text[]
           OR journal.exact_turn_terms(ev.payload ->> 'user_text', ev.payload ->> 'assistant_text')
               @> %(variant_marked_keys)s::text[])
      AND ev.workspace = %(workspace)s
      AND (%(session_id)s::text = '' OR ev.session_id = %(session_id)s::text)
      AND (%(start)s::timestamptz IS NULL OR ev.occurred_at >= %(start)s::timestamptz)
      AND (%(end)s::timestamptz IS NULL OR ev.occurred_at < %(end)s::timestamptz)
      AND NOT EXISTS (SELECT 1 FROM unnest(%(variant_patterns)b::text[]) AS p(pattern)
                      WHERE NOT (f.u ~ p.pattern OR f.a ~ p.pattern))
) AS found;

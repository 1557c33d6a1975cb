-- FindExact's queries as they were before the term indexes
-- (memory_service/migrations/0007_exact_terms_index.sql), verbatim: every
-- turn of the subject folded and matched, for the page, the count, the
-- verifier and the variant guard. bench/find_exact_bench.py times them as the
-- same-run baseline; tests/integration/test_find_exact_index.py checks that
-- the indexed path returns exactly what they return.

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


-- name: linear_feed_watermark
-- The feed watermark as read before migration 0008 (the feed clock row), so
-- the baseline runs on a database migrated only through 0006.
SELECT last_cursor FROM journal.feed_clock;

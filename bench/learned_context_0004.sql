-- The learned-context read of migration 0004 (before the postings of 0005),
-- verbatim: the eligible count, the hits through the (scope, term) GIN keys
-- ranked with ts_delete, the unindexed rows, the durable-memory fallback and
-- the watermark, pipelined in one read-only transaction, plus the GIN index
-- 0005 dropped. bench/learned_context_bench.py times it as the same-run
-- baseline and checks that the new read returns exactly what it returns.

-- name: baseline_index
CREATE INDEX IF NOT EXISTS learning_state_scoped_terms_idx ON learning.learning_state
    USING gin (scoped_terms)
    WHERE status = 'active' AND publish_tier = 'active';

-- name: context_hits
-- The best-scoring indexed learnings sharing a term with the input (found
-- by their (scope, term) keys, learning.scoped_terms), ranked
-- as learning_service.context.select ranks them: score (the cosine of the
-- two term sets, text.overlap_score, in the same float8 arithmetic; the
-- shared terms counted as the stored set less ts_delete of the input's,
-- built-in and without a subquery per row), then narrower scope, newer,
-- id; `matched` counts every hit before the LIMIT.
SELECT c.*,
       (cardinality(c.terms) - length(ts_delete(array_to_tsvector(c.terms), %(terms)s::text[])))
           ::float8 / sqrt((cardinality(%(terms)s::text[]) * cardinality(c.terms))::float8)
           AS score,
       count(*) OVER () AS matched
FROM learning.context_eligible c
WHERE c.scope_key = ANY (%(scope_keys)s::text[]) AND c.terms && %(terms)s::text[]
  AND c.terms_version = %(terms_version)s
  -- The same condition as the two above, in the form the GIN index holds;
  -- written last, so a plan that filters rows instead evaluates it (the
  -- costliest) only on rows that passed them.
  AND c.scoped_terms && learning.scoped_query(%(scope_keys)s::text[], %(terms)s::text[])
  AND learning.session_visible(c.scope_kind, c.source_subject, c.source_workspace,
                               %(subject)s, %(workspace)s)
ORDER BY score DESC, array_position(%(scope_order)s::text[], c.scope_kind), c.created_at DESC,
         c.learning_id
LIMIT %(limit)s;

-- name: context_unindexed
-- Eligible learnings without a current term set (written before migration
-- 0004 or by hand, by another normaliser version, or with a term too long
-- to index): scored from their content. The range pair keeps the
-- terms_version index usable.
SELECT c.*
FROM learning.context_eligible c
WHERE (c.terms_version IS NULL OR c.terms_version < %(terms_version)s
       OR c.terms_version > %(terms_version)s)
  AND c.scope_key = ANY (%(scope_keys)s::text[])
  AND learning.session_visible(c.scope_kind, c.source_subject, c.source_workspace,
                               %(subject)s, %(workspace)s);

-- name: context_eligible_count
SELECT count(*) AS eligible
FROM learning.context_eligible c
WHERE c.scope_key = ANY (%(scope_keys)s::text[])
  AND learning.session_visible(c.scope_kind, c.source_subject, c.source_workspace,
                               %(subject)s, %(workspace)s);

-- name: context_recent
-- The durable-memory fallback: newest first, narrower scope first on ties.
SELECT c.*
FROM learning.context_eligible c
WHERE c.scope_key = ANY (%(scope_keys)s::text[])
  AND learning.session_visible(c.scope_kind, c.source_subject, c.source_workspace,
                               %(subject)s, %(workspace)s)
ORDER BY c.created_at DESC, array_position(%(scope_order)s::text[], c.scope_kind), c.learning_id
LIMIT %(limit)s;

-- name: revision_watermark
-- An erasure removes revisions without adding one, and a journal quarantine
-- or restore changes what is served without one: the last purge and the
-- last applied quarantine change are part of the snapshot so the version
-- still changes.
SELECT (SELECT coalesce(max(revision_seq), 0) FROM learning.learning_revisions) AS revision_seq,
       (SELECT coalesce(max(purge_id), 0) FROM learning.purge_ledger) AS purge_id,
       (SELECT coalesce(max(change_cursor), 0) FROM learning.source_quarantine)
           AS quarantine_cursor;


-- Named queries of the learning service (see engram.db.queries).

-- name: advisory_lock
SELECT pg_advisory_xact_lock(hashtextextended(%(key)s, 0));

-- name: idempotency_get
SELECT request_sha256, response
FROM learning.idempotency
WHERE operation = %(operation)s AND request_id = %(request_id)s;

-- name: idempotency_put
INSERT INTO learning.idempotency (operation, request_id, request_sha256, response)
VALUES (%(operation)s, %(request_id)s, %(request_sha256)s, %(response)s);

-- name: generic_plan
-- For the statement that follows in the same transaction (or the same
-- pipeline sync: an implicit transaction): its generic plan (context_read:
-- planning it costs more than running it at the sizes of a normal read, and
-- the plan cache would otherwise keep planning it anew).
SET LOCAL plan_cache_mode = force_generic_plan;

-- name: counter_add
INSERT INTO learning.counters (name, value) VALUES (%(name)s, %(amount)s)
ON CONFLICT (name) DO UPDATE SET value = learning.counters.value + excluded.value;

-- name: counters_all
SELECT name, value FROM learning.counters ORDER BY name;

-- name: cursor_get
SELECT position FROM learning.worker_cursors WHERE name = %(name)s;

-- name: cursor_for_update
SELECT position FROM learning.worker_cursors WHERE name = %(name)s FOR UPDATE;

-- name: cursor_advance
UPDATE learning.worker_cursors SET position = %(position)s, updated_at = now()
WHERE name = %(name)s;

-- name: cursor_advance_to
-- Forward only: concurrent advancers leave the highest position.
UPDATE learning.worker_cursors SET position = %(position)s, updated_at = now()
WHERE name = %(name)s AND position < %(position)s;

-- ------------------------------------------------------------------ quarantine

-- name: source_quarantine_put
-- A journal quarantine or restore; an older change never overwrites a newer one.
INSERT INTO learning.source_quarantine (record_kind, record_id, quarantined, change_cursor)
VALUES (%(record_kind)s, %(record_id)s, %(quarantined)s, %(change_cursor)s)
ON CONFLICT (record_kind, record_id) DO UPDATE SET
    quarantined = excluded.quarantined,
    change_cursor = excluded.change_cursor,
    updated_at = now()
WHERE learning.source_quarantine.change_cursor < excluded.change_cursor;

-- name: journal_quarantine_readable
-- Does this database hold the journal's quarantine tables, readable here?
SELECT coalesce(has_table_privilege(to_regclass('journal.quarantined'), 'SELECT')
                AND has_table_privilege(to_regclass('journal.quarantine_ledger'), 'SELECT'),
                false) AS readable;

-- ------------------------------------------------------------------ policy

-- name: policy_current
SELECT document, updated_by, updated_at
FROM learning.policy_versions
ORDER BY version DESC
LIMIT 1;

-- name: insert_policy
INSERT INTO learning.policy_versions (document, updated_by)
VALUES (%(document)s, %(updated_by)s);

-- ------------------------------------------------------------------ candidates

-- name: insert_candidate
INSERT INTO learning.candidates
    (origin, scope_kind, scope_id, kind, content, content_sha256, confidence, source_run_id,
     source_session_id, source_subject, source_workspace, source_event_id, evidence_refs,
     sensitivity, expires_at)
VALUES (%(origin)s, %(scope_kind)s, %(scope_id)s, %(kind)s, %(content)s, %(content_sha256)s,
        %(confidence)s, %(source_run_id)s, %(source_session_id)s, %(source_subject)s,
        %(source_workspace)s, %(source_event_id)s, %(evidence_refs)s, %(sensitivity)s,
        %(expires_at)s)
RETURNING candidate_id;

-- name: insert_daemon_candidate
INSERT INTO learning.candidates
    (origin, scope_kind, scope_id, kind, content, content_sha256, confidence, source_run_id,
     source_session_id, source_subject, source_workspace, source_event_id, evidence_refs,
     sensitivity, expires_at)
VALUES (%(origin)s, %(scope_kind)s, %(scope_id)s, %(kind)s, %(content)s, %(content_sha256)s,
        %(confidence)s, %(source_run_id)s, %(source_session_id)s, %(source_subject)s,
        %(source_workspace)s, %(source_event_id)s, %(evidence_refs)s, %(sensitivity)s,
        %(expires_at)s)
ON CONFLICT (source_run_id, kind, content_sha256) WHERE origin = 'daemon' DO NOTHING
RETURNING candidate_id;

-- name: insert_candidate_event
INSERT INTO learning.candidate_events (candidate_id, status, reason, actor, learning_id)
VALUES (%(candidate_id)s, %(status)s, %(reason)s, %(actor)s, %(learning_id)s);

-- name: candidate_by_id
SELECT * FROM learning.candidate_current WHERE candidate_id = %(candidate_id)s;

-- name: lock_candidate_state
SELECT status FROM learning.candidate_state WHERE candidate_id = %(candidate_id)s FOR UPDATE;

-- name: candidates_page
SELECT * FROM learning.candidate_current
WHERE status = ANY (%(statuses)s::text[])
  AND (%(kind)s::text IS NULL OR kind = %(kind)s::text)
  AND seq < %(before)s
ORDER BY seq DESC
LIMIT %(limit)s;

-- name: candidates_after_seq
SELECT * FROM learning.candidate_current
WHERE seq > %(after)s
ORDER BY seq
LIMIT %(limit)s;

-- name: insert_review
INSERT INTO learning.candidate_reviews
    (candidate_id, mode, matched_rule, baseline_action, judge, final_action, verification,
     reason, applied, conflict_with)
VALUES (%(candidate_id)s, %(mode)s, %(matched_rule)s, %(baseline_action)s, %(judge)s,
        %(final_action)s, %(verification)s, %(reason)s, %(applied)s, %(conflict_with)s);

-- ------------------------------------------------------------------ learnings

-- name: insert_learning
INSERT INTO learning.learnings
    (candidate_id, origin, scope_kind, scope_id, kind, content, content_sha256, subject_key,
     value_key, confidence, source_run_id, source_session_id, source_subject, source_workspace,
     source_event_id, evidence_refs, sensitivity, expires_at, verification_status,
     policy_decision, policy_actor, supersedes)
SELECT c.candidate_id, c.origin, c.scope_kind, c.scope_id, c.kind, c.content, c.content_sha256,
       %(subject_key)s, %(value_key)s, c.confidence, c.source_run_id, c.source_session_id,
       c.source_subject, c.source_workspace, c.source_event_id, c.evidence_refs, c.sensitivity,
       c.expires_at, %(verification_status)s, %(policy_decision)s, %(policy_actor)s,
       %(supersedes)s
FROM learning.candidates c
WHERE c.candidate_id = %(candidate_id)s
RETURNING learning_id;

-- name: insert_revision
-- terms/terms_version: the content's term set (learning_service.term_index).
INSERT INTO learning.learning_revisions
    (learning_id, revision, status, publish_tier, action, actor, reason, superseded_by, terms,
     terms_version)
VALUES (%(learning_id)s, %(revision)s, %(status)s, %(publish_tier)s, %(action)s, %(actor)s,
        %(reason)s, %(superseded_by)s, %(terms)s, %(terms_version)s);

-- name: terms_stale
-- Learnings whose current term set is missing or of another normaliser version.
SELECT s.learning_id, s.revision, l.content
FROM learning.learning_state s
JOIN learning.learnings l USING (learning_id)
WHERE s.terms_version IS DISTINCT FROM %(terms_version)s AND s.learning_id > %(after)s::uuid
ORDER BY s.learning_id
LIMIT %(limit)s;

-- name: terms_put
-- The startup backfill; only at the revision it was computed for.
UPDATE learning.learning_state
SET terms = %(terms)s, terms_version = %(terms_version)s,
    scoped_terms = learning.scoped_terms(scope_key, %(terms)s)
WHERE learning_id = %(learning_id)s AND revision = %(revision)s;

-- name: learning_by_id
SELECT * FROM learning.learning_current WHERE learning_id = %(learning_id)s;

-- name: lock_learning_state
SELECT status FROM learning.learning_state WHERE learning_id = %(learning_id)s FOR UPDATE;

-- name: revisions_for
SELECT learning_id, revision, status, publish_tier, action, actor, reason, recorded_at
FROM learning.learning_revisions
WHERE learning_id = ANY (%(ids)s::uuid[])
ORDER BY learning_id, revision;

-- name: conflicting_learnings
-- A session scope is its source subject/workspace's: another subject's
-- session of the same id is another scope.
SELECT learning_id
FROM learning.learning_current
WHERE scope_kind = %(scope_kind)s AND scope_id = %(scope_id)s AND kind = %(kind)s
  AND subject_key = %(subject_key)s AND value_key <> %(value_key)s
  AND status = 'active'
  AND learning.session_visible(scope_kind, source_subject, source_workspace,
                               %(source_subject)s, %(source_workspace)s)
ORDER BY created_at DESC;

-- name: learnings_page
SELECT * FROM learning.learning_current
WHERE status = ANY (%(statuses)s::text[])
  AND (%(tier)s::text IS NULL OR publish_tier = %(tier)s::text)
  AND (%(kind)s::text IS NULL OR kind = %(kind)s::text)
  AND (%(scope_key)s::text IS NULL OR scope_key = %(scope_key)s::text)
  AND seq < %(before)s
ORDER BY seq DESC
LIMIT %(limit)s;

-- ------------------------------------------------------------------ read paths

-- name: eligible_in_scopes
-- prompt_eligible is the one injection gate (not withheld by quarantine
-- included); a session scope is the reading subject/workspace's only.
SELECT * FROM learning.learning_current
WHERE scope_key = ANY (%(scope_keys)s::text[]) AND prompt_eligible
  AND learning.session_visible(scope_kind, source_subject, source_workspace,
                               %(subject)s, %(workspace)s);

-- The learned-context read (learning_service.context): context_read and
-- context_unindexed are composed with the gate and the quarantine state of
-- the read's source (learning_service.context.composed):
--
--     WITH withheld_sources AS NOT MATERIALIZED (withheld_sources_<source>),
--          quarantine_version AS (quarantine_version_<source>),
--          context_gate AS NOT MATERIALIZED (context_gate)
--     <context_read or context_unindexed, its own WITH joined to this one>
--
-- with the terms_version parameter as a literal (the normaliser version).
--
-- The source is the plane's copy of the journal's quarantine state
-- (learning.source_quarantine, made current by the quarantine sync) or,
-- when this database is the journal's, the journal's own tables, read in the
-- same snapshot as everything else. Each query admits exactly the rows
-- eligible_in_scopes admits (the scope keys and session_visible added) when
-- the copy is current.

-- name: withheld_sources_copy
-- The run records and events withheld by quarantine, by the plane's copy.
SELECT record_kind, record_id FROM learning.source_quarantine WHERE quarantined

-- name: withheld_sources_journal
-- The same, by the journal's own projection of its quarantine ledger
-- (journal.quarantined: a row while the record is quarantined; Quarantine
-- and Restore commit it before they return).
SELECT record_kind, record_id FROM journal.quarantined
WHERE record_kind IN ('run_record', 'event')

-- name: quarantine_version_copy
-- The journal cursor of the last quarantine change applied to the copy.
SELECT coalesce(max(change_cursor), 0) AS version FROM learning.source_quarantine

-- name: quarantine_version_journal
-- The journal's last quarantine ledger entry of a run record or an event.
SELECT coalesce(max(entry_id), 0) AS version FROM journal.quarantine_ledger
WHERE record_kind IN ('run_record', 'event')

-- name: context_gate
-- What a learned-context read may inject, by learning_state alone: active
-- rows of the active tier that pass the injection gate
-- (learning.is_prompt_eligible, as learning.learning_gate applies it) and
-- whose source run record or run.completed event is not withheld (the rule
-- of learning.source_quarantined, over withheld_sources).
-- NOT IN rather than NOT EXISTS: the generic plan then hashes each withheld
-- set once (a hashed subplan) and probes it from the one index-only scan of
-- the scope, where NOT EXISTS got two hash anti joins that hashed every
-- learning in scope instead (docs/benchmarks.md, "Hot reads"). The same rows: record_id,
-- source_run_id and source_event_id are NOT NULL, so NOT IN has no NULL case.
-- A withheld set too large for hash_mem (some 10^5 ids of one kind at the
-- default work_mem) would be scanned per learning instead.
SELECT s.learning_id, s.scope_key, s.scope_kind, s.source_subject, s.source_workspace,
       s.created_at, s.terms, s.terms_version, s.term_count
FROM learning.learning_state s
WHERE s.status = 'active' AND s.publish_tier = 'active'
  AND learning.is_prompt_eligible(s.kind, s.sensitivity, s.status, s.publish_tier,
                                  s.verification_status, s.policy_decision, s.expires_at,
                                  now())
  AND (s.source_run_id = ''
       OR s.source_run_id NOT IN (SELECT w.record_id FROM withheld_sources w
                                  WHERE w.record_kind = 'run_record'))
  AND (s.source_event_id <= 0
       OR s.source_event_id::text NOT IN (SELECT w.record_id FROM withheld_sources w
                                          WHERE w.record_kind = 'event'))

-- name: context_read
-- The whole read in one statement (one snapshot, one round trip): the
-- eligible count, the best-scoring indexed hits ranked and limited, or
-- with %(fallback)s and no indexed hit the newest eligible learnings, and
-- the revision watermark. Hits are found and scored through their postings
-- (learning.learning_terms, migration 0005): the rows of a learning under
-- the read's (scope, term) pairs are the terms it shares with the input,
-- so score = shared / sqrt(|input| * |terms|), text.overlap_score in the
-- same float8 arithmetic. Ranked as learning_service.context.select ranks:
-- score, narrower scope, newer, id. `unindexed`: learnings without a
-- current term set may be in scope (the caller then scores them,
-- context_unindexed).
-- One row per picked learning (`part` 'hit' or 'recent'), or one row with
-- NULL entry columns when none is picked; the entry columns are what a
-- LearnedContextEntry carries. The watermark has the last purge and the
-- last quarantine change beside the last revision: an erasure removes
-- revisions without adding one, and a quarantine or restore changes what is
-- served without one, and the snapshot version must still change.
WITH shared AS (
    SELECT p.learning_id, count(*) AS shared
    FROM learning.learning_terms p
    WHERE p.scope_key = ANY (%(scope_keys)s::text[]) AND p.term = ANY (%(terms)s::text[])
    GROUP BY p.learning_id
),
-- The gate once per read: every eligible learning in scope with what the
-- read ranks by, from one index-only scan of learning_state_context_idx
-- (0006) with the quarantine state hashed once; counted for `eligible`, and
-- the postings' hits join it, so no hit is gated (or read) again.
gated AS MATERIALIZED (
    SELECT c.learning_id, c.scope_kind, c.created_at, c.terms_version, c.term_count
    FROM context_gate c
    WHERE c.scope_key = ANY (%(scope_keys)s::text[])
      AND learning.session_visible(c.scope_kind, c.source_subject, c.source_workspace,
                                   %(subject)s, %(workspace)s)
),
hits AS MATERIALIZED (
    SELECT g.learning_id, g.scope_kind, g.created_at,
           h.shared::float8
               / sqrt((cardinality(%(terms)s::text[]) * g.term_count)::float8) AS score
    FROM shared h
    JOIN gated g USING (learning_id)
    WHERE g.terms_version = %(terms_version)s
),
in_scope AS (
    SELECT count(*) AS eligible FROM gated
),
picked AS (
    (SELECT learning_id, score, 'hit' AS part FROM hits
     ORDER BY score DESC, array_position(%(scope_order)s::text[], scope_kind), created_at DESC,
              learning_id
     LIMIT %(limit)s)
    UNION ALL
    (SELECT g.learning_id, 0::float8, 'recent' FROM gated g
     WHERE %(fallback)s AND NOT EXISTS (SELECT FROM hits)
     ORDER BY g.created_at DESC, array_position(%(scope_order)s::text[], g.scope_kind),
              g.learning_id
     LIMIT %(limit)s)
)
SELECT n.eligible, (SELECT count(*) FROM hits) AS matched,
       -- Whether any active learning in scope lacks a current term set (the
       -- terms_version index; the caller's second read applies the gate).
       EXISTS (SELECT FROM learning.learning_state s
               WHERE s.status = 'active' AND s.publish_tier = 'active'
                 AND (s.terms_version IS NULL OR s.terms_version < %(terms_version)s
                      OR s.terms_version > %(terms_version)s)
                 AND s.scope_key = ANY (%(scope_keys)s::text[])) AS unindexed,
       (SELECT coalesce(max(revision_seq), 0) FROM learning.learning_revisions) AS revision_seq,
       (SELECT coalesce(max(purge_id), 0) FROM learning.purge_ledger) AS purge_id,
       (SELECT version FROM quarantine_version) AS quarantine_cursor,
       p.part, p.score,
       e.learning_id, e.scope_kind, e.scope_id, e.kind, e.content, st.status, st.publish_tier,
       e.verification_status, e.policy_decision, e.policy_actor, e.source_run_id,
       e.source_session_id, e.source_subject, e.source_workspace, e.source_event_id,
       e.evidence_refs, e.sensitivity, e.candidate_id, e.supersedes, st.superseded_by,
       e.created_at, e.confidence, e.origin, false AS withheld_by_quarantine, e.expires_at
FROM in_scope n
-- The picked rows passed the gate in this statement's snapshot: their entry
-- columns straight from the two tables.
LEFT JOIN (picked p
           JOIN learning.learnings e USING (learning_id)
           JOIN learning.learning_state st USING (learning_id)) ON true;

-- name: context_unindexed
-- Eligible learnings without a current term set (written before migration
-- 0004 or by hand, by another normaliser version, or with a term too long
-- to index): scored from their content, with context_read's entry columns.
-- The range pair keeps the terms_version index usable.
SELECT e.learning_id, e.scope_kind, e.scope_id, e.kind, e.content, st.status, st.publish_tier,
       e.verification_status, e.policy_decision, e.policy_actor, e.source_run_id,
       e.source_session_id, e.source_subject, e.source_workspace, e.source_event_id,
       e.evidence_refs, e.sensitivity, e.candidate_id, e.supersedes, st.superseded_by,
       e.created_at, e.confidence, e.origin, false AS withheld_by_quarantine, e.expires_at
FROM context_gate c
JOIN learning.learnings e USING (learning_id)
JOIN learning.learning_state st USING (learning_id)
WHERE (c.terms_version IS NULL OR c.terms_version < %(terms_version)s
       OR c.terms_version > %(terms_version)s)
  AND c.scope_key = ANY (%(scope_keys)s::text[])
  AND learning.session_visible(c.scope_kind, c.source_subject, c.source_workspace,
                               %(subject)s, %(workspace)s);

-- name: searchable_learnings
-- Sensitive learnings and learnings withheld by quarantine never reach
-- search; the prompt_eligible tag comes from the one gate. With a subject,
-- session scopes are that subject/workspace's only. No scope keys: every
-- scope. The browse (a query without terms): every such learning.
SELECT learning_id, kind, content, scope_key, prompt_eligible, updated_at
FROM learning.learning_current
WHERE status = 'active' AND sensitivity <> 'sensitive' AND NOT withheld_by_quarantine
  AND (cardinality(%(scope_keys)s::text[]) = 0 OR scope_key = ANY (%(scope_keys)s::text[]))
  AND (%(subject)s::text = ''
       OR learning.session_visible(scope_kind, source_subject, source_workspace,
                                   %(subject)s, %(workspace)s));

-- name: searchable_learning_hits
-- searchable_learnings sharing a term with the query, found and scored
-- through their postings (as context_read: shared / sqrt(|query| * |terms|),
-- text.overlap_score), then those without a current term set with a NULL
-- score (the caller scores them from their content).
WITH shared AS (
    SELECT p.learning_id, count(*) AS shared
    FROM learning.learning_terms p
    WHERE p.term = ANY (%(terms)s::text[])
      AND (cardinality(%(scope_keys)s::text[]) = 0
           OR p.scope_key = ANY (%(scope_keys)s::text[]))
    GROUP BY p.learning_id
),
searchable AS (
    SELECT c.learning_id, c.kind, c.content, c.scope_key, c.prompt_eligible, c.updated_at,
           c.terms, c.terms_version
    FROM learning.learning_current c
    WHERE c.status = 'active' AND c.sensitivity <> 'sensitive' AND NOT c.withheld_by_quarantine
      AND (%(subject)s::text = ''
           OR learning.session_visible(c.scope_kind, c.source_subject, c.source_workspace,
                                       %(subject)s, %(workspace)s))
)
SELECT c.learning_id, c.kind, c.content, c.scope_key, c.prompt_eligible, c.updated_at,
       h.shared::float8
           / sqrt((cardinality(%(terms)s::text[]) * cardinality(c.terms))::float8) AS score
FROM shared h
JOIN searchable c USING (learning_id)
WHERE c.terms_version = %(terms_version)s
UNION ALL
SELECT c.learning_id, c.kind, c.content, c.scope_key, c.prompt_eligible, c.updated_at,
       NULL::float8
FROM searchable c
WHERE (c.terms_version IS NULL OR c.terms_version < %(terms_version)s
       OR c.terms_version > %(terms_version)s)
  AND (cardinality(%(scope_keys)s::text[]) = 0 OR c.scope_key = ANY (%(scope_keys)s::text[]));

-- name: searchable_skills
SELECT skill_name, state, instructions, updated_at FROM learning.skill_current
WHERE NOT withheld_by_quarantine;

-- name: status_counts
SELECT
    (SELECT count(*) FROM learning.candidate_state WHERE status = 'pending')
        AS candidates_pending,
    (SELECT count(*) FROM learning.candidate_state WHERE status = 'escalated')
        AS candidates_escalated,
    (SELECT count(*) FROM learning.learning_state
        WHERE status = 'active' AND publish_tier = 'active') AS learnings_active,
    (SELECT count(*) FROM learning.learning_state
        WHERE status = 'active' AND publish_tier = 'provisional') AS learnings_provisional,
    (SELECT count(*) FROM learning.skill_state WHERE state = 'active') AS skills_active,
    (SELECT position FROM learning.worker_cursors WHERE name = 'capture') AS capture_cursor,
    (SELECT position FROM learning.worker_cursors WHERE name = 'review') AS review_cursor,
    (SELECT count(*) FROM learning.learning_current
        WHERE status = 'active' AND withheld_by_quarantine) AS learnings_withheld,
    (SELECT position FROM learning.worker_cursors WHERE name = 'quarantine')
        AS quarantine_cursor;

-- ------------------------------------------------------------------ skills

-- name: insert_skill_version
INSERT INTO learning.skill_versions
    (skill_name, version, source_learning_id, instructions, execution_context,
     verification_profile, definition_fingerprint, created_by)
VALUES (%(skill_name)s, %(version)s, %(source_learning_id)s, %(instructions)s,
        %(execution_context)s, %(verification_profile)s, %(definition_fingerprint)s,
        %(created_by)s);

-- name: insert_skill_event
INSERT INTO learning.skill_events
    (skill_name, version, action, from_state, to_state, stage, run_id, session_id,
     definition_fingerprint, success, actor, note)
VALUES (%(skill_name)s, %(version)s, %(action)s, %(from_state)s, %(to_state)s, %(stage)s,
        %(run_id)s, %(session_id)s, %(definition_fingerprint)s, %(success)s, %(actor)s,
        %(note)s);

-- name: skill_by_name
SELECT sc.*,
       (SELECT max(v.version) FROM learning.skill_versions v
        WHERE v.skill_name = sc.skill_name) AS max_version
FROM learning.skill_current sc
WHERE sc.skill_name = %(skill_name)s;

-- name: skill_events_for
SELECT * FROM (
    SELECT e.*, row_number() OVER (PARTITION BY e.skill_name ORDER BY e.event_id DESC) AS n
    FROM learning.skill_events e
    WHERE e.skill_name = ANY (%(names)s::text[])
) recent
WHERE n <= %(limit)s
ORDER BY skill_name, event_id;

-- name: skills_from_learning
SELECT skill_name FROM learning.skill_current
WHERE source_learning_id = %(learning_id)s AND state <> 'revoked'
ORDER BY skill_name;

-- name: latest_active_snapshot
SELECT e.version, v.source_learning_id, v.definition_fingerprint
FROM learning.skill_events e
JOIN learning.skill_versions v USING (skill_name, version)
WHERE e.skill_name = %(skill_name)s AND e.to_state = 'active'
ORDER BY e.event_id DESC
LIMIT 1;

-- name: skills_page
-- The runtime catalog leaves out skills withheld by quarantine; governance
-- lists them (include_withheld).
SELECT * FROM learning.skill_current
WHERE (cardinality(%(states)s::text[]) = 0 OR state = ANY (%(states)s::text[]))
  AND (%(include_withheld)s OR NOT withheld_by_quarantine)
  AND skill_name > %(after)s
ORDER BY skill_name
LIMIT %(limit)s;

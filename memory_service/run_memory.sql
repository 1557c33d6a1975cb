-- Named queries of the recovered-run-memory plane (see engram.db.queries).
-- Every read filters expires_at > now() and the quarantine projection: an
-- expired or quarantined record is never served, whether or not pruning ran.
-- Every read and every session-scoped prune also filters subject and
-- workspace: a session id or run id of another subject matches nothing.
-- A record is a projection of its run.completed event, so quarantining that
-- event withholds the record too.

-- name: policy_get
SELECT enabled, retention_seconds, max_tracked_per_session, max_prompt_entries, redact_pii,
       search_visibility, updated_at, updated_by
FROM journal.run_memory_policy;

-- name: policy_get_for_share
-- Held by CompleteRun: a record is never written under a policy that a
-- concurrent SetRunMemoryPolicy is replacing.
SELECT enabled, retention_seconds, max_tracked_per_session, max_prompt_entries, redact_pii,
       search_visibility, updated_at, updated_by
FROM journal.run_memory_policy
FOR SHARE;

-- name: policy_lock
SELECT singleton FROM journal.run_memory_policy FOR UPDATE;

-- name: policy_put
UPDATE journal.run_memory_policy SET
    enabled = %(enabled)s,
    retention_seconds = %(retention_seconds)s,
    max_tracked_per_session = %(max_tracked_per_session)s,
    max_prompt_entries = %(max_prompt_entries)s,
    redact_pii = %(redact_pii)s,
    search_visibility = %(search_visibility)s,
    updated_at = now(),
    updated_by = %(updated_by)s
RETURNING enabled, retention_seconds, max_tracked_per_session, max_prompt_entries, redact_pii,
          search_visibility, updated_at, updated_by;

-- name: run_completed_event
SELECT event_id, subject, workspace, session_id, payload, recorded_at
FROM journal.events
WHERE event_type = 'run.completed' AND payload ->> 'run_id' = %(run_id)s;

-- name: insert_run_record
-- recorded_at is the transaction time, the same instant as the run.completed
-- event written in this transaction.
INSERT INTO journal.run_records
    (run_id, session_id, subject, workspace, status, summary, request_preview, outcome_preview,
     failure_markers, artifact_ids, scope_keys, redaction_count, event_id, request_sha256,
     recorded_at, expires_at)
VALUES (%(run_id)s, %(session_id)s, %(subject)s, %(workspace)s, %(status)s, %(summary)s,
        %(request_preview)s, %(outcome_preview)s, %(failure_markers)s, %(artifact_ids)s,
        %(scope_keys)s, %(redaction_count)s, %(event_id)s, %(request_sha256)s, now(),
        now() + make_interval(secs => %(retention_seconds)s))
RETURNING run_id, session_id, subject, workspace, status, summary, request_preview,
          outcome_preview, failure_markers, artifact_ids, scope_keys, redaction_count, event_id,
          recorded_at, expires_at;

-- name: run_record_served
SELECT r.run_id, r.session_id, r.subject, r.workspace, r.status, r.summary, r.request_preview,
       r.outcome_preview, r.failure_markers, r.artifact_ids, r.scope_keys, r.redaction_count,
       r.event_id, r.recorded_at, r.expires_at
FROM journal.run_records r
WHERE r.run_id = %(run_id)s
  AND r.subject = %(subject)s
  AND r.workspace = %(workspace)s
  AND r.expires_at > now()
  AND NOT EXISTS (SELECT 1 FROM journal.quarantined q
                  WHERE q.record_kind = 'run_record' AND q.record_id = r.run_id)
  AND NOT EXISTS (SELECT 1 FROM journal.quarantined qe
                  WHERE qe.record_kind = 'event' AND qe.record_id = r.event_id::text);

-- name: session_records_served
-- GetRecoveredMemory's one read: the policy, and, when run memory is enabled,
-- every eligible record of one subject/workspace/session (pruning bounds
-- this by max_tracked_per_session; ranking happens in the domain). Always at
-- least one row: with no record, the policy with NULL record columns.
SELECT p.enabled, p.retention_seconds, p.max_tracked_per_session, p.max_prompt_entries,
       p.redact_pii, p.search_visibility, p.updated_at, p.updated_by,
       r.run_id, r.session_id, r.subject, r.workspace, r.status, r.summary, r.request_preview,
       r.outcome_preview, r.failure_markers, r.artifact_ids, r.scope_keys, r.redaction_count,
       r.event_id, r.recorded_at, r.expires_at
FROM journal.run_memory_policy p
LEFT JOIN journal.run_records r
  ON p.enabled
  AND r.session_id = %(session_id)s
  AND r.subject = %(subject)s
  AND r.workspace = %(workspace)s
  AND r.expires_at > now()
  AND NOT EXISTS (SELECT 1 FROM journal.quarantined q
                  WHERE q.record_kind = 'run_record' AND q.record_id = r.run_id)
  AND NOT EXISTS (SELECT 1 FROM journal.quarantined qe
                  WHERE qe.record_kind = 'event' AND qe.record_id = r.event_id::text)
ORDER BY r.recorded_at DESC, r.event_id DESC;

-- name: search_page
-- Visible records of one subject/workspace (own session; plus that subject's
-- records sharing a scope key when widened), matching any query term when a
-- query is given, best first.
-- Keyset pagination over (score, recorded_at, run_id), all descending.
WITH q AS (
    SELECT nullif(array_to_string(ARRAY(
        SELECT '(' || plainto_tsquery('english', t)::text || ')'
        FROM unnest(%(terms)s::text[]) AS t
        WHERE plainto_tsquery('english', t)::text <> ''), ' | '), '')::tsquery AS tsq
), visible AS (
    SELECT r.run_id, r.session_id, r.subject, r.workspace, r.status, r.summary,
           r.request_preview, r.outcome_preview, r.failure_markers, r.artifact_ids,
           r.scope_keys, r.redaction_count, r.event_id, r.recorded_at, r.expires_at,
           CASE WHEN q.tsq IS NULL THEN 0
                ELSE ts_rank_cd(r.search_tsv, q.tsq) END::float8 AS score
    FROM journal.run_records r, q
    WHERE r.expires_at > now()
      AND r.subject = %(subject)s
      AND r.workspace = %(workspace)s
      AND (r.session_id = %(session_id)s
           OR (%(widen)s AND r.scope_keys && %(scope_keys)s::text[]))
      AND NOT EXISTS (SELECT 1 FROM journal.quarantined qq
                      WHERE qq.record_kind = 'run_record' AND qq.record_id = r.run_id)
      AND NOT EXISTS (SELECT 1 FROM journal.quarantined qe
                      WHERE qe.record_kind = 'event' AND qe.record_id = r.event_id::text)
      AND (NOT %(has_query)s OR r.search_tsv @@ q.tsq)
)
SELECT * FROM visible
WHERE %(after_score)s::float8 IS NULL
   OR (score, recorded_at, run_id)
      < (%(after_score)s::float8, %(after_at)s::timestamptz, %(after_run)s::text)
ORDER BY score DESC, recorded_at DESC, run_id DESC
LIMIT %(limit)s;

-- name: search_count
-- A separate count of the matches from this page's position on:
-- matched_before_limit never comes from the rows returned.
WITH q AS (
    SELECT nullif(array_to_string(ARRAY(
        SELECT '(' || plainto_tsquery('english', t)::text || ')'
        FROM unnest(%(terms)s::text[]) AS t
        WHERE plainto_tsquery('english', t)::text <> ''), ' | '), '')::tsquery AS tsq
), visible AS (
    SELECT r.run_id, r.session_id, r.subject, r.workspace, r.status, r.summary,
           r.request_preview, r.outcome_preview, r.failure_markers, r.artifact_ids,
           r.scope_keys, r.redaction_count, r.event_id, r.recorded_at, r.expires_at,
           CASE WHEN q.tsq IS NULL THEN 0
                ELSE ts_rank_cd(r.search_tsv, q.tsq) END::float8 AS score
    FROM journal.run_records r, q
    WHERE r.expires_at > now()
      AND r.subject = %(subject)s
      AND r.workspace = %(workspace)s
      AND (r.session_id = %(session_id)s
           OR (%(widen)s AND r.scope_keys && %(scope_keys)s::text[]))
      AND NOT EXISTS (SELECT 1 FROM journal.quarantined qq
                      WHERE qq.record_kind = 'run_record' AND qq.record_id = r.run_id)
      AND NOT EXISTS (SELECT 1 FROM journal.quarantined qe
                      WHERE qe.record_kind = 'event' AND qe.record_id = r.event_id::text)
      AND (NOT %(has_query)s OR r.search_tsv @@ q.tsq)
)
SELECT (SELECT count(*) FROM visible
        WHERE %(after_score)s::float8 IS NULL
           OR (score, recorded_at, run_id)
              < (%(after_score)s::float8, %(after_at)s::timestamptz, %(after_run)s::text)) AS n,
       (SELECT q.tsq IS NOT NULL FROM q) AS usable;

-- name: recompute_expiry
UPDATE journal.run_records
SET expires_at = recorded_at + make_interval(secs => %(retention_seconds)s)
WHERE expires_at <> recorded_at + make_interval(secs => %(retention_seconds)s);

-- name: delete_expired
-- Only this subject/workspace/session when session_id is set, else every
-- session.
DELETE FROM journal.run_records
WHERE expires_at <= now()
  AND (%(session_id)s::text IS NULL
       OR (session_id = %(session_id)s AND subject = %(subject)s
           AND workspace = %(workspace)s))
RETURNING run_id;

-- name: delete_overflow
-- Keep the newest `keep` records of each subject/workspace/session (of one
-- when session_id is set): one subject's runs never push out another's.
DELETE FROM journal.run_records r
USING (
    SELECT run_id,
           row_number() OVER (PARTITION BY subject, workspace, session_id
                              ORDER BY recorded_at DESC, event_id DESC) AS position
    FROM journal.run_records
    WHERE %(session_id)s::text IS NULL
       OR (session_id = %(session_id)s AND subject = %(subject)s
           AND workspace = %(workspace)s)
) ranked
WHERE r.run_id = ranked.run_id AND ranked.position > %(keep)s
RETURNING r.run_id;

-- name: find_orphans
-- Records that no longer belong to a terminal run: their run.completed event
-- is gone, is another event, names another run, session, subject or workspace,
-- or is not terminal.
SELECT r.run_id,
       CASE WHEN e.event_id IS NULL THEN 'run.completed event missing'
            WHEN e.event_type <> 'run.completed' THEN 'event is not run.completed'
            WHEN (e.payload ->> 'run_id') IS DISTINCT FROM r.run_id THEN 'event names another run'
            WHEN e.session_id <> r.session_id THEN 'event belongs to another session'
            WHEN e.subject <> r.subject OR e.workspace <> r.workspace
                THEN 'event belongs to another subject or workspace'
            ELSE 'run is not terminal'
       END AS problem
FROM journal.run_records r
LEFT JOIN journal.events e ON e.event_id = r.event_id
WHERE e.event_id IS NULL
   OR e.event_type <> 'run.completed'
   OR (e.payload ->> 'run_id') IS DISTINCT FROM r.run_id
   OR e.session_id <> r.session_id
   OR e.subject <> r.subject
   OR e.workspace <> r.workspace
   OR coalesce(e.payload ->> 'status', '') NOT IN ('completed', 'failed', 'interrupted',
                                                   'cancelled')
ORDER BY r.run_id
FOR UPDATE OF r;

-- name: delete_records
DELETE FROM journal.run_records WHERE run_id = ANY (%(run_ids)s::text[]) RETURNING run_id;

-- name: maintenance_lock
SELECT pg_advisory_xact_lock(hashtextextended('run_memory:maintenance', 0));

-- name: insert_report
INSERT INTO journal.maintenance_reports
    (trigger, ok, expired_removed, overflow_removed, orphans_removed, warnings, error)
VALUES (%(trigger)s, %(ok)s, %(expired_removed)s, %(overflow_removed)s, %(orphans_removed)s,
        %(warnings)s, %(error)s)
RETURNING trigger, ran_at, ok, expired_removed, overflow_removed, orphans_removed, warnings,
          error;

-- name: trim_reports
-- The log stays bounded: only the newest reports are kept.
DELETE FROM journal.maintenance_reports
WHERE report_id <= (SELECT max(report_id) FROM journal.maintenance_reports) - %(keep)s;

-- name: last_report
SELECT trigger, ran_at, ok, expired_removed, overflow_removed, orphans_removed, warnings, error
FROM journal.maintenance_reports
ORDER BY report_id DESC
LIMIT 1;

-- name: status
SELECT (SELECT count(*) FROM journal.run_records) AS records_stored,
       coalesce((SELECT jsonb_object_agg(name, value) FROM journal.counters
                 WHERE starts_with(name, 'run_memory.')), '{}'::jsonb) AS counters;

-- Named queries of the subject erasure (see learning_service/erasure.py).
-- A record belongs to the purged subject when its source subject matches
-- and, for a workspace-scoped purge, its source workspace is that workspace
-- or unknown ('' belongs to no single workspace, so any purge of the
-- subject takes it, as the journal does with its idempotency records).

-- name: ledger_entry_for_change
SELECT purge_id FROM learning.purge_ledger WHERE change_cursor = %(change_cursor)s;

-- name: subject_candidates
SELECT candidate_id FROM learning.candidates
WHERE source_subject = %(subject)s
  AND (%(workspace)s = '' OR source_workspace IN (%(workspace)s, ''))
ORDER BY candidate_id;

-- name: lock_candidate_states
-- Lock order (candidate state, learning state, skill keys, learning rows)
-- is the order publication, revocation and promotion take them in.
SELECT candidate_id FROM learning.candidate_state
WHERE candidate_id = ANY (%(candidate_ids)s::uuid[])
ORDER BY candidate_id
FOR UPDATE;

-- name: candidate_learnings
SELECT learning_id FROM learning.learnings
WHERE candidate_id = ANY (%(candidate_ids)s::uuid[])
ORDER BY learning_id;

-- name: lock_learning_states
SELECT learning_id FROM learning.learning_state
WHERE learning_id = ANY (%(learning_ids)s::uuid[])
ORDER BY learning_id
FOR UPDATE;

-- name: lock_learnings
SELECT learning_id FROM learning.learnings
WHERE learning_id = ANY (%(learning_ids)s::uuid[])
ORDER BY learning_id
FOR UPDATE;

-- name: skills_from_learnings
SELECT DISTINCT skill_name FROM learning.skill_versions
WHERE source_learning_id = ANY (%(learning_ids)s::uuid[])
ORDER BY skill_name;

-- name: erasure_counts
SELECT
  (SELECT count(*) FROM learning.candidate_events
      WHERE candidate_id = ANY (%(candidate_ids)s::uuid[])) AS candidate_events,
  (SELECT count(*) FROM learning.candidate_reviews
      WHERE candidate_id = ANY (%(candidate_ids)s::uuid[])) AS candidate_reviews,
  (SELECT count(*) FROM learning.learning_revisions
      WHERE learning_id = ANY (%(learning_ids)s::uuid[])) AS learning_revisions,
  (SELECT count(*) FROM learning.skill_versions
      WHERE source_learning_id = ANY (%(learning_ids)s::uuid[])) AS skill_versions,
  (SELECT count(*) FROM learning.skill_events e
      JOIN learning.skill_versions v USING (skill_name, version)
      WHERE v.source_learning_id = ANY (%(learning_ids)s::uuid[])) AS skill_events,
  (SELECT count(*) FROM (
      SELECT skill_name FROM learning.skill_versions
      WHERE skill_name = ANY (%(skill_names)s::text[])
      GROUP BY skill_name
      HAVING bool_and(source_learning_id = ANY (%(learning_ids)s::uuid[]))) gone)
      AS skills_removed,
  (SELECT count(*) FROM learning.idempotency
      WHERE response ->> 'candidate_id' = ANY (%(candidate_ids)s::text[])
         OR response ->> 'learning_id' = ANY (%(learning_ids)s::text[])) AS idempotency;

-- name: insert_ledger_entry
INSERT INTO learning.purge_ledger (change_cursor, subject, workspace, actor, counts)
VALUES (%(change_cursor)s, %(subject)s, %(workspace)s, %(actor)s, %(counts)s)
RETURNING purge_id;

-- name: enable_audited_purge
SELECT set_config('engram.audited_purge', 'on', true);

-- name: delete_skill_events
-- Deletes run children first.
DELETE FROM learning.skill_events e
USING learning.skill_versions v
WHERE e.skill_name = v.skill_name AND e.version = v.version
  AND v.source_learning_id = ANY (%(learning_ids)s::uuid[]);

-- name: delete_skill_versions
DELETE FROM learning.skill_versions
WHERE source_learning_id = ANY (%(learning_ids)s::uuid[]);

-- name: reproject_skill_state
-- A skill that keeps other versions falls back to its latest surviving
-- event (a re-promoted skill returns to the state its older version left,
-- revoked, never to a newer one); a skill with none left disappears.
INSERT INTO learning.skill_state (skill_name, version, state, event_id, updated_at)
SELECT DISTINCT ON (skill_name) skill_name, version, to_state, event_id, recorded_at
FROM learning.skill_events
WHERE skill_name = ANY (%(skill_names)s::text[])
ORDER BY skill_name, event_id DESC
ON CONFLICT (skill_name) DO UPDATE SET
    version = excluded.version,
    state = excluded.state,
    event_id = excluded.event_id,
    updated_at = excluded.updated_at;

-- name: delete_orphan_skill_state
DELETE FROM learning.skill_state s
WHERE s.skill_name = ANY (%(skill_names)s::text[])
  AND NOT EXISTS (SELECT 1 FROM learning.skill_events e WHERE e.skill_name = s.skill_name);

-- name: delete_learning_state
DELETE FROM learning.learning_state WHERE learning_id = ANY (%(learning_ids)s::uuid[]);

-- name: delete_learning_revisions
DELETE FROM learning.learning_revisions WHERE learning_id = ANY (%(learning_ids)s::uuid[]);

-- name: delete_learnings
DELETE FROM learning.learnings WHERE learning_id = ANY (%(learning_ids)s::uuid[]);

-- name: delete_candidate_reviews
DELETE FROM learning.candidate_reviews WHERE candidate_id = ANY (%(candidate_ids)s::uuid[]);

-- name: delete_candidate_events
DELETE FROM learning.candidate_events WHERE candidate_id = ANY (%(candidate_ids)s::uuid[]);

-- name: delete_candidate_state
DELETE FROM learning.candidate_state WHERE candidate_id = ANY (%(candidate_ids)s::uuid[]);

-- name: delete_candidates
DELETE FROM learning.candidates WHERE candidate_id = ANY (%(candidate_ids)s::uuid[]);

-- name: delete_idempotency
-- A replayed request_id that created or moved an erased record is a new
-- request again, as in the journal.
DELETE FROM learning.idempotency
WHERE response ->> 'candidate_id' = ANY (%(candidate_ids)s::text[])
   OR response ->> 'learning_id' = ANY (%(learning_ids)s::text[]);

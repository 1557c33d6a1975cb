-- Named queries of the transcript plane: the compaction policy, turn
-- analyses, GetSessionContext's reads and the checkpoint projection. Every
-- read filters subject, workspace and session exactly; visibility is
-- journal.turn_withheld, the rule of every other read path.

-- name: policy_get
SELECT tail_turns, trigger_chars, checkpoint_max_chars, analyzer_address, analyzer_timeout_ms,
       version, updated_at, updated_by
FROM journal.compaction_policy;

-- name: policy_lock
SELECT version FROM journal.compaction_policy FOR UPDATE;

-- name: policy_put
UPDATE journal.compaction_policy SET
    tail_turns = %(tail_turns)s,
    trigger_chars = %(trigger_chars)s,
    checkpoint_max_chars = %(checkpoint_max_chars)s,
    analyzer_address = %(analyzer_address)s,
    analyzer_timeout_ms = %(analyzer_timeout_ms)s,
    version = version + 1,
    updated_at = now(),
    updated_by = %(updated_by)s
RETURNING tail_turns, trigger_chars, checkpoint_max_chars, analyzer_address, analyzer_timeout_ms,
          version, updated_at, updated_by;

-- name: session_turn_meta
-- Every turn event of the session in event order, without its text: whether a
-- quarantine hides it, its canonical size, whether the canonical content
-- recomposes from the two texts (roles_ok) and hashes to the stored hash, and
-- its latest analysis (a system `turn.analyzed` event, itself not
-- quarantined) or, lacking one, its latest recorded analysis failure.
WITH hidden_events AS MATERIALIZED (
    SELECT q.record_id::bigint AS event_id FROM journal.quarantined q
    WHERE q.record_kind = 'event'
), hidden_content AS MATERIALIZED (
    -- journal.turn_withheld's rule, computed once: content whose episode is
    -- quarantined, or carried by a quarantined turn event of this subject.
    SELECT ep.content_sha256 FROM journal.episodes ep
    JOIN journal.quarantined q ON q.record_kind = 'episode' AND q.record_id = ep.episode_id::text
    WHERE ep.subject = %(subject)s AND ep.workspace = %(workspace)s
    UNION
    SELECT other.content_sha256 FROM hidden_events h
    JOIN journal.events other ON other.event_id = h.event_id
    WHERE other.event_type = 'conversation.turn.completed'
      AND other.subject = %(subject)s AND other.workspace = %(workspace)s
)
SELECT ev.event_id, ev.content_sha256,
       (ev.event_id IN (SELECT event_id FROM hidden_events)
        OR ev.content_sha256 IN (SELECT content_sha256 FROM hidden_content)) AS withheld,
       coalesce(length(ev.payload ->> 'canonical_content'), 0) AS chars,
       coalesce(encode(sha256(convert_to(ev.payload ->> 'canonical_content', 'UTF8')), 'hex'), '')
           AS canonical_sha256,
       coalesce(ev.payload ->> 'canonical_content' =
           CASE WHEN coalesce(ev.payload ->> 'user_name', '') = '' THEN 'User'
                ELSE 'User (' || (ev.payload ->> 'user_name') || ')' END
           || ': ' || (ev.payload ->> 'user_text') || E'\n' ||
           CASE WHEN coalesce(ev.payload ->> 'assistant_name', '') = '' THEN 'Assistant'
                ELSE 'Assistant (' || (ev.payload ->> 'assistant_name') || ')' END
           || ': ' || (ev.payload ->> 'assistant_text')
           AND length(ev.payload ->> 'user_text') > 0
           AND length(ev.payload ->> 'assistant_text') > 0, false) AS roles_ok,
       coalesce(a.event_id, 0) AS analysis_event_id,
       coalesce(a.payload ->> 'turn_content_sha256', '') AS analysis_sha256,
       coalesce(a.payload ->> 'summary', '') AS summary,
       coalesce(f.payload ->> 'error', '') AS failure,
       coalesce(f.payload ->> 'policy_version' = p.version::text, false) AS failure_current
FROM journal.events ev
CROSS JOIN (SELECT version FROM journal.compaction_policy) p
LEFT JOIN LATERAL (
    SELECT x.event_id, x.payload FROM journal.events x
    WHERE x.event_type = 'turn.analyzed' AND x.provenance = 'system'
      AND x.payload ->> 'turn_event_id' = ev.event_id::text
      AND x.subject = ev.subject AND x.workspace = ev.workspace
      AND NOT EXISTS (SELECT 1 FROM journal.quarantined q
                      WHERE q.record_kind = 'event' AND q.record_id = x.event_id::text)
    ORDER BY x.event_id DESC LIMIT 1
) a ON true
LEFT JOIN LATERAL (
    SELECT x.payload FROM journal.events x
    WHERE a.event_id IS NULL AND x.event_type = 'turn.analysis_failed'
      AND x.payload ->> 'turn_event_id' = ev.event_id::text
      AND x.subject = ev.subject AND x.workspace = ev.workspace
    ORDER BY x.event_id DESC LIMIT 1
) f ON true
WHERE ev.subject = %(subject)s AND ev.workspace = %(workspace)s
  AND ev.session_id = %(session_id)s AND ev.event_type = 'conversation.turn.completed'
ORDER BY ev.event_id;

-- name: session_turn_count
-- The separate count behind the coverage: visible turns of the session, by
-- journal.turn_withheld itself (not the set-wise form session_turn_meta uses),
-- so the two must agree for the coverage to say "n of n".
SELECT count(*) AS n
FROM journal.events ev
WHERE ev.subject = %(subject)s AND ev.workspace = %(workspace)s
  AND ev.session_id = %(session_id)s AND ev.event_type = 'conversation.turn.completed'
  AND NOT journal.turn_withheld(ev);

-- name: session_turn_texts
SELECT event_id, content_sha256, occurred_at, payload ->> 'user_text' AS user_text,
       payload ->> 'assistant_text' AS assistant_text,
       coalesce(payload ->> 'user_name', '') AS user_name,
       coalesce(payload ->> 'assistant_name', '') AS assistant_name
FROM journal.events
WHERE event_id = ANY (%(ids)s::bigint[]) AND subject = %(subject)s
  AND workspace = %(workspace)s AND session_id = %(session_id)s
ORDER BY event_id;

-- name: session_range_events
-- Tool events and lone conversation messages of the session (not quarantined).
SELECT ev.event_id, ev.event_type
FROM journal.events ev
WHERE ev.subject = %(subject)s AND ev.workspace = %(workspace)s
  AND ev.session_id = %(session_id)s
  AND (ev.event_type LIKE 'tool.%%'
       OR (ev.event_type LIKE 'conversation.%%'
           AND ev.event_type <> 'conversation.turn.completed'))
  AND NOT EXISTS (SELECT 1 FROM journal.quarantined q
                  WHERE q.record_kind = 'event' AND q.record_id = ev.event_id::text)
ORDER BY ev.event_id;

-- name: checkpoint_get
SELECT policy_version, input_digest, through_event_id, text, sha256, turns_elided_by_cap
FROM journal.session_checkpoints
WHERE subject = %(subject)s AND workspace = %(workspace)s AND session_id = %(session_id)s;

-- name: checkpoint_put
INSERT INTO journal.session_checkpoints
    (subject, workspace, session_id, policy_version, input_digest, through_event_id, text,
     sha256, source_event_ids, source_hashes, analysis_event_ids, turns_elided_by_cap)
VALUES (%(subject)s, %(workspace)s, %(session_id)s, %(policy_version)s, %(input_digest)s,
        %(through_event_id)s, %(text)s, %(sha256)s, %(source_event_ids)s, %(source_hashes)s,
        %(analysis_event_ids)s, %(elided)s)
ON CONFLICT (subject, workspace, session_id) DO UPDATE SET
    policy_version = excluded.policy_version, input_digest = excluded.input_digest,
    through_event_id = excluded.through_event_id, text = excluded.text,
    sha256 = excluded.sha256, source_event_ids = excluded.source_event_ids,
    source_hashes = excluded.source_hashes, analysis_event_ids = excluded.analysis_event_ids,
    turns_elided_by_cap = excluded.turns_elided_by_cap, built_at = now();

-- name: checkpoint_delete
DELETE FROM journal.session_checkpoints
WHERE subject = %(subject)s AND workspace = %(workspace)s AND session_id = %(session_id)s;

-- name: analysis_rows
-- These turns of one session, still unanalysed under the current policy.
SELECT ev.event_id, ev.subject, ev.workspace, ev.session_id, ev.content_sha256,
       ev.payload ->> 'user_text' AS user_text, ev.payload ->> 'assistant_text' AS assistant_text,
       coalesce(ev.payload ->> 'user_name', '') AS user_name,
       coalesce(ev.payload ->> 'assistant_name', '') AS assistant_name
FROM journal.events ev
CROSS JOIN LATERAL (
    SELECT max(1) AS present FROM (
        SELECT 1 FROM journal.events a
        WHERE a.event_type IN ('turn.analyzed', 'turn.analysis_failed')
          AND a.payload ->> 'turn_event_id' = ev.event_id::text
          AND (a.event_type = 'turn.analyzed'
               OR a.payload ->> 'policy_version' = %(policy_version)s::text)
        LIMIT 1) hit
) done
WHERE ev.event_id = ANY (%(ids)s::bigint[]) AND ev.subject = %(subject)s
  AND ev.workspace = %(workspace)s AND ev.session_id = %(session_id)s
  AND ev.event_type = 'conversation.turn.completed' AND done.present IS NULL
ORDER BY ev.event_id;

-- name: analysis_try_claim
SELECT pg_try_advisory_xact_lock(hashtextextended('turn_analysis:' || %(event_id)s::text, 0))
    AS claimed;

-- name: analysis_exists
SELECT 1 AS present FROM journal.events a
WHERE a.event_type IN ('turn.analyzed', 'turn.analysis_failed')
  AND a.payload ->> 'turn_event_id' = %(event_id)s::text
  AND (a.event_type = 'turn.analyzed'
       OR a.payload ->> 'policy_version' = %(policy_version)s::text)
LIMIT 1;

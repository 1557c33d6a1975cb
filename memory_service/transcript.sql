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
  AND ev.event_id > %(after)s
ORDER BY ev.event_id;

-- name: session_turn_count
-- The separate count behind the coverage: visible turns of the session after
-- `after`, by journal.turn_withheld itself (not the set-wise form
-- session_turn_meta uses), so the two must agree for the coverage to say
-- "n of n". Their ids too: a verified prefix keeps the count for its range.
-- In the same statement (one round trip): the session's tool events and lone
-- conversation messages after `after` (not quarantined), in event order.
WITH counted AS (
    SELECT ev.event_id
    FROM journal.events ev
    WHERE ev.subject = %(subject)s AND ev.workspace = %(workspace)s
      AND ev.session_id = %(session_id)s AND ev.event_type = 'conversation.turn.completed'
      AND ev.event_id > %(after)s
      AND NOT journal.turn_withheld(ev)
), others AS (
    SELECT ev.event_id, ev.event_type
    FROM journal.events ev
    WHERE ev.subject = %(subject)s AND ev.workspace = %(workspace)s
      AND ev.session_id = %(session_id)s AND ev.event_id > %(after)s
      AND (ev.event_type LIKE 'tool.%%'
           OR (ev.event_type LIKE 'conversation.%%'
               AND ev.event_type <> 'conversation.turn.completed'))
      AND NOT EXISTS (SELECT 1 FROM journal.quarantined q
                      WHERE q.record_kind = 'event' AND q.record_id = ev.event_id::text)
)
SELECT (SELECT count(*) FROM counted) AS n,
       (SELECT coalesce(array_agg(event_id ORDER BY event_id), '{}') FROM counted) AS ids,
       (SELECT coalesce(array_agg(event_id ORDER BY event_id), '{}') FROM others) AS other_ids,
       (SELECT coalesce(array_agg(event_type ORDER BY event_id), '{}') FROM others)
           AS other_types;

-- name: session_turn_texts
SELECT event_id, content_sha256, occurred_at, payload ->> 'user_text' AS user_text,
       payload ->> 'assistant_text' AS assistant_text,
       coalesce(payload ->> 'user_name', '') AS user_name,
       coalesce(payload ->> 'assistant_name', '') AS assistant_name
FROM journal.events
WHERE event_id = ANY (%(ids)s::bigint[]) AND subject = %(subject)s
  AND workspace = %(workspace)s AND session_id = %(session_id)s
ORDER BY event_id;

-- name: checkpoint_get
SELECT policy_version, input_digest, through_event_id, text, sha256, turns_elided_by_cap
FROM journal.session_checkpoints
WHERE subject = %(subject)s AND workspace = %(workspace)s AND session_id = %(session_id)s;

-- name: checkpoint_put
INSERT INTO journal.session_checkpoints
    (subject, workspace, session_id, policy_version, input_digest, through_event_id, text,
     sha256, source_count, turns_elided_by_cap)
VALUES (%(subject)s, %(workspace)s, %(session_id)s, %(policy_version)s, %(input_digest)s,
        %(through_event_id)s, %(text)s, %(sha256)s, %(source_count)s, %(elided)s)
ON CONFLICT (subject, workspace, session_id) DO UPDATE SET
    policy_version = excluded.policy_version, input_digest = excluded.input_digest,
    through_event_id = excluded.through_event_id, text = excluded.text,
    sha256 = excluded.sha256, source_count = excluded.source_count,
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

-- name: snapshot_frontier
-- The change-feed frontier of this snapshot (migration 0008): every change
-- this snapshot does not see has a cursor at or above it.
SELECT journal.feed_frontier() AS frontier;

-- name: session_context_head
-- GetSessionContext's first read, one statement in the call's snapshot: the
-- policy, the feed watermark (journal.feed_clock, migration 0008), whether the
-- session has any event at all (none: no turn or other event can match), and,
-- when `with_prefix`, the session's verified prefix with whether anything
-- since the snapshot that verified it may have changed its range (migration
-- 0012 gives the rule). At most `scan_limit` changes are looked at; the
-- caller distrusts a prefix whose scan reached the limit. Without a prefix
-- its columns are NULL.
SELECT pol.tail_turns, pol.trigger_chars, pol.checkpoint_max_chars, pol.analyzer_address,
       pol.analyzer_timeout_ms, pol.version, pol.updated_at, pol.updated_by,
       (SELECT clock.last_cursor FROM journal.feed_clock clock) AS last_cursor,
       EXISTS (SELECT 1 FROM journal.events ev
               WHERE ev.subject = %(subject)s AND ev.workspace = %(workspace)s
                 AND ev.session_id = %(session_id)s) AS has_events,
       pre.*
FROM journal.compaction_policy pol
LEFT JOIN LATERAL (
    WITH p AS (
        SELECT * FROM journal.session_verified_prefixes
        WHERE subject = %(subject)s AND workspace = %(workspace)s AND session_id = %(session_id)s
          AND %(with_prefix)s
    ), recent AS MATERIALIZED (
        SELECT c.cursor, c.kind, c.subject, c.workspace, c.session_id, c.event_type, c.event_id
        FROM journal.changes c
        WHERE c.cursor >= (SELECT frontier FROM p)
        ORDER BY c.cursor
        LIMIT %(scan_limit)s
    ), analyses AS MATERIALIZED (
        -- SYSTEM analyses appended since, and the turn each names (NULL: none).
        SELECT a.event_id,
               CASE WHEN a.turn ~ '^[0-9]{1,18}$' THEN a.turn::bigint END AS turn_event_id
        FROM recent c
        CROSS JOIN LATERAL (
            SELECT x.event_id, x.payload ->> 'turn_event_id' AS turn
            FROM journal.events x
            WHERE x.event_id = c.event_id AND x.provenance = 'system'
            LIMIT 1  -- one primary-key probe per change, never a join over the journal
        ) a
        WHERE c.kind = 'event_appended' AND c.event_type = 'turn.analyzed'
          AND c.subject = %(subject)s AND c.workspace = %(workspace)s
    )
    SELECT p.policy_version, p.frontier, p.through_event_id, p.turn_event_ids, p.content_hashes,
           p.analysis_event_ids, p.withheld_event_ids, p.canonical_chars, p.visible_count,
           p.chain_sha256,
           (SELECT count(*) FROM recent) AS scanned,
           EXISTS (
               SELECT 1 FROM recent c
               WHERE c.subject = p.subject
                 AND (c.kind = 'subject_purged'
                      OR (c.workspace = p.workspace AND (
                          c.kind IN ('record_quarantined', 'record_restored')
                          -- a turn, tool or conversation event that committed late
                          OR (c.kind = 'event_appended' AND c.session_id = p.session_id
                              AND c.event_id <= p.through_event_id
                              AND (c.event_type LIKE 'conversation.%%' OR c.event_type LIKE 'tool.%%')
                              AND c.event_id <> ALL (p.turn_event_ids)
                              AND c.event_id <> ALL (p.withheld_event_ids)))))
           )
           -- another SYSTEM analysis of a turn of the range
           OR EXISTS (
               SELECT 1 FROM analyses a
               WHERE a.turn_event_id <= p.through_event_id
                 AND a.turn_event_id = ANY (p.turn_event_ids)
                 AND a.event_id <> ALL (p.analysis_event_ids)
           ) AS touched
    FROM p
) pre ON true;

-- name: prefix_put
-- A prefix verified in an older snapshot never replaces a newer one.
INSERT INTO journal.session_verified_prefixes AS p
    (subject, workspace, session_id, policy_version, frontier, through_event_id,
     turn_event_ids, content_hashes, analysis_event_ids, withheld_event_ids, canonical_chars,
     visible_count, chain_sha256)
VALUES (%(subject)s, %(workspace)s, %(session_id)s, %(policy_version)s, %(frontier)s,
        %(through_event_id)s, %(turn_event_ids)s, %(content_hashes)s, %(analysis_event_ids)s,
        %(withheld_event_ids)s, %(canonical_chars)s, %(visible_count)s, %(chain_sha256)s)
ON CONFLICT (subject, workspace, session_id) DO UPDATE SET
    policy_version = excluded.policy_version, frontier = excluded.frontier,
    through_event_id = excluded.through_event_id, turn_event_ids = excluded.turn_event_ids,
    content_hashes = excluded.content_hashes, analysis_event_ids = excluded.analysis_event_ids,
    withheld_event_ids = excluded.withheld_event_ids,
    canonical_chars = excluded.canonical_chars, visible_count = excluded.visible_count,
    chain_sha256 = excluded.chain_sha256, built_at = now()
WHERE p.frontier <= excluded.frontier OR p.policy_version <> excluded.policy_version;

-- name: prefix_summaries
-- The summaries a checkpoint quotes from a verified prefix, checked against
-- the turns they must belong to (id and content hash, SYSTEM provenance).
SELECT a.event_id, a.payload ->> 'summary' AS summary
FROM journal.events a
JOIN unnest(%(analysis_ids)s::bigint[], %(turn_ids)s::bigint[], %(hashes)s::text[])
    AS want(analysis_id, turn_id, sha) ON want.analysis_id = a.event_id
WHERE a.event_type = 'turn.analyzed' AND a.provenance = 'system'
  AND a.subject = %(subject)s AND a.workspace = %(workspace)s
  AND a.payload ->> 'turn_event_id' = want.turn_id::text
  AND a.payload ->> 'turn_content_sha256' = want.sha;

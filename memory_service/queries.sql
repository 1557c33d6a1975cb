-- Named queries of the journal service (see engram.db.queries).

-- name: idempotency_get
SELECT request_sha256, response
FROM journal.idempotency
WHERE operation = %(operation)s AND request_id = %(request_id)s;

-- name: idempotency_put
INSERT INTO journal.idempotency (operation, request_id, request_sha256, response, subject)
VALUES (%(operation)s, %(request_id)s, %(request_sha256)s, %(response)s, %(subject)s);

-- name: advisory_lock
SELECT pg_advisory_xact_lock(hashtextextended(%(key)s, 0));

-- name: insert_event
INSERT INTO journal.events
    (event_type, subject, workspace, session_id, payload, provenance, request_id,
     content_sha256, occurred_at)
VALUES (%(event_type)s, %(subject)s, %(workspace)s, %(session_id)s, %(payload)s, %(provenance)s,
        %(request_id)s, %(content_sha256)s, coalesce(%(occurred_at)s, now()))
RETURNING event_id, recorded_at, occurred_at;

-- name: commit_turn
-- CommitTurn's whole database side in one statement and, on an autocommit
-- connection, one transaction (journal.commit_turn, migration 0008).
SELECT replayed, request_sha256, receipt
FROM journal.commit_turn(
    p_request_id => %(request_id)s,
    p_request_sha256 => %(request_sha256)s,
    p_event_type => %(event_type)s,
    p_provenance => %(provenance)s,
    p_subject => %(subject)s,
    p_workspace => %(workspace)s,
    p_session_id => %(session_id)s,
    p_payload => %(payload)s,
    p_content_sha256 => %(content_sha256)s,
    p_user_sha256 => %(user_sha256)s,
    p_assistant_sha256 => %(assistant_sha256)s,
    p_occurred_at => %(occurred_at)s,
    p_learning_eligible => %(learning_eligible)s,
    p_user_text => %(user_text)s,
    p_assistant_text => %(assistant_text)s,
    p_user_name => %(user_name)s,
    p_assistant_name => %(assistant_name)s);

-- name: append_changes
-- Cursors from the transaction's own id: no lock, nothing shared with other
-- writers, no NOTIFY (the writer announces after its commit; feed.py).
SELECT journal.append_changes(
    %(kinds)s::text[], %(subjects)s::text[], %(workspaces)s::text[], %(session_ids)s::text[],
    %(record_kinds)s::text[], %(record_ids)s::text[], %(event_types)s::text[],
    %(event_ids)s::bigint[]) AS cursors;

-- name: visibility_fence
-- The cursor of the latest quarantine, restore or purge change (migration
-- 0014): an index that has applied the feed up to it reflects all of them.
SELECT f.cursor FROM journal.visibility_fence f;

-- name: feed_watermark
-- The highest final cursor: every change at or below it is committed and
-- visible in this snapshot, and no other will ever appear there.
SELECT coalesce(max(c.cursor), 0) AS last_cursor
FROM journal.changes c
WHERE c.cursor < journal.feed_frontier();

-- name: feed_head
-- The highest committed cursor (changes above the watermark wait for an
-- older transaction to end).
SELECT coalesce(max(c.cursor), 0) AS head FROM journal.changes c;

-- name: feed_align_base
SELECT journal.feed_align_base() AS base;

-- name: changes_page
-- One statement, so one snapshot and one round trip: the final changes after
-- %(after)s (below the frontier, where no cursor can still appear) and the
-- feed's position in the same snapshot: the watermark (highest final
-- cursor), the head (highest committed cursor) and the highest committed
-- cursor of the kinds read that is not final yet (0: none; only the few
-- cursors at or above the frontier are scanned). With no change to return,
-- one row whose change columns are NULL.
WITH f AS MATERIALIZED (SELECT journal.feed_frontier() AS frontier),
position AS (
    SELECT coalesce((SELECT max(c.cursor) FROM journal.changes c
                     WHERE c.cursor < f.frontier), 0) AS last_cursor,
           coalesce((SELECT max(c.cursor) FROM journal.changes c), 0) AS head,
           coalesce((SELECT max(c.cursor) FROM journal.changes c
                     WHERE c.cursor >= f.frontier
                       AND (cardinality(%(kinds)s::text[]) = 0
                            OR c.kind = ANY (%(kinds)s::text[]))), 0) AS waiting
    FROM f
),
page AS (
    SELECT c.cursor, c.kind, c.subject, c.workspace, c.session_id, c.record_kind,
           c.record_id, c.event_type, c.event_id, c.committed_at
    FROM journal.changes c
    WHERE c.cursor > %(after)s
      AND c.cursor < (SELECT frontier FROM f)
      AND (cardinality(%(kinds)s::text[]) = 0 OR c.kind = ANY (%(kinds)s::text[]))
    ORDER BY c.cursor
    LIMIT %(limit)s
)
SELECT p.last_cursor, p.head, p.waiting, page.*
FROM position p
LEFT JOIN page ON true
ORDER BY page.cursor;

-- name: episodes_by_id
-- Visible episodes only (BatchGetEpisodes, SearchEpisodes' bodies, the feed's
-- episode bodies). An episode is hidden when it is quarantined or when a
-- quarantined conversation.turn.completed event of its subject/workspace has
-- its content: FindExact's hidden-content rule (search.sql).
WITH hidden AS MATERIALIZED (
    -- Contents quarantined turn events hide: few rows, driven from the
    -- quarantine projection (CASE keeps the cast to event ids).
    SELECT ev.subject, ev.workspace, ev.content_sha256
    FROM journal.quarantined q
    JOIN journal.events ev
      ON ev.event_id = CASE WHEN q.record_kind = 'event' THEN q.record_id::bigint END
    WHERE q.record_kind = 'event' AND ev.event_type = 'conversation.turn.completed'
)
SELECT e.episode_id, e.subject, e.workspace, e.session_id, e.session_ids, e.user_text,
       e.assistant_text, e.user_name, e.assistant_name, e.content_sha256, e.occurrence_count,
       e.first_seen_at, e.last_seen_at,
       CASE WHEN %(include_embeddings)s THEN e.embedding END AS embedding, e.embedding_model
FROM journal.episodes e
WHERE e.episode_id = ANY (%(ids)s::uuid[])
  AND NOT EXISTS (SELECT 1 FROM journal.quarantined q
                  WHERE q.record_kind = 'episode' AND q.record_id = e.episode_id::text)
  AND NOT EXISTS (SELECT 1 FROM hidden h
                  WHERE h.subject = e.subject AND h.workspace = e.workspace
                    AND h.content_sha256 = e.content_sha256);

-- name: turn_event_episode
-- The episode projecting a turn event's content (none for other events or
-- turns that were never learning-eligible).
SELECT ep.episode_id
FROM journal.events ev
JOIN journal.episodes ep
  ON ep.subject = ev.subject AND ep.workspace = ev.workspace
 AND ep.content_sha256 = ev.content_sha256
WHERE ev.event_id = %(id)s::bigint AND ev.event_type = 'conversation.turn.completed';

-- name: session_events_page
-- An event whose content a quarantine hides is returned withheld: no payload,
-- no content hash, and the reason. That is a turn event whose episode is
-- quarantined, or another turn event with its content (FindExact's rule), and
-- a run.completed event whose run record is quarantined. Quarantined events
-- themselves are omitted.
WITH hidden_turns AS MATERIALIZED (
    SELECT other.content_sha256
    FROM journal.quarantined q
    JOIN journal.events other
      ON other.event_id = CASE WHEN q.record_kind = 'event' THEN q.record_id::bigint END
    WHERE q.record_kind = 'event' AND other.event_type = 'conversation.turn.completed'
      AND other.subject = %(subject)s AND other.workspace = %(workspace)s
)
SELECT ev.event_id, ev.event_type, ev.subject, ev.workspace, ev.session_id,
       CASE WHEN w.reason = '' THEN ev.payload ELSE '{}'::jsonb END AS payload,
       ev.provenance, ev.request_id, ev.occurred_at, ev.recorded_at,
       CASE WHEN w.reason = '' THEN ev.content_sha256 ELSE '' END AS content_sha256,
       w.reason AS withheld_reason
FROM journal.events ev
CROSS JOIN LATERAL (
    SELECT CASE
        WHEN ev.event_type = 'run.completed'
             AND EXISTS (SELECT 1 FROM journal.quarantined q
                         WHERE q.record_kind = 'run_record'
                           AND q.record_id = ev.payload ->> 'run_id')
            THEN 'RUN_RECORD_QUARANTINED'
        WHEN ev.event_type <> 'conversation.turn.completed' THEN ''
        WHEN EXISTS (SELECT 1 FROM journal.episodes ep
                     JOIN journal.quarantined q
                       ON q.record_kind = 'episode' AND q.record_id = ep.episode_id::text
                     WHERE ep.subject = ev.subject AND ep.workspace = ev.workspace
                       AND ep.content_sha256 = ev.content_sha256)
            THEN 'EPISODE_QUARANTINED'
        WHEN EXISTS (SELECT 1 FROM hidden_turns h WHERE h.content_sha256 = ev.content_sha256)
            THEN 'TURN_QUARANTINED'
        ELSE ''
    END AS reason
) w
WHERE ev.subject = %(subject)s AND ev.workspace = %(workspace)s
  AND ev.session_id = %(session_id)s AND ev.event_id > %(after)s
  AND (cardinality(%(types)s::text[]) = 0 OR ev.event_type = ANY (%(types)s::text[]))
  AND NOT EXISTS (SELECT 1 FROM journal.quarantined q
                  WHERE q.record_kind = 'event' AND q.record_id = ev.event_id::text)
ORDER BY ev.event_id
LIMIT %(limit)s;

-- name: session_events_count
-- A separate count: matched_before_limit never comes from the rows returned.
SELECT count(*) AS n
FROM journal.events ev
WHERE ev.subject = %(subject)s AND ev.workspace = %(workspace)s
  AND ev.session_id = %(session_id)s AND ev.event_id > %(after)s
  AND (cardinality(%(types)s::text[]) = 0 OR ev.event_type = ANY (%(types)s::text[]))
  AND NOT EXISTS (SELECT 1 FROM journal.quarantined q
                  WHERE q.record_kind = 'event' AND q.record_id = ev.event_id::text);

-- name: record_owner_episode
-- The token's scope filters here: an out-of-scope record is not found.
SELECT subject, workspace FROM journal.episodes WHERE episode_id = %(id)s::uuid
  AND (%(scope_subjects)s::text[] IS NULL OR subject = ANY (%(scope_subjects)s::text[]))
  AND (%(scope_workspaces)s::text[] IS NULL OR workspace = ANY (%(scope_workspaces)s::text[]));

-- name: record_owner_event
-- The token's scope filters here: an out-of-scope record is not found.
SELECT subject, workspace FROM journal.events WHERE event_id = %(id)s::bigint
  AND (%(scope_subjects)s::text[] IS NULL OR subject = ANY (%(scope_subjects)s::text[]))
  AND (%(scope_workspaces)s::text[] IS NULL OR workspace = ANY (%(scope_workspaces)s::text[]));

-- name: quarantine_state
SELECT entry_id FROM journal.quarantined
WHERE record_kind = %(record_kind)s AND record_id = %(record_id)s
FOR UPDATE;

-- name: insert_quarantine_entry
INSERT INTO journal.quarantine_ledger
    (record_kind, record_id, action, reason, actor, subject, workspace, request_id)
VALUES (%(record_kind)s, %(record_id)s, %(action)s, %(reason)s, %(actor)s, %(subject)s,
        %(workspace)s, %(request_id)s)
RETURNING entry_id, recorded_at;

-- name: mark_quarantined
INSERT INTO journal.quarantined (record_kind, record_id, entry_id, since)
VALUES (%(record_kind)s, %(record_id)s, %(entry_id)s, %(since)s);

-- name: unmark_quarantined
DELETE FROM journal.quarantined WHERE record_kind = %(record_kind)s AND record_id = %(record_id)s;

-- name: quarantine_page
SELECT l.entry_id, l.record_kind, l.record_id, l.action, l.reason, l.actor, l.recorded_at,
       l.subject, l.workspace
FROM journal.quarantine_ledger l
WHERE l.entry_id < %(before)s
  AND (%(scope_subjects)s::text[] IS NULL OR l.subject = ANY (%(scope_subjects)s::text[]))
  AND (%(scope_workspaces)s::text[] IS NULL OR l.workspace = ANY (%(scope_workspaces)s::text[]))
  AND (NOT %(active_only)s OR EXISTS (SELECT 1 FROM journal.quarantined q
                                      WHERE q.entry_id = l.entry_id))
ORDER BY l.entry_id DESC
LIMIT %(limit)s;

-- name: purge_counts
SELECT
  (SELECT count(*) FROM journal.events WHERE subject = %(subject)s
      AND (%(workspace)s = '' OR workspace = %(workspace)s)) AS events,
  (SELECT count(*) FROM journal.episodes WHERE subject = %(subject)s
      AND (%(workspace)s = '' OR workspace = %(workspace)s)) AS episodes,
  (SELECT count(*) FROM journal.receipts WHERE subject = %(subject)s
      AND (%(workspace)s = '' OR workspace = %(workspace)s)) AS receipts;

-- name: insert_purge
INSERT INTO journal.purge_ledger (subject, workspace, reason, actor, request_id, counts)
VALUES (%(subject)s, %(workspace)s, %(reason)s, %(actor)s, %(request_id)s, %(counts)s)
RETURNING purge_id;

-- name: enable_audited_purge
SELECT set_config('engram.audited_purge', 'on', true);

-- name: purge_events
DELETE FROM journal.events WHERE subject = %(subject)s
    AND (%(workspace)s = '' OR workspace = %(workspace)s);

-- name: purge_episodes
DELETE FROM journal.episodes WHERE subject = %(subject)s
    AND (%(workspace)s = '' OR workspace = %(workspace)s);

-- name: purge_receipts
DELETE FROM journal.receipts WHERE subject = %(subject)s
    AND (%(workspace)s = '' OR workspace = %(workspace)s);

-- name: purge_idempotency
DELETE FROM journal.idempotency WHERE subject = %(subject)s;

-- name: status_counts
SELECT
  (SELECT count(*) FROM journal.events) AS events,
  (SELECT count(*) FROM journal.episodes) AS episodes,
  (SELECT count(*) FROM journal.episodes WHERE embedding IS NOT NULL) AS episodes_embedded,
  -- The worker's queue: a quarantined episode waits for no embedding until restored.
  (SELECT count(*) FROM journal.episodes e WHERE e.embedding IS NULL
     AND NOT EXISTS (SELECT 1 FROM journal.quarantined q
                     WHERE q.record_kind = 'episode' AND q.record_id = e.episode_id::text)
  ) AS episodes_pending,
  (SELECT count(*) FROM journal.quarantined) AS quarantined,
  -- The head: every committed change (feed_head).
  (SELECT coalesce(max(cursor), 0) FROM journal.changes) AS watermark;

-- name: embedding_backlog
-- The embedding worker's queue (as episodes_pending above) for the backlog
-- gauge; the partial index episodes_pending_embedding_idx serves it.
SELECT count(*) AS n FROM journal.episodes e WHERE e.embedding IS NULL
  AND NOT EXISTS (SELECT 1 FROM journal.quarantined q
                  WHERE q.record_kind = 'episode' AND q.record_id = e.episode_id::text);

-- name: counters_all
SELECT name, value FROM journal.counters;

-- name: counter_add
INSERT INTO journal.counters (name, value) VALUES (%(name)s, %(amount)s)
ON CONFLICT (name) DO UPDATE SET value = journal.counters.value + excluded.value;

-- name: record_owner_run
-- The token's scope filters here: an out-of-scope record is not found.
SELECT subject, workspace FROM journal.run_records WHERE run_id = %(id)s
  AND (%(scope_subjects)s::text[] IS NULL OR subject = ANY (%(scope_subjects)s::text[]))
  AND (%(scope_workspaces)s::text[] IS NULL OR workspace = ANY (%(scope_workspaces)s::text[]));

-- name: purge_run_record_count
SELECT count(*) AS n FROM journal.run_records WHERE subject = %(subject)s
    AND (%(workspace)s = '' OR workspace = %(workspace)s);

-- name: purge_run_records
DELETE FROM journal.run_records WHERE subject = %(subject)s
    AND (%(workspace)s = '' OR workspace = %(workspace)s);

-- name: turn_neighbours
-- Up to %(turns)s turns before and after each episode's latest occurrence in
-- its session, skipping turns journal.turn_withheld hides; offset < 0 before.
SELECT ep.episode_id, n.event_id, n.session_id, n.occurred_at, n.payload, n.turn_offset
FROM journal.episodes ep
JOIN journal.events anchor ON anchor.event_id = ep.last_event_id
CROSS JOIN LATERAL (
    (SELECT ev.event_id, ev.session_id, ev.occurred_at, ev.payload,
            -row_number() OVER (ORDER BY ev.event_id DESC) AS turn_offset
     FROM journal.events ev
     WHERE ev.subject = anchor.subject AND ev.workspace = anchor.workspace
       AND ev.session_id = anchor.session_id
       AND ev.event_type = 'conversation.turn.completed'
       AND ev.event_id < anchor.event_id AND NOT journal.turn_withheld(ev)
     ORDER BY ev.event_id DESC
     LIMIT %(turns)s)
    UNION ALL
    (SELECT ev.event_id, ev.session_id, ev.occurred_at, ev.payload,
            row_number() OVER (ORDER BY ev.event_id) AS turn_offset
     FROM journal.events ev
     WHERE ev.subject = anchor.subject AND ev.workspace = anchor.workspace
       AND ev.session_id = anchor.session_id
       AND ev.event_type = 'conversation.turn.completed'
       AND ev.event_id > anchor.event_id AND NOT journal.turn_withheld(ev)
     ORDER BY ev.event_id
     LIMIT %(turns)s)
) n
WHERE ep.episode_id = ANY (%(ids)s::uuid[])
ORDER BY ep.episode_id, n.turn_offset;

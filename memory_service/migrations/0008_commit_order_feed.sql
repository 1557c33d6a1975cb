-- Change cursors without a serialising point, and CommitTurn in one statement.
--
-- Until now a cursor came from one clock row (journal.feed_clock) whose lock
-- each writer took last and held through its commit: cursors were visible in
-- commit order, but writers committed one after another. Now a change's
-- cursor is derived from its own transaction's id, so writers share nothing:
--
--     cursor = base + xid * 65536 + ordinal
--
-- xid is the writing transaction's top-level id (pg_current_xact_id(): 64
-- bits, never reused), ordinal numbers the transaction's changes from 0 in
-- the order it appends them (at most 65536), and base is a per-database
-- constant (journal.feed_cursor_base) that keeps new cursors above every
-- cursor handed out before. Cursor order is (xid, ordinal) order.
--
-- Which cursors may a reader deliver? In a snapshot, let
-- xmin = pg_snapshot_xmin(pg_current_snapshot()). Every transaction with an
-- id below xmin has ended (committed or rolled back), and PostgreSQL never
-- assigns an id below xmin again (new ids are >= the snapshot's xmax >= xmin).
-- So every change with a cursor below
--
--     journal.feed_frontier() = base + xmin * 65536
--
-- is final in that snapshot: committed and visible, or never to exist. A
-- reader that delivers only cursors below its snapshot's frontier, in cursor
-- order, never skips a lower cursor that commits later: that cursor's
-- transaction was running (or had no id yet) when the snapshot was taken, so
-- its id is >= xmin and its cursor >= the frontier the reader stopped at.
-- A reader never waits on a writer and a writer never waits on anyone; a
-- change becomes deliverable once every transaction that got its id earlier
-- has ended (a long-running writing transaction anywhere on the server holds
-- the frontier back for its duration, never longer).
--
-- base only ever grows, and only while no appender is in flight (see
-- journal.feed_align_base), so a cursor is never below a frontier some reader
-- already computed.

DROP TABLE journal.feed_clock;

CREATE TABLE journal.feed_cursor_base (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    base      bigint  NOT NULL CHECK (base >= 0)
);

-- Above every cursor the clock handed out: transactions after this one get
-- ids above this migration's. (DROP TABLE above waited for any writer still
-- holding the clock, so max(cursor) here is the clock's last word.)
INSERT INTO journal.feed_cursor_base (singleton, base)
SELECT true, greatest(0, coalesce(max(cursor), 0) + 1
                          - (pg_current_xact_id()::text::bigint << 16))
FROM journal.changes;

-- The lowest cursor that may still appear (see above): everything below it
-- is final in the caller's snapshot.
CREATE FUNCTION journal.feed_frontier() RETURNS bigint
LANGUAGE sql STABLE AS $$
    SELECT b.base + (pg_snapshot_xmin(pg_current_snapshot())::text::bigint << 16)
    FROM journal.feed_cursor_base b
$$;

-- The clock's old name and shape, read-only: code that reads
-- "SELECT last_cursor FROM journal.feed_clock" gets the watermark (the
-- highest final cursor, memory_service/queries.sql feed_watermark); a writer
-- of an earlier version that tries to advance the clock is refused.
CREATE VIEW journal.feed_clock AS
SELECT true AS singleton,
       coalesce((SELECT max(c.cursor) FROM journal.changes c
                 WHERE c.cursor < journal.feed_frontier()), 0)::bigint AS last_cursor;

-- Keep new cursors above the highest one stored (a database restored into
-- another cluster starts from lower transaction ids). Called at every
-- journal start; changes nothing unless cursors would go backwards, and then
-- raises base while no appender is in flight: an appender holds ACCESS SHARE
-- on journal.feed_cursor_base from reading base until it ends, so the lock
-- below waits for every one of them and holds back new ones until commit.
-- Returns the base in force.
CREATE FUNCTION journal.feed_align_base() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    current_base bigint;
    top bigint;
    next_xid bigint;
BEGIN
    SELECT b.base INTO current_base FROM journal.feed_cursor_base b;
    SELECT max(c.cursor) INTO top FROM journal.changes c;
    -- Transactions that get an id from now on get one >= xmax.
    next_xid := pg_snapshot_xmax(pg_current_snapshot())::text::bigint;
    IF top IS NULL OR top < current_base + (next_xid << 16) THEN
        RETURN current_base;
    END IF;
    LOCK TABLE journal.feed_cursor_base IN ACCESS EXCLUSIVE MODE;
    -- A fresh snapshot after the wait: every appender that read the old base has ended.
    SELECT b.base INTO current_base FROM journal.feed_cursor_base b;
    SELECT max(c.cursor) INTO top FROM journal.changes c;
    next_xid := pg_snapshot_xmax(pg_current_snapshot())::text::bigint;
    IF top >= current_base + (next_xid << 16) THEN
        current_base := top + 1 - (next_xid << 16);
        UPDATE journal.feed_cursor_base SET base = current_base;
    END IF;
    RETURN current_base;
END;
$$;

-- Append changes inside the caller's transaction and return their cursors,
-- in order. No lock is taken: the cursor range [base + xid * 65536, +65536)
-- belongs to this transaction alone. A second call in the same transaction
-- continues after the first's cursors.
CREATE FUNCTION journal.append_changes(
    kinds text[], subjects text[], workspaces text[], session_ids text[],
    record_kinds text[], record_ids text[], event_types text[], event_ids bigint[]
) RETURNS bigint[]
LANGUAGE plpgsql AS $$
DECLARE
    n integer := coalesce(cardinality(kinds), 0);
    first_cursor bigint;
    next_cursor bigint;
    cursors bigint[];
BEGIN
    IF n = 0 THEN
        RETURN '{}'::bigint[];
    END IF;
    SELECT b.base + (pg_current_xact_id()::text::bigint << 16) INTO first_cursor
    FROM journal.feed_cursor_base b;
    SELECT coalesce(max(c.cursor) + 1, first_cursor) INTO next_cursor
    FROM journal.changes c
    WHERE c.cursor >= first_cursor AND c.cursor < first_cursor + 65536;
    IF next_cursor + n > first_cursor + 65536 THEN
        RAISE EXCEPTION 'a transaction may append at most 65536 changes'
            USING ERRCODE = 'program_limit_exceeded';
    END IF;
    WITH inserted AS (
        INSERT INTO journal.changes
            (cursor, kind, subject, workspace, session_id, record_kind, record_id, event_type,
             event_id)
        SELECT next_cursor + c.ord - 1, c.kind, c.subject, c.workspace, c.session_id,
               c.record_kind, c.record_id, c.event_type, c.event_id
        FROM unnest(kinds, subjects, workspaces, session_ids, record_kinds, record_ids,
                    event_types, event_ids)
             WITH ORDINALITY AS c(kind, subject, workspace, session_id, record_kind, record_id,
                                  event_type, event_id, ord)
        RETURNING journal.changes.cursor
    )
    SELECT array_agg(i.cursor ORDER BY i.cursor) INTO cursors FROM inserted i;
    RETURN cursors;
END;
$$;

-- CommitTurn's database work in one statement (docs/journal.md, "What a turn
-- commit does", steps 3 and 4): check, lock, check again; then the canonical
-- event, the episode upsert (when learning-eligible), the receipt kept for
-- replay and the change-feed entries, all in the caller's transaction. The
-- caller computes hashes, payload and request fingerprint. A request id found
-- already committed returns its stored fingerprint and receipt with
-- replayed = true and writes nothing; the caller tells a replay from a reuse.
CREATE FUNCTION journal.commit_turn(
    p_request_id uuid,
    p_request_sha256 text,
    p_event_type text,
    p_provenance text,
    p_subject text,
    p_workspace text,
    p_session_id text,
    p_payload jsonb,
    p_content_sha256 text,
    p_user_sha256 text,
    p_assistant_sha256 text,
    p_occurred_at timestamptz,
    p_learning_eligible boolean,
    p_user_text text,
    p_assistant_text text,
    p_user_name text,
    p_assistant_name text,
    OUT replayed boolean,
    OUT request_sha256 text,
    OUT receipt jsonb
)
LANGUAGE plpgsql AS $$
DECLARE
    ev_id bigint;
    ev_recorded timestamptz;
    ev_occurred timestamptz;
    ep_id text := '';
    occurrences integer := 0;
    kinds text[] := ARRAY['event_appended'];
    record_kinds text[] := ARRAY['event'];
    record_ids text[];
BEGIN
    -- A plain replay returns without taking the lock.
    SELECT i.request_sha256, convert_from(i.response, 'UTF8')::jsonb
    INTO request_sha256, receipt
    FROM journal.idempotency i
    WHERE i.operation = 'commit_turn' AND i.request_id = p_request_id;
    IF FOUND THEN
        replayed := true;
        RETURN;
    END IF;
    -- The key memory_service.store.lock_key takes ('commit_turn:<request id>').
    PERFORM pg_advisory_xact_lock(hashtextextended('commit_turn:' || p_request_id::text, 0));
    -- Its own statement, so a fresh snapshot: a concurrent duplicate that held
    -- the lock has committed its receipt by now.
    SELECT i.request_sha256, convert_from(i.response, 'UTF8')::jsonb
    INTO request_sha256, receipt
    FROM journal.idempotency i
    WHERE i.operation = 'commit_turn' AND i.request_id = p_request_id;
    IF FOUND THEN
        replayed := true;
        RETURN;
    END IF;

    INSERT INTO journal.events
        (event_type, subject, workspace, session_id, payload, provenance, request_id,
         content_sha256, occurred_at)
    VALUES (p_event_type, p_subject, p_workspace, p_session_id, p_payload, p_provenance,
            p_request_id, p_content_sha256, coalesce(p_occurred_at, now()))
    RETURNING event_id, recorded_at, occurred_at INTO ev_id, ev_recorded, ev_occurred;
    record_ids := ARRAY[ev_id::text];

    IF p_learning_eligible THEN
        INSERT INTO journal.episodes AS e
            (subject, workspace, content_sha256, session_id, session_ids, user_text,
             assistant_text, user_name, assistant_name, first_seen_at, last_seen_at,
             first_event_id, last_event_id)
        VALUES (p_subject, p_workspace, p_content_sha256, p_session_id, ARRAY[p_session_id],
                p_user_text, p_assistant_text, p_user_name, p_assistant_name, ev_occurred,
                ev_occurred, ev_id, ev_id)
        ON CONFLICT ON CONSTRAINT episodes_content_key DO UPDATE SET
            occurrence_count = e.occurrence_count + 1,
            last_seen_at = greatest(e.last_seen_at, excluded.last_seen_at),
            session_id = excluded.session_id,
            session_ids = CASE WHEN excluded.session_id = ANY (e.session_ids) THEN e.session_ids
                               ELSE e.session_ids || excluded.session_id END,
            last_event_id = excluded.last_event_id
        RETURNING e.episode_id::text, e.occurrence_count INTO ep_id, occurrences;
        kinds := kinds || 'episode_upserted'::text;
        record_kinds := record_kinds || 'episode'::text;
        record_ids := record_ids || ep_id;
    END IF;

    receipt := jsonb_build_object(
        'event_id', ev_id,
        'episode_id', ep_id,
        'user_sha256', p_user_sha256,
        'assistant_sha256', p_assistant_sha256,
        'content_sha256', p_content_sha256,
        'occurrence_count', occurrences,
        'committed_at', ev_recorded,
        'request_id', p_request_id::text);
    INSERT INTO journal.idempotency (operation, request_id, request_sha256, response, subject)
    VALUES ('commit_turn', p_request_id, p_request_sha256, convert_to(receipt::text, 'UTF8'),
            p_subject);
    PERFORM journal.append_changes(
        kinds,
        array_fill(p_subject, ARRAY[cardinality(kinds)]),
        array_fill(p_workspace, ARRAY[cardinality(kinds)]),
        array_fill(p_session_id, ARRAY[cardinality(kinds)]),
        record_kinds,
        record_ids,
        array_fill(p_event_type, ARRAY[cardinality(kinds)]),
        array_fill(ev_id, ARRAY[cardinality(kinds)]));
    replayed := false;
    request_sha256 := p_request_sha256;
END;
$$;

-- The visibility fence: the cursor of the latest change that can hide (or
-- show again) an episode, so a reader can tell in one single-row read whether
-- a resident index that has applied the feed up to some cursor reflects every
-- acknowledged quarantine, restore and purge (docs/retrieval.md, "Visibility").
--
-- Why this is enough: every such operation appends its change
-- (record_quarantined, record_restored, subject_purged) through
-- journal.append_changes, which now raises the fence to that change's cursor
-- in the same transaction. When Quarantine (Restore, Purge) returns, its
-- transaction has committed, so any read that starts afterwards sees a fence
-- >= its cursor. A follower's applied cursor is the last change it delivered
-- or a watermark, and a follower delivers every final change below it in
-- cursor order (migration 0008): an index whose applied cursor is >= the
-- fence has applied that change. Concurrent visibility writers serialise on
-- the fence row (they are rare operator actions; CommitTurn never touches
-- it), and greatest() keeps the fence monotonic whichever commits first.

CREATE TABLE journal.visibility_fence (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    cursor    bigint  NOT NULL CHECK (cursor >= 0)
);

-- Existing databases: the highest visibility change already stored.
INSERT INTO journal.visibility_fence (singleton, cursor)
SELECT true, coalesce(max(c.cursor), 0)
FROM journal.changes c
WHERE c.kind IN ('record_quarantined', 'record_restored', 'subject_purged');

-- As in migration 0008, plus the fence.
CREATE OR REPLACE FUNCTION journal.append_changes(
    kinds text[], subjects text[], workspaces text[], session_ids text[],
    record_kinds text[], record_ids text[], event_types text[], event_ids bigint[]
) RETURNS bigint[]
LANGUAGE plpgsql AS $$
DECLARE
    n integer := coalesce(cardinality(kinds), 0);
    first_cursor bigint;
    next_cursor bigint;
    cursors bigint[];
    fence bigint;
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
    IF kinds && ARRAY['record_quarantined', 'record_restored', 'subject_purged'] THEN
        SELECT max(next_cursor + c.ord - 1) INTO fence
        FROM unnest(kinds) WITH ORDINALITY AS c(kind, ord)
        WHERE c.kind IN ('record_quarantined', 'record_restored', 'subject_purged');
        UPDATE journal.visibility_fence f SET cursor = greatest(f.cursor, fence);
    END IF;
    RETURN cursors;
END;
$$;

-- Incremental verification for GetSessionContext: one verified prefix per
-- session, so a call checks only the turns newer than the last verified one.
--
-- A row records the session's turns up to through_event_id as the full
-- compaction rules found them (every visible one well-formed, hash-matched
-- and analysed; no tool or lone conversation event among them), the
-- separate count of visible turns there, a running digest of the verified
-- range, and the change-feed frontier (journal.feed_frontier()) of the
-- snapshot that verified it. It is a projection, never an authority:
-- dropping the table only makes the next calls verify everything again.
--
-- Why the frontier makes it fail-closed: every change a later snapshot sees
-- that the verifying snapshot did not has a cursor at or above that frontier
-- (migration 0008). A read trusts a row only when no change from there on
-- (bounded scan) touches the subject in a way that could alter the range: a
-- quarantine or restore of anything of the subject and workspace, a purge,
-- a turn, tool or conversation event of the session at or below
-- through_event_id that the row does not know (a writer that committed late),
-- or a SYSTEM `turn.analyzed` event naming a turn of the range other than
-- the one the row quotes. A policy version other than the row's is ignored.
-- The checkpoint triggers also drop rows eagerly (quarantine, restore,
-- purge), which keeps them from outliving what they describe.

CREATE TABLE journal.session_verified_prefixes (
    subject             text        NOT NULL,
    workspace           text        NOT NULL,
    session_id          text        NOT NULL,
    policy_version      bigint      NOT NULL,
    frontier            bigint      NOT NULL,
    through_event_id    bigint      NOT NULL,
    -- The visible verified turns, in event order, and the analysis each quotes.
    turn_event_ids      bigint[]    NOT NULL,
    content_hashes      text[]      NOT NULL,
    analysis_event_ids  bigint[]    NOT NULL,
    -- Turns of the range a quarantine hides (reported QUARANTINED_IN_RANGE).
    withheld_event_ids  bigint[]    NOT NULL,
    canonical_chars     bigint      NOT NULL,
    -- journal.turn_withheld's count of visible turns up to through_event_id.
    visible_count       bigint      NOT NULL,
    -- Running SHA-256 chain over (turn id, content hash, analysis id).
    chain_sha256        text        NOT NULL,
    built_at            timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (subject, workspace, session_id),
    CONSTRAINT session_verified_prefixes_arrays_agree CHECK (
        cardinality(turn_event_ids) = cardinality(content_hashes)
        AND cardinality(turn_event_ids) = cardinality(analysis_event_ids)
        AND cardinality(turn_event_ids) = visible_count)
);

-- The checkpoint projection keeps its digest, text and the number of turns
-- it covers, no longer every source: a read reuses it only when the digest of
-- its current inputs matches (memory_service/transcript_store.py), and the
-- response lists the sources from the verified range itself. Rewriting
-- three 10,000-element arrays and their two GIN indexes on every new turn
-- cost more than the rest of the call.
DROP INDEX journal.session_checkpoints_sources_idx;
DROP INDEX journal.session_checkpoints_hashes_idx;
ALTER TABLE journal.session_checkpoints
    DROP COLUMN source_event_ids,
    DROP COLUMN source_hashes,
    DROP COLUMN analysis_event_ids,
    ADD COLUMN source_count integer NOT NULL DEFAULT 0;

-- The triggers of migration 0009 drop both projections: a quarantine or
-- restore of any record of a subject and workspace drops the subject's
-- checkpoints and prefixes there (content withholding crosses sessions), and
-- the audited purge drops the purged subjects' with their events.
CREATE OR REPLACE FUNCTION journal.invalidate_checkpoints_on_quarantine() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    changed journal.quarantined;
    owner_subject text;
    owner_workspace text;
BEGIN
    IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
    IF changed.record_kind = 'event' THEN
        SELECT subject, workspace INTO owner_subject, owner_workspace FROM journal.events
        WHERE event_id = changed.record_id::bigint;
    ELSIF changed.record_kind = 'episode' THEN
        SELECT subject, workspace INTO owner_subject, owner_workspace FROM journal.episodes
        WHERE episode_id::text = changed.record_id;
    END IF;
    IF owner_subject IS NOT NULL THEN
        DELETE FROM journal.session_checkpoints
        WHERE subject = owner_subject AND workspace = owner_workspace;
        DELETE FROM journal.session_verified_prefixes
        WHERE subject = owner_subject AND workspace = owner_workspace;
    END IF;
    RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION journal.invalidate_checkpoints_on_purge() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM journal.session_checkpoints c
    USING (SELECT DISTINCT subject, workspace FROM purged) p
    WHERE c.subject = p.subject AND c.workspace = p.workspace;
    DELETE FROM journal.session_verified_prefixes v
    USING (SELECT DISTINCT subject, workspace FROM purged) p
    WHERE v.subject = p.subject AND v.workspace = p.workspace;
    RETURN NULL;
END;
$$;

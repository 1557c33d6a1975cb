-- Learned context without evaluating a term array per row, nor reading
-- learnings for the gate: the stored term sets of migration 0004 as
-- postings, one row per (scope, term, learning), and the gate over
-- learning_state alone.
--
-- 1. learning.learning_terms: for every active learning (any tier) with a
--    stored term set, one row per distinct term, keyed (scope_key, term,
--    learning_id). A read looks up exactly its (scope, term) pairs in the
--    primary key and counts the rows of each learning: that count is the
--    number of terms it shares with the input, the numerator of
--    text.overlap_score, so candidates are found and scored without
--    comparing arrays row by row (which cost ~1 us per learning for the
--    overlap test alone, and again for ts_delete when scoring).
-- 2. Written only by a trigger on learning.learning_state (the projection
--    of every revision, and the startup backfill, both write there): a
--    change of terms, status or tier replaces the learning's postings, so
--    they always equal the current state's set; a revoked or superseded
--    learning has none. Deleting a state row (erasure) cascades. (As for
--    the projection trigger of 0001, a write under session_replication_role
--    = replica fires neither.)
--    Postings say nothing about eligibility: every read joins them to
--    learning.context_eligible (the one injection gate) and requires the
--    current normaliser version there.
-- 3. The (scope, term) GIN index of 0004 has no reader left and is dropped
--    (its column stays: the projection still writes it).
-- 4. learning_state copies the learning's gate inputs, learning.learning_gate
--    is the injection gate over them, learning_current is built on it, and
--    learning.context_gate is what the learned-context count and hits read
--    (below).

CREATE TABLE learning.learning_terms (
    scope_key   text NOT NULL,
    term        text NOT NULL,
    learning_id uuid NOT NULL REFERENCES learning.learning_state ON DELETE CASCADE,
    PRIMARY KEY (scope_key, term, learning_id)
);
-- Replacing a learning's postings, and the cascade.
CREATE INDEX learning_terms_learning_idx ON learning.learning_terms (learning_id);

CREATE FUNCTION learning.post_learning_terms() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        IF NEW.terms IS NOT DISTINCT FROM OLD.terms
           AND NEW.status IS NOT DISTINCT FROM OLD.status
           AND NEW.scope_key IS NOT DISTINCT FROM OLD.scope_key THEN
            RETURN NULL;
        END IF;
        DELETE FROM learning.learning_terms WHERE learning_id = NEW.learning_id;
    END IF;
    IF NEW.status = 'active' AND NEW.terms IS NOT NULL THEN
        INSERT INTO learning.learning_terms (scope_key, term, learning_id)
        SELECT DISTINCT NEW.scope_key, t, NEW.learning_id FROM unnest(NEW.terms) t;
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER learning_state_post_terms
    AFTER INSERT OR UPDATE ON learning.learning_state
    FOR EACH ROW EXECUTE FUNCTION learning.post_learning_terms();

INSERT INTO learning.learning_terms (scope_key, term, learning_id)
SELECT DISTINCT s.scope_key, t, s.learning_id
FROM learning.learning_state s, unnest(s.terms) t
WHERE s.status = 'active' AND s.terms IS NOT NULL;

DROP INDEX learning.learning_state_scoped_terms_idx;

-- 4. The gate without the learnings table: learning_state keeps a copy of
--    the learning's gate inputs (kind, sensitivity, verification, policy
--    decision, expiry, scope kind, source subject/workspace/run/event,
--    creation time). learnings is append-only, so the copy, written by the
--    projection when the state row is first written, never goes stale.
--    learning.learning_gate is the one injection gate over them (as 0004's
--    learning_current had it, over learnings' columns), and learning_current
--    is now learnings joined to it (same columns). The learned-context count
--    and hit selection read learning_gate only: one covering index scan for
--    the eligible count and one state row per hit, instead of a learnings
--    probe for each as well.
ALTER TABLE learning.learning_state
    ADD COLUMN scope_kind text,
    ADD COLUMN kind text,
    ADD COLUMN sensitivity text,
    ADD COLUMN verification_status text,
    ADD COLUMN policy_decision text,
    ADD COLUMN expires_at timestamptz,
    ADD COLUMN source_subject text,
    ADD COLUMN source_workspace text,
    ADD COLUMN source_run_id text,
    ADD COLUMN source_event_id bigint,
    ADD COLUMN created_at timestamptz;
ALTER TABLE learning.learning_state DISABLE TRIGGER learning_state_post_terms;
UPDATE learning.learning_state s
SET scope_kind = l.scope_kind, kind = l.kind, sensitivity = l.sensitivity,
    verification_status = l.verification_status, policy_decision = l.policy_decision,
    expires_at = l.expires_at, source_subject = l.source_subject,
    source_workspace = l.source_workspace, source_run_id = l.source_run_id,
    source_event_id = l.source_event_id, created_at = l.created_at
FROM learning.learnings l WHERE l.learning_id = s.learning_id;
ALTER TABLE learning.learning_state ENABLE TRIGGER learning_state_post_terms;
ALTER TABLE learning.learning_state
    ALTER COLUMN scope_kind SET NOT NULL,
    ALTER COLUMN kind SET NOT NULL,
    ALTER COLUMN sensitivity SET NOT NULL,
    ALTER COLUMN verification_status SET NOT NULL,
    ALTER COLUMN policy_decision SET NOT NULL,
    ALTER COLUMN source_subject SET NOT NULL,
    ALTER COLUMN source_workspace SET NOT NULL,
    ALTER COLUMN source_run_id SET NOT NULL,
    ALTER COLUMN source_event_id SET NOT NULL,
    ALTER COLUMN created_at SET NOT NULL;

CREATE OR REPLACE FUNCTION learning.project_learning_revision() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO learning.learning_state
        (learning_id, revision, status, publish_tier, superseded_by, revision_seq, updated_at,
         terms, terms_version, scope_key, scoped_terms, scope_kind, kind, sensitivity,
         verification_status, policy_decision, expires_at, source_subject, source_workspace,
         source_run_id, source_event_id, created_at)
    SELECT NEW.learning_id, NEW.revision, NEW.status, NEW.publish_tier, NEW.superseded_by,
           NEW.revision_seq, NEW.recorded_at, NEW.terms, NEW.terms_version,
           l.scope_kind || ':' || l.scope_id,
           learning.scoped_terms(l.scope_kind || ':' || l.scope_id, NEW.terms),
           l.scope_kind, l.kind, l.sensitivity, l.verification_status, l.policy_decision,
           l.expires_at, l.source_subject, l.source_workspace, l.source_run_id,
           l.source_event_id, l.created_at
    FROM learning.learnings l WHERE l.learning_id = NEW.learning_id
    ON CONFLICT (learning_id) DO UPDATE SET
        revision = excluded.revision,
        status = excluded.status,
        publish_tier = excluded.publish_tier,
        superseded_by = coalesce(excluded.superseded_by, learning.learning_state.superseded_by),
        revision_seq = excluded.revision_seq,
        updated_at = excluded.updated_at,
        terms = excluded.terms,
        terms_version = excluded.terms_version,
        scoped_terms = excluded.scoped_terms;
    RETURN NULL;
END;
$$;

-- THE injection gate of a learning (learning.is_prompt_eligible and not
-- withheld by quarantine, the two joins of 0004), over learning_state alone.
CREATE VIEW learning.learning_gate AS
SELECT s.*,
       learning.is_prompt_eligible(s.kind, s.sensitivity, s.status, s.publish_tier,
                                   s.verification_status, s.policy_decision, s.expires_at,
                                   now())
           AND qr.record_id IS NULL AND qe.record_id IS NULL AS prompt_eligible,
       qr.record_id IS NOT NULL OR qe.record_id IS NOT NULL AS withheld_by_quarantine
FROM learning.learning_state s
LEFT JOIN learning.source_quarantine qr
    ON qr.quarantined AND qr.record_kind = 'run_record' AND s.source_run_id <> ''
       AND qr.record_id = s.source_run_id
LEFT JOIN learning.source_quarantine qe
    ON qe.quarantined AND qe.record_kind = 'event' AND s.source_event_id > 0
       AND qe.record_id = s.source_event_id::text;

CREATE OR REPLACE VIEW learning.learning_current AS
SELECT l.*,
       g.scope_key, g.revision, g.status, g.publish_tier, g.superseded_by, g.revision_seq,
       g.updated_at, g.prompt_eligible, g.withheld_by_quarantine, g.terms, g.terms_version,
       g.scoped_terms
FROM learning.learnings l
JOIN learning.learning_gate g USING (learning_id);

-- What a learned-context read may inject, by learning_gate alone: its
-- prompt-eligible rows, status and tier restated for the partial indexes.
-- (learning.context_eligible is the same rows with the entry columns.)
CREATE VIEW learning.context_gate AS
SELECT g.learning_id, g.scope_key, g.scope_kind, g.source_subject, g.source_workspace,
       g.created_at, g.terms, g.terms_version
FROM learning.learning_gate g
WHERE g.status = 'active' AND g.publish_tier = 'active' AND g.prompt_eligible;

-- The eligible count of a read: an index-only scan over its scopes.
CREATE INDEX learning_state_gate_idx ON learning.learning_state (scope_key)
    INCLUDE (learning_id, scope_kind, kind, sensitivity, verification_status, policy_decision,
             expires_at, source_subject, source_workspace, source_run_id, source_event_id)
    WHERE status = 'active' AND publish_tier = 'active';
DROP INDEX learning.learning_state_context_scope_idx;
DROP INDEX learning.learnings_gate_idx;

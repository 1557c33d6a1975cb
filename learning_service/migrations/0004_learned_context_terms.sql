-- Learned context without re-reading the plane: every learning revision
-- carries the term set of its content, the projection keeps the current one,
-- and GetLearnedContext selects candidates by a GIN index over it.
--
-- 1. learning_revisions.terms / terms_version: the distinct index terms of the
--    learning's content (engram.terms.index_terms, sorted) and the normaliser
--    version that produced them, computed by the writer of each revision
--    (learning_service.term_index). NULL when a revision was written without
--    them (rows older than this migration, hand-written rows).
-- 2. learning_state.terms / terms_version: the current revision's, copied by
--    the projection trigger (never carried over from an older revision). A
--    row whose terms are missing or of another normaliser version is
--    "unindexed": the read path scores it from its content, so nothing is
--    missed while it waits for the startup backfill
--    (learning_service.term_index.backfill, run before the service serves),
--    which is the only other writer of these two columns.
-- 3. learning_current exposes them (appended columns), and computes
--    withheld_by_quarantine by joins (below); learning.context_eligible is
--    what the learned-context read selects from.
-- 4. Indexes: the GIN index for candidate selection and the terms_version
--    index that finds unindexed rows, both over active rows of the active
--    tier (the only rows the injection gate can admit), and creation time
--    for the durable-memory fallback (newest first).

ALTER TABLE learning.learning_revisions
    ADD COLUMN terms text[],
    ADD COLUMN terms_version text;

ALTER TABLE learning.learning_state
    ADD COLUMN terms text[],
    ADD COLUMN terms_version text;

CREATE OR REPLACE FUNCTION learning.project_learning_revision() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO learning.learning_state
        (learning_id, revision, status, publish_tier, superseded_by, revision_seq, updated_at,
         terms, terms_version)
    VALUES (NEW.learning_id, NEW.revision, NEW.status, NEW.publish_tier, NEW.superseded_by,
            NEW.revision_seq, NEW.recorded_at, NEW.terms, NEW.terms_version)
    ON CONFLICT (learning_id) DO UPDATE SET
        revision = excluded.revision,
        status = excluded.status,
        publish_tier = excluded.publish_tier,
        superseded_by = coalesce(excluded.superseded_by, learning.learning_state.superseded_by),
        revision_seq = excluded.revision_seq,
        updated_at = excluded.updated_at,
        terms = excluded.terms,
        terms_version = excluded.terms_version;
    RETURN NULL;
END;
$$;

-- Withheld by quarantine is learning.source_quarantined spelled as two
-- joins on source_quarantine's key (the same two conditions), planned as
-- hash joins instead of two subqueries per row, which dominated every read
-- over many learnings; a test checks the two agree.
CREATE OR REPLACE VIEW learning.learning_current AS
SELECT l.*,
       l.scope_kind || ':' || l.scope_id AS scope_key,
       s.revision, s.status, s.publish_tier, s.superseded_by, s.revision_seq,
       s.updated_at,
       learning.is_prompt_eligible(l.kind, l.sensitivity, s.status, s.publish_tier,
                                   l.verification_status, l.policy_decision, l.expires_at,
                                   now())
           AND qr.record_id IS NULL AND qe.record_id IS NULL AS prompt_eligible,
       qr.record_id IS NOT NULL OR qe.record_id IS NOT NULL AS withheld_by_quarantine,
       s.terms, s.terms_version
FROM learning.learnings l
JOIN learning.learning_state s USING (learning_id)
LEFT JOIN learning.source_quarantine qr
    ON qr.quarantined AND qr.record_kind = 'run_record' AND l.source_run_id <> ''
       AND qr.record_id = l.source_run_id
LEFT JOIN learning.source_quarantine qe
    ON qe.quarantined AND qe.record_kind = 'event' AND l.source_event_id > 0
       AND qe.record_id = l.source_event_id::text;

-- What the learned-context read may inject, with the columns an entry
-- needs: learning_current's prompt-eligible rows, with status and tier
-- restated so the partial indexes below apply. The read adds the scope keys
-- and session_visible.
CREATE VIEW learning.context_eligible AS
SELECT c.learning_id, c.scope_kind, c.scope_id, c.scope_key, c.kind, c.content, c.status,
       c.publish_tier, c.verification_status, c.policy_decision, c.policy_actor,
       c.source_run_id, c.source_session_id, c.source_subject, c.source_workspace,
       c.source_event_id, c.evidence_refs, c.sensitivity, c.candidate_id, c.supersedes,
       c.superseded_by, c.created_at, c.confidence, c.origin, c.withheld_by_quarantine,
       c.expires_at, c.terms, c.terms_version
FROM learning.learning_current c
WHERE c.status = 'active' AND c.publish_tier = 'active' AND c.prompt_eligible;

CREATE INDEX learning_state_terms_idx ON learning.learning_state USING gin (terms)
    WHERE status = 'active' AND publish_tier = 'active';
CREATE INDEX learning_state_terms_version_idx ON learning.learning_state (terms_version)
    WHERE status = 'active' AND publish_tier = 'active';
CREATE INDEX learnings_created_idx ON learning.learnings (created_at);

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
--    the projection trigger (never carried over from an older revision),
--    with scoped_terms, the same terms keyed by the scope (4.). A
--    row whose terms are missing or of another normaliser version is
--    "unindexed": the read path scores it from its content, so nothing is
--    missed while it waits for the startup backfill
--    (learning_service.term_index.backfill, run before the service serves),
--    which is the only other writer of these columns.
-- 3. learning_current exposes them (appended columns), and computes
--    withheld_by_quarantine by joins (below); learning.context_eligible is
--    what the learned-context read selects from.
-- 4. learning_state.scope_key, so scope and terms share a GIN key
--    (learning.scoped_terms); learning_current.scope_key now reads it (same
--    value).
-- 5. Indexes: the GIN index for candidate selection and the terms_version
--    index that finds unindexed rows, both over active rows of the active
--    tier (the only rows the injection gate can admit), the scope key, two
--    covering indexes for the eligible count, and creation time for the
--    durable-memory fallback (newest first).

ALTER TABLE learning.learning_revisions
    ADD COLUMN terms text[],
    ADD COLUMN terms_version text;

ALTER TABLE learning.learning_state
    ADD COLUMN terms text[],
    ADD COLUMN terms_version text,
    -- The learning's scope key (immutable, copied when the state row is
    -- first written), and its (scope, term) keys (learning.scoped_terms,
    -- written with the terms), so one index holds scope and terms together.
    ADD COLUMN scope_key text,
    ADD COLUMN scoped_terms text[];
UPDATE learning.learning_state s SET scope_key = l.scope_kind || ':' || l.scope_id
FROM learning.learnings l WHERE l.learning_id = s.learning_id;
ALTER TABLE learning.learning_state ALTER COLUMN scope_key SET NOT NULL;

-- Scope and terms in one GIN key: "<scope key><U+001F><term>" for each term
-- (U+001E, which separates the pairs while they are joined, and U+001F never
-- occur in a term, which is letters, marks and digits, nor in a validated
-- scope id). Candidate selection looks up only the (scope, term) pairs of
-- the read: it visits the hits in its scopes, not every learning in the
-- plane that shares a word with the input.
CREATE FUNCTION learning.scoped_terms(scope_key text, terms text[]) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN cardinality(terms) = 0 THEN '{}'::text[]
                ELSE string_to_array(
                         scope_key || chr(31)
                             || array_to_string(terms, chr(30) || scope_key || chr(31)),
                         chr(30))
           END
$$;
-- The keys a read looks up: every scope key with every input term.
CREATE FUNCTION learning.scoped_query(scope_keys text[], terms text[]) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT array(SELECT k || chr(31) || t FROM unnest(scope_keys) k, unnest(terms) t)
$$;

CREATE OR REPLACE FUNCTION learning.project_learning_revision() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO learning.learning_state
        (learning_id, revision, status, publish_tier, superseded_by, revision_seq, updated_at,
         terms, terms_version, scope_key, scoped_terms)
    SELECT NEW.learning_id, NEW.revision, NEW.status, NEW.publish_tier, NEW.superseded_by,
           NEW.revision_seq, NEW.recorded_at, NEW.terms, NEW.terms_version,
           l.scope_kind || ':' || l.scope_id,
           learning.scoped_terms(l.scope_kind || ':' || l.scope_id, NEW.terms)
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

-- Withheld by quarantine is learning.source_quarantined spelled as two
-- joins on source_quarantine's key (the same two conditions), planned as
-- hash joins instead of two subqueries per row, which dominated every read
-- over many learnings; a test checks the two agree.
CREATE OR REPLACE VIEW learning.learning_current AS
SELECT l.*,
       s.scope_key,
       s.revision, s.status, s.publish_tier, s.superseded_by, s.revision_seq,
       s.updated_at,
       learning.is_prompt_eligible(l.kind, l.sensitivity, s.status, s.publish_tier,
                                   l.verification_status, l.policy_decision, l.expires_at,
                                   now())
           AND qr.record_id IS NULL AND qe.record_id IS NULL AS prompt_eligible,
       qr.record_id IS NOT NULL OR qe.record_id IS NOT NULL AS withheld_by_quarantine,
       s.terms, s.terms_version, s.scoped_terms
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
       c.expires_at, c.terms, c.terms_version, c.scoped_terms
FROM learning.learning_current c
WHERE c.status = 'active' AND c.publish_tier = 'active' AND c.prompt_eligible;

CREATE INDEX learning_state_scoped_terms_idx ON learning.learning_state
    USING gin (scoped_terms)
    WHERE status = 'active' AND publish_tier = 'active';
-- Every scope filter of the plane now reads learning_state.scope_key.
CREATE INDEX learning_state_scope_key_idx ON learning.learning_state (scope_key);
-- The eligible count of a read visits every learning in its scopes: these
-- two let it read the scope index and each learning's gate columns without
-- touching either table's heap.
CREATE INDEX learning_state_context_scope_idx ON learning.learning_state (scope_key)
    INCLUDE (learning_id) WHERE status = 'active' AND publish_tier = 'active';
CREATE INDEX learnings_gate_idx ON learning.learnings (learning_id)
    INCLUDE (kind, sensitivity, verification_status, policy_decision, expires_at, scope_kind,
             source_subject, source_workspace, source_run_id, source_event_id);
CREATE INDEX learning_state_terms_version_idx ON learning.learning_state (terms_version)
    WHERE status = 'active' AND publish_tier = 'active';
CREATE INDEX learnings_created_idx ON learning.learnings (created_at);

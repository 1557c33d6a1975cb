-- Learned context without evaluating a term array per row: the stored term
-- sets of migration 0004 as postings, one row per (scope, term, learning).
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

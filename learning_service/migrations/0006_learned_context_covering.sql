-- The learned-context read without a state row per hit: the eligible
-- learnings of a read's scopes, with everything the read ranks by, from one
-- index-only scan.
--
-- 1. learning_state.term_count: the size of the current term set
--    (cardinality(terms), stored, so an index can carry it): the
--    denominator of text.overlap_score beside the shared-term count the
--    postings give.
-- 2. learning_state_context_idx replaces learning_state_gate_idx (0005):
--    the same key, rows and gate columns, plus created_at, terms_version and
--    term_count. A read gates every learning in scope once through it
--    (the eligible count) and joins the postings' hits to that set; before,
--    each hit was gated again through its state row (an index probe and a
--    heap visit per hit, and two more probes into the quarantine tables),
--    which with most of a scope hit cost more than the rest of the read.
--    Every query the old index served, this one serves (a superset of its
--    columns under the same key and predicate).

ALTER TABLE learning.learning_state
    ADD COLUMN term_count integer GENERATED ALWAYS AS (cardinality(terms)) STORED;

CREATE INDEX learning_state_context_idx ON learning.learning_state (scope_key)
    INCLUDE (learning_id, scope_kind, kind, sensitivity, verification_status, policy_decision,
             expires_at, source_subject, source_workspace, source_run_id, source_event_id,
             created_at, terms_version, term_count)
    WHERE status = 'active' AND publish_tier = 'active';
DROP INDEX learning.learning_state_gate_idx;

-- Journal quarantine reaches the learning plane, and session scopes are
-- keyed by subject and workspace.
--
-- 1. learning.source_quarantine is the plane's copy of the journal's
--    quarantine state for the two record kinds learnings are derived from:
--    run records (record_id = the run id, a learning's source_run_id) and
--    events (record_id = the event id, a learning's source_event_id, the
--    run.completed event capture read). Every read path first brings it up
--    to the journal's change-feed watermark (learning_service.quarantine),
--    so it is current when the read's query runs; no worker feeds it.
--    A row per record ever quarantined; the latest change wins (a replayed
--    or late older change never overwrites a newer one).
-- 2. withheld_by_quarantine on learning_current, candidate_current and
--    skill_current; the injection gate (prompt_eligible) requires it false.
-- 3. learning.session_visible: a session-scoped record belongs to its
--    source's subject and workspace.

CREATE TABLE learning.source_quarantine (
    record_kind    text        NOT NULL,
    record_id      text        NOT NULL,
    quarantined    boolean     NOT NULL,
    -- The journal change that set this state.
    change_cursor  bigint      NOT NULL,
    updated_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (record_kind, record_id),
    CONSTRAINT source_quarantine_kind_known CHECK (record_kind IN ('run_record', 'event')),
    CONSTRAINT source_quarantine_cursor_positive CHECK (change_cursor > 0)
);
CREATE INDEX source_quarantine_active_idx ON learning.source_quarantine (record_kind, record_id)
    WHERE quarantined;

-- 'quarantine' = the journal change cursor source_quarantine is current up to.
INSERT INTO learning.worker_cursors (name) VALUES ('quarantine');

-- Is a record derived from this run or event withheld? A source names the
-- run's record by run id and the run.completed event by id; either one
-- quarantined withholds it.
CREATE FUNCTION learning.source_quarantined(run_id text, event_id bigint) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT EXISTS (
        SELECT 1 FROM learning.source_quarantine q
        WHERE q.quarantined AND q.record_kind = 'run_record' AND run_id <> ''
          AND q.record_id = run_id
    ) OR EXISTS (
        SELECT 1 FROM learning.source_quarantine q
        WHERE q.quarantined AND q.record_kind = 'event' AND event_id > 0
          AND q.record_id = event_id::text
    )
$$;

-- A journal workspace as stored ('' and 'default' are the same workspace).
CREATE FUNCTION learning.workspace_or_default(workspace text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(nullif(workspace, ''), 'default')
$$;

-- May a read by (subject, workspace) see a record in this scope? Persona,
-- project and workspace scopes are shared; a session scope is its source
-- subject's, in its source workspace. A session record with no source
-- subject belongs to nobody, and an empty reading subject matches nothing.
CREATE FUNCTION learning.session_visible(
    scope_kind text, source_subject text, source_workspace text,
    subject text, workspace text
) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT scope_kind <> 'session'
        OR (source_subject <> '' AND source_subject = subject
            AND learning.workspace_or_default(source_workspace)
                = learning.workspace_or_default(workspace))
$$;

-- The current state of every learning. The one injection gate now also
-- requires that no journal record it was derived from is quarantined.
CREATE OR REPLACE VIEW learning.learning_current AS
SELECT l.*,
       l.scope_kind || ':' || l.scope_id AS scope_key,
       s.revision, s.status, s.publish_tier, s.superseded_by, s.revision_seq,
       s.updated_at,
       learning.is_prompt_eligible(l.kind, l.sensitivity, s.status, s.publish_tier,
                                   l.verification_status, l.policy_decision, l.expires_at,
                                   now())
           AND NOT w.withheld AS prompt_eligible,
       w.withheld AS withheld_by_quarantine
FROM learning.learnings l
JOIN learning.learning_state s USING (learning_id)
CROSS JOIN LATERAL (
    SELECT learning.source_quarantined(l.source_run_id, l.source_event_id) AS withheld
) w;

CREATE OR REPLACE VIEW learning.candidate_current AS
SELECT c.*,
       c.scope_kind || ':' || c.scope_id AS scope_key,
       s.status, s.status_reason, s.learning_id, s.updated_at,
       r.review_id, r.mode AS review_mode, r.matched_rule, r.baseline_action, r.judge,
       r.final_action, r.verification AS review_verification, r.reason AS review_reason,
       r.applied AS review_applied, r.conflict_with, r.reviewed_at,
       learning.source_quarantined(c.source_run_id, c.source_event_id)
           AS withheld_by_quarantine
FROM learning.candidates c
JOIN learning.candidate_state s USING (candidate_id)
LEFT JOIN LATERAL (
    SELECT * FROM learning.candidate_reviews r
    WHERE r.candidate_id = c.candidate_id
    ORDER BY r.review_id DESC
    LIMIT 1
) r ON true;

-- A skill is withheld with its source learning.
CREATE OR REPLACE VIEW learning.skill_current AS
SELECT s.skill_name, s.version, s.state, s.updated_at,
       v.source_learning_id, v.instructions, v.execution_context, v.verification_profile,
       v.definition_fingerprint, v.created_at, v.created_by,
       ev.successful_runs, ev.distinct_sessions, ev.canary_successes, ev.canary_failures,
       ev.verified,
       coalesce(learning.source_quarantined(src.source_run_id, src.source_event_id), false)
           AS withheld_by_quarantine
FROM learning.skill_state s
JOIN learning.skill_versions v USING (skill_name, version)
LEFT JOIN learning.learnings src ON src.learning_id = v.source_learning_id
CROSS JOIN LATERAL (
    SELECT count(*) FILTER (WHERE e.stage <> '' AND e.success) AS successful_runs,
           count(DISTINCT e.session_id)
               FILTER (WHERE e.stage <> '' AND e.success AND e.session_id <> '')
               AS distinct_sessions,
           count(*) FILTER (WHERE e.stage = 'canary' AND e.success) AS canary_successes,
           count(*) FILTER (WHERE e.stage = 'canary' AND NOT e.success) AS canary_failures,
           coalesce(bool_or(e.action = 'verification_passed'), false) AS verified
    FROM learning.skill_events e
    WHERE e.skill_name = s.skill_name AND e.version = s.version
      AND e.definition_fingerprint = v.definition_fingerprint
) ev;

-- The learning plane: candidates, published learnings, the learning policy,
-- automation reviews, promoted skills and the durable worker cursors.
--
-- Facts are immutable rows; every state change is a NEW row in an append-only
-- event/revision table. Small *_state tables hold the latest state per record
-- for fast filtering; only the triggers below write them, in the same
-- transaction as the event that changed the state.

CREATE SCHEMA IF NOT EXISTS learning;

CREATE FUNCTION learning.forbid_mutation() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'learning.% is append-only: % rejected', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'P0001';
END;
$$;

CREATE FUNCTION learning.forbid_truncate() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'learning.% is append-only: TRUNCATE rejected', TG_TABLE_NAME
        USING ERRCODE = 'P0001';
END;
$$;

-- ---------------------------------------------------------------- the one gate

-- Only fact, preference and decision ever reach a prompt.
CREATE FUNCTION learning.kind_is_prompt_eligible(kind text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT kind IN ('fact', 'preference', 'decision')
$$;

-- THE injection gate. Every read path (learned context, search tags) uses it;
-- no other code decides prompt visibility.
CREATE FUNCTION learning.is_prompt_eligible(
    kind text, sensitivity text, status text, publish_tier text,
    verification_status text, policy_decision text, expires_at timestamptz,
    at timestamptz
) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT learning.kind_is_prompt_eligible(kind)
       AND sensitivity <> 'sensitive'
       AND status = 'active'
       AND (expires_at IS NULL OR expires_at > at)
       AND publish_tier = 'active'
       AND verification_status <> 'failed'
       -- automation must have verified what it published; manual records
       -- stay visible without the verified gate
       AND (policy_decision <> 'automatic' OR verification_status = 'verified')
       AND policy_decision <> 'escalated'
$$;

-- ---------------------------------------------------------------- policy

-- Every accepted policy is a new version; the current one is the highest.
-- No row means the defaults (mode shadow).
CREATE TABLE learning.policy_versions (
    version     bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    document    jsonb       NOT NULL,
    updated_by  text        NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now()
);

-- ---------------------------------------------------------------- candidates

CREATE TABLE learning.candidates (
    seq                bigint      GENERATED ALWAYS AS IDENTITY UNIQUE,
    candidate_id       uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    origin             text        NOT NULL,
    scope_kind         text        NOT NULL,
    scope_id           text        NOT NULL,
    kind               text        NOT NULL,
    content            text        NOT NULL,
    content_sha256     text        NOT NULL,
    confidence         integer     NOT NULL,
    source_run_id      text        NOT NULL DEFAULT '',
    source_session_id  text        NOT NULL DEFAULT '',
    source_subject     text        NOT NULL DEFAULT '',
    source_workspace   text        NOT NULL DEFAULT '',
    source_event_id    bigint      NOT NULL DEFAULT 0,
    evidence_refs      text[]      NOT NULL DEFAULT '{}',
    sensitivity        text        NOT NULL,
    expires_at         timestamptz,
    created_at         timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT candidates_origin_known CHECK (origin IN ('api', 'daemon')),
    CONSTRAINT candidates_scope_kind_known
        CHECK (scope_kind IN ('session', 'persona', 'project', 'workspace')),
    CONSTRAINT candidates_workspace_default CHECK (scope_kind <> 'workspace' OR scope_id = 'default'),
    CONSTRAINT candidates_kind_known
        CHECK (kind IN ('fact', 'preference', 'decision', 'run_summary', 'procedure')),
    CONSTRAINT candidates_run_summary_daemon_owned CHECK (kind <> 'run_summary' OR origin = 'daemon'),
    CONSTRAINT candidates_content_length CHECK (char_length(content) BETWEEN 1 AND 4000),
    CONSTRAINT candidates_confidence_range CHECK (confidence BETWEEN 0 AND 100),
    CONSTRAINT candidates_sensitivity_known CHECK (sensitivity IN ('normal', 'sensitive'))
);
-- Capture is idempotent: one daemon candidate per (source run, kind, content).
CREATE UNIQUE INDEX candidates_daemon_capture_key
    ON learning.candidates (source_run_id, kind, content_sha256) WHERE origin = 'daemon';

CREATE TABLE learning.candidate_events (
    event_id      bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    candidate_id  uuid        NOT NULL REFERENCES learning.candidates,
    status        text        NOT NULL,
    reason        text        NOT NULL DEFAULT '',
    actor         text        NOT NULL,
    learning_id   uuid,
    recorded_at   timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT candidate_events_status_known
        CHECK (status IN ('pending', 'escalated', 'published', 'rejected'))
);
CREATE INDEX candidate_events_candidate_idx ON learning.candidate_events (candidate_id, event_id);

CREATE TABLE learning.candidate_state (
    candidate_id   uuid        PRIMARY KEY REFERENCES learning.candidates,
    status         text        NOT NULL,
    status_reason  text        NOT NULL,
    learning_id    uuid,
    event_id       bigint      NOT NULL,
    updated_at     timestamptz NOT NULL
);
CREATE INDEX candidate_state_status_idx ON learning.candidate_state (status);

CREATE FUNCTION learning.project_candidate_event() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO learning.candidate_state
        (candidate_id, status, status_reason, learning_id, event_id, updated_at)
    VALUES (NEW.candidate_id, NEW.status, NEW.reason, NEW.learning_id, NEW.event_id,
            NEW.recorded_at)
    ON CONFLICT (candidate_id) DO UPDATE SET
        status = excluded.status,
        status_reason = excluded.status_reason,
        learning_id = coalesce(excluded.learning_id, learning.candidate_state.learning_id),
        event_id = excluded.event_id,
        updated_at = excluded.updated_at;
    RETURN NULL;
END;
$$;
CREATE TRIGGER candidate_events_project AFTER INSERT ON learning.candidate_events
    FOR EACH ROW EXECUTE FUNCTION learning.project_candidate_event();

-- The automation review of a candidate; the latest row is the current one.
CREATE TABLE learning.candidate_reviews (
    review_id        bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    candidate_id     uuid        NOT NULL REFERENCES learning.candidates,
    mode             text        NOT NULL,
    matched_rule     text        NOT NULL DEFAULT '',
    baseline_action  text        NOT NULL,
    judge            jsonb,
    final_action     text        NOT NULL,
    verification     text        NOT NULL,
    reason           text        NOT NULL,
    applied          boolean     NOT NULL,
    conflict_with    uuid,
    reviewed_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT candidate_reviews_mode_known CHECK (mode IN ('shadow', 'enabled')),
    CONSTRAINT candidate_reviews_baseline_known CHECK (baseline_action IN
        ('manual_review', 'reject', 'publish_provisional', 'publish_active')),
    CONSTRAINT candidate_reviews_final_known CHECK (final_action IN
        ('manual_review', 'reject', 'publish_provisional', 'publish_active')),
    CONSTRAINT candidate_reviews_verification_known
        CHECK (verification IN ('unverified', 'verified', 'failed'))
);
CREATE INDEX candidate_reviews_candidate_idx ON learning.candidate_reviews (candidate_id, review_id);

-- A candidate with its current status and latest automation review.
CREATE VIEW learning.candidate_current AS
SELECT c.*,
       c.scope_kind || ':' || c.scope_id AS scope_key,
       s.status, s.status_reason, s.learning_id, s.updated_at,
       r.review_id, r.mode AS review_mode, r.matched_rule, r.baseline_action, r.judge,
       r.final_action, r.verification AS review_verification, r.reason AS review_reason,
       r.applied AS review_applied, r.conflict_with, r.reviewed_at
FROM learning.candidates c
JOIN learning.candidate_state s USING (candidate_id)
LEFT JOIN LATERAL (
    SELECT * FROM learning.candidate_reviews r
    WHERE r.candidate_id = c.candidate_id
    ORDER BY r.review_id DESC
    LIMIT 1
) r ON true;

-- ---------------------------------------------------------------- learnings

CREATE TABLE learning.learnings (
    seq                  bigint      GENERATED ALWAYS AS IDENTITY UNIQUE,
    learning_id          uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    candidate_id         uuid        NOT NULL UNIQUE REFERENCES learning.candidates,
    origin               text        NOT NULL,
    scope_kind           text        NOT NULL,
    scope_id             text        NOT NULL,
    kind                 text        NOT NULL,
    content              text        NOT NULL,
    content_sha256       text        NOT NULL,
    -- Normalised "subject is value" split, '' when the content has none.
    subject_key          text        NOT NULL DEFAULT '',
    value_key            text        NOT NULL DEFAULT '',
    confidence           integer     NOT NULL,
    source_run_id        text        NOT NULL DEFAULT '',
    source_session_id    text        NOT NULL DEFAULT '',
    source_subject       text        NOT NULL DEFAULT '',
    source_workspace     text        NOT NULL DEFAULT '',
    source_event_id      bigint      NOT NULL DEFAULT 0,
    evidence_refs        text[]      NOT NULL DEFAULT '{}',
    sensitivity          text        NOT NULL,
    expires_at           timestamptz,
    verification_status  text        NOT NULL,
    policy_decision      text        NOT NULL,
    policy_actor         text        NOT NULL,
    supersedes           uuid        REFERENCES learning.learnings,
    created_at           timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT learnings_scope_kind_known
        CHECK (scope_kind IN ('session', 'persona', 'project', 'workspace')),
    CONSTRAINT learnings_workspace_default CHECK (scope_kind <> 'workspace' OR scope_id = 'default'),
    CONSTRAINT learnings_kind_known
        CHECK (kind IN ('fact', 'preference', 'decision', 'run_summary', 'procedure')),
    CONSTRAINT learnings_sensitivity_known CHECK (sensitivity IN ('normal', 'sensitive')),
    CONSTRAINT learnings_verification_known
        CHECK (verification_status IN ('unverified', 'verified', 'failed')),
    CONSTRAINT learnings_decision_known
        CHECK (policy_decision IN ('automatic', 'manual', 'escalated'))
);
CREATE INDEX learnings_subject_idx ON learning.learnings (scope_kind, scope_id, kind, subject_key)
    WHERE subject_key <> '';
-- The read paths filter by scope key (the expression learning_current exposes).
CREATE INDEX learnings_scope_key_idx ON learning.learnings ((scope_kind || ':' || scope_id));

CREATE TABLE learning.learning_revisions (
    revision_seq   bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    learning_id    uuid        NOT NULL REFERENCES learning.learnings,
    revision       integer     NOT NULL,
    status         text        NOT NULL,
    publish_tier   text        NOT NULL,
    action         text        NOT NULL,
    actor          text        NOT NULL,
    reason         text        NOT NULL DEFAULT '',
    superseded_by  uuid        REFERENCES learning.learnings,
    recorded_at    timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT learning_revisions_number UNIQUE (learning_id, revision),
    CONSTRAINT learning_revisions_status_known
        CHECK (status IN ('active', 'revoked', 'superseded')),
    CONSTRAINT learning_revisions_tier_known CHECK (publish_tier IN ('provisional', 'active')),
    CONSTRAINT learning_revisions_action_known
        CHECK (action IN ('published', 'revoked', 'superseded'))
);

CREATE TABLE learning.learning_state (
    learning_id    uuid        PRIMARY KEY REFERENCES learning.learnings,
    revision       integer     NOT NULL,
    status         text        NOT NULL,
    publish_tier   text        NOT NULL,
    superseded_by  uuid,
    revision_seq   bigint      NOT NULL,
    updated_at     timestamptz NOT NULL
);
CREATE INDEX learning_state_status_idx ON learning.learning_state (status, publish_tier);

CREATE FUNCTION learning.project_learning_revision() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO learning.learning_state
        (learning_id, revision, status, publish_tier, superseded_by, revision_seq, updated_at)
    VALUES (NEW.learning_id, NEW.revision, NEW.status, NEW.publish_tier, NEW.superseded_by,
            NEW.revision_seq, NEW.recorded_at)
    ON CONFLICT (learning_id) DO UPDATE SET
        revision = excluded.revision,
        status = excluded.status,
        publish_tier = excluded.publish_tier,
        superseded_by = coalesce(excluded.superseded_by, learning.learning_state.superseded_by),
        revision_seq = excluded.revision_seq,
        updated_at = excluded.updated_at;
    RETURN NULL;
END;
$$;
CREATE TRIGGER learning_revisions_project AFTER INSERT ON learning.learning_revisions
    FOR EACH ROW EXECUTE FUNCTION learning.project_learning_revision();

-- The current state of every learning, with the one injection gate applied.
CREATE VIEW learning.learning_current AS
SELECT l.*,
       l.scope_kind || ':' || l.scope_id AS scope_key,
       s.revision, s.status, s.publish_tier, s.superseded_by, s.revision_seq,
       s.updated_at,
       learning.is_prompt_eligible(l.kind, l.sensitivity, s.status, s.publish_tier,
                                   l.verification_status, l.policy_decision, l.expires_at,
                                   now()) AS prompt_eligible
FROM learning.learnings l
JOIN learning.learning_state s USING (learning_id);

-- ---------------------------------------------------------------- skills

-- One immutable definition snapshot per (skill, version).
CREATE TABLE learning.skill_versions (
    skill_name              text        NOT NULL,
    version                 integer     NOT NULL,
    source_learning_id      uuid        NOT NULL REFERENCES learning.learnings,
    instructions            text        NOT NULL,
    execution_context       text        NOT NULL,
    verification_profile    text        NOT NULL,
    definition_fingerprint  text        NOT NULL,
    created_by              text        NOT NULL,
    created_at              timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (skill_name, version),
    CONSTRAINT skill_versions_name_format CHECK (skill_name ~ '^[a-z0-9][a-z0-9_-]{0,63}$'),
    CONSTRAINT skill_versions_fork_only CHECK (execution_context = 'fork'),
    CONSTRAINT skill_versions_verification_profile CHECK (verification_profile = 'verification')
);

CREATE TABLE learning.skill_events (
    event_id                bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    skill_name              text        NOT NULL,
    version                 integer     NOT NULL,
    action                  text        NOT NULL,
    from_state              text        NOT NULL DEFAULT '',
    to_state                text        NOT NULL,
    stage                   text        NOT NULL DEFAULT '',
    run_id                  text        NOT NULL DEFAULT '',
    session_id              text        NOT NULL DEFAULT '',
    definition_fingerprint  text        NOT NULL DEFAULT '',
    success                 boolean     NOT NULL DEFAULT false,
    actor                   text        NOT NULL,
    note                    text        NOT NULL DEFAULT '',
    recorded_at             timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (skill_name, version) REFERENCES learning.skill_versions,
    CONSTRAINT skill_events_action_known CHECK (action IN ('promoted', 'verification_passed',
        'canary_recorded', 'activated', 'revoked', 'rolled_back', 'rollout_rejected')),
    CONSTRAINT skill_events_state_known
        CHECK (to_state IN ('draft', 'verified', 'canary', 'active', 'revoked'))
);
CREATE INDEX skill_events_skill_idx ON learning.skill_events (skill_name, event_id);

CREATE TABLE learning.skill_state (
    skill_name  text        PRIMARY KEY,
    version     integer     NOT NULL,
    state       text        NOT NULL,
    event_id    bigint      NOT NULL,
    updated_at  timestamptz NOT NULL
);
CREATE INDEX skill_state_state_idx ON learning.skill_state (state);

CREATE FUNCTION learning.project_skill_event() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO learning.skill_state (skill_name, version, state, event_id, updated_at)
    VALUES (NEW.skill_name, NEW.version, NEW.to_state, NEW.event_id, NEW.recorded_at)
    ON CONFLICT (skill_name) DO UPDATE SET
        version = excluded.version,
        state = excluded.state,
        event_id = excluded.event_id,
        updated_at = excluded.updated_at;
    RETURN NULL;
END;
$$;
CREATE TRIGGER skill_events_project AFTER INSERT ON learning.skill_events
    FOR EACH ROW EXECUTE FUNCTION learning.project_skill_event();

-- A skill's current version and state, with rollout evidence counted for
-- that version and its definition fingerprint.
CREATE VIEW learning.skill_current AS
SELECT s.skill_name, s.version, s.state, s.updated_at,
       v.source_learning_id, v.instructions, v.execution_context, v.verification_profile,
       v.definition_fingerprint, v.created_at, v.created_by,
       ev.successful_runs, ev.distinct_sessions, ev.canary_successes, ev.canary_failures,
       ev.verified
FROM learning.skill_state s
JOIN learning.skill_versions v USING (skill_name, version)
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

-- ---------------------------------------------------------------- workers

-- Durable positions: 'capture' = journal change cursor, 'review' = candidates.seq.
CREATE TABLE learning.worker_cursors (
    name        text        PRIMARY KEY,
    position    bigint      NOT NULL DEFAULT 0,
    updated_at  timestamptz NOT NULL DEFAULT now()
);
INSERT INTO learning.worker_cursors (name) VALUES ('capture'), ('review');

-- Durable plane counters, reported by GetLearningStatus.metrics.
CREATE TABLE learning.counters (
    name   text   PRIMARY KEY,
    value  bigint NOT NULL DEFAULT 0
);

-- AIP-155: which resource a request_id produced, replayed on duplicates.
CREATE TABLE learning.idempotency (
    operation       text        NOT NULL,
    request_id      uuid        NOT NULL,
    request_sha256  text        NOT NULL,
    response        jsonb       NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (operation, request_id)
);

-- ---------------------------------------------------------------- append-only

CREATE TRIGGER policy_versions_append_only BEFORE UPDATE OR DELETE ON learning.policy_versions
    FOR EACH ROW EXECUTE FUNCTION learning.forbid_mutation();
CREATE TRIGGER candidates_append_only BEFORE UPDATE OR DELETE ON learning.candidates
    FOR EACH ROW EXECUTE FUNCTION learning.forbid_mutation();
CREATE TRIGGER candidate_events_append_only BEFORE UPDATE OR DELETE ON learning.candidate_events
    FOR EACH ROW EXECUTE FUNCTION learning.forbid_mutation();
CREATE TRIGGER candidate_reviews_append_only BEFORE UPDATE OR DELETE ON learning.candidate_reviews
    FOR EACH ROW EXECUTE FUNCTION learning.forbid_mutation();
CREATE TRIGGER learnings_append_only BEFORE UPDATE OR DELETE ON learning.learnings
    FOR EACH ROW EXECUTE FUNCTION learning.forbid_mutation();
CREATE TRIGGER learning_revisions_append_only BEFORE UPDATE OR DELETE ON learning.learning_revisions
    FOR EACH ROW EXECUTE FUNCTION learning.forbid_mutation();
CREATE TRIGGER skill_versions_append_only BEFORE UPDATE OR DELETE ON learning.skill_versions
    FOR EACH ROW EXECUTE FUNCTION learning.forbid_mutation();
CREATE TRIGGER skill_events_append_only BEFORE UPDATE OR DELETE ON learning.skill_events
    FOR EACH ROW EXECUTE FUNCTION learning.forbid_mutation();
CREATE TRIGGER idempotency_append_only BEFORE UPDATE OR DELETE ON learning.idempotency
    FOR EACH ROW EXECUTE FUNCTION learning.forbid_mutation();
CREATE TRIGGER candidates_no_truncate BEFORE TRUNCATE ON learning.candidates
    FOR EACH STATEMENT EXECUTE FUNCTION learning.forbid_truncate();
CREATE TRIGGER learnings_no_truncate BEFORE TRUNCATE ON learning.learnings
    FOR EACH STATEMENT EXECUTE FUNCTION learning.forbid_truncate();
CREATE TRIGGER learning_revisions_no_truncate BEFORE TRUNCATE ON learning.learning_revisions
    FOR EACH STATEMENT EXECUTE FUNCTION learning.forbid_truncate();
CREATE TRIGGER skill_events_no_truncate BEFORE TRUNCATE ON learning.skill_events
    FOR EACH STATEMENT EXECUTE FUNCTION learning.forbid_truncate();

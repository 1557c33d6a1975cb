-- Recovered run memory: one scrubbed, capped record per terminal run, the
-- durable run-memory policy and the maintenance report log.

CREATE TABLE journal.run_records (
    run_id           text        PRIMARY KEY,
    session_id       text        NOT NULL,
    subject          text        NOT NULL,
    workspace        text        NOT NULL,
    status           text        NOT NULL,
    summary          text        NOT NULL,
    request_preview  text        NOT NULL DEFAULT '',
    outcome_preview  text        NOT NULL DEFAULT '',
    failure_markers  text[]      NOT NULL DEFAULT '{}',
    artifact_ids     text[]      NOT NULL DEFAULT '{}',
    scope_keys       text[]      NOT NULL DEFAULT '{}',
    redaction_count  integer     NOT NULL DEFAULT 0,
    event_id         bigint      NOT NULL,
    request_sha256   text        NOT NULL,
    recorded_at      timestamptz NOT NULL DEFAULT now(),
    expires_at       timestamptz NOT NULL,
    search_tsv       tsvector GENERATED ALWAYS AS
        (to_tsvector('english', summary || ' ' || request_preview || ' ' || outcome_preview)) STORED,
    CONSTRAINT run_records_summary_cap CHECK (char_length(summary) <= 480),
    CONSTRAINT run_records_status_terminal
        CHECK (status IN ('completed', 'failed', 'interrupted', 'cancelled'))
);
CREATE INDEX run_records_session_idx ON journal.run_records (session_id, recorded_at DESC);
CREATE INDEX run_records_expiry_idx ON journal.run_records (expires_at);
CREATE INDEX run_records_scopes_idx ON journal.run_records USING gin (scope_keys);
CREATE INDEX run_records_tsv_idx ON journal.run_records USING gin (search_tsv);

-- One run.completed event per run: CompleteRun finds a replay through it, and
-- a run can never be recorded twice, even by racing callers.
CREATE UNIQUE INDEX events_run_completed_key ON journal.events ((payload ->> 'run_id'))
    WHERE event_type = 'run.completed';

CREATE TABLE journal.run_memory_policy (
    singleton                boolean     PRIMARY KEY DEFAULT true CHECK (singleton),
    enabled                  boolean     NOT NULL DEFAULT true,
    retention_seconds        bigint      NOT NULL DEFAULT 2592000,
    max_tracked_per_session  integer     NOT NULL DEFAULT 32,
    max_prompt_entries       integer     NOT NULL DEFAULT 3,
    redact_pii               boolean     NOT NULL DEFAULT true,
    search_visibility        text        NOT NULL DEFAULT 'session_only'
        CHECK (search_visibility IN ('session_only', 'learning_scopes')),
    updated_at               timestamptz NOT NULL DEFAULT now(),
    updated_by               text        NOT NULL DEFAULT 'default'
);
INSERT INTO journal.run_memory_policy (singleton) VALUES (true);

CREATE TABLE journal.maintenance_reports (
    report_id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    trigger           text        NOT NULL
        CHECK (trigger IN ('boot', 'policy_change', 'read_expiry')),
    ran_at            timestamptz NOT NULL DEFAULT now(),
    ok                boolean     NOT NULL,
    expired_removed   bigint      NOT NULL DEFAULT 0,
    overflow_removed  bigint      NOT NULL DEFAULT 0,
    orphans_removed   bigint      NOT NULL DEFAULT 0,
    warnings          text[]      NOT NULL DEFAULT '{}',
    error             text        NOT NULL DEFAULT ''
);

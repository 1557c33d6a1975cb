-- The canonical journal: append-only events, the deduplicated episode
-- projection, the ordered change feed, idempotency records, the quarantine and
-- purge ledgers and receipts.

CREATE EXTENSION IF NOT EXISTS vector;
CREATE SCHEMA IF NOT EXISTS journal;

-- Raise on UPDATE/DELETE of append-only tables. Only the audited purge path,
-- which sets engram.audited_purge = 'on' for its own transaction after writing
-- the purge ledger, may delete.
CREATE FUNCTION journal.forbid_mutation() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' AND current_setting('engram.audited_purge', true) = 'on' THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'journal.% is append-only: % rejected', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'P0001';
END;
$$;

CREATE FUNCTION journal.forbid_truncate() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'journal.% is append-only: TRUNCATE rejected', TG_TABLE_NAME
        USING ERRCODE = 'P0001';
END;
$$;

CREATE TABLE journal.events (
    event_id        bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_type      text        NOT NULL,
    subject         text        NOT NULL,
    workspace       text        NOT NULL,
    session_id      text        NOT NULL DEFAULT '',
    payload         jsonb       NOT NULL,
    provenance      text        NOT NULL,
    request_id      uuid,
    content_sha256  text        NOT NULL,
    occurred_at     timestamptz NOT NULL,
    recorded_at     timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT events_event_type_format
        CHECK (event_type ~ '^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$'),
    CONSTRAINT events_provenance_known
        CHECK (provenance IN ('user_input', 'generated_output_unverified', 'system', 'external'))
);
CREATE INDEX events_session_idx ON journal.events (subject, workspace, session_id, event_id);
CREATE INDEX events_type_idx ON journal.events (event_type, event_id);

CREATE TABLE journal.episodes (
    episode_id        uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    subject           text        NOT NULL,
    workspace         text        NOT NULL,
    content_sha256    text        NOT NULL,
    session_id        text        NOT NULL,
    session_ids       text[]      NOT NULL,
    user_text         text        NOT NULL,
    assistant_text    text        NOT NULL,
    occurrence_count  integer     NOT NULL DEFAULT 1,
    first_seen_at     timestamptz NOT NULL,
    last_seen_at      timestamptz NOT NULL,
    first_event_id    bigint      NOT NULL,
    last_event_id     bigint      NOT NULL,
    embedding         vector(384),
    embedding_model   text,
    embedded_at       timestamptz,
    search_tsv        tsvector GENERATED ALWAYS AS
        (to_tsvector('english', user_text || ' ' || assistant_text)) STORED,
    CONSTRAINT episodes_content_key UNIQUE (subject, workspace, content_sha256)
);
CREATE INDEX episodes_scope_idx ON journal.episodes (subject, workspace, last_seen_at);
CREATE INDEX episodes_pending_embedding_idx ON journal.episodes (first_event_id)
    WHERE embedding IS NULL;
CREATE INDEX episodes_embedding_hnsw ON journal.episodes
    USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64);
CREATE INDEX episodes_tsv_idx ON journal.episodes USING gin (search_tsv);

-- One row; its row lock serialises cursor assignment, so cursors become
-- visible in commit order and a follower never skips a lower cursor that
-- commits later.
CREATE TABLE journal.feed_clock (
    singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    last_cursor bigint  NOT NULL
);
INSERT INTO journal.feed_clock (singleton, last_cursor) VALUES (true, 0);

CREATE TABLE journal.changes (
    cursor        bigint      PRIMARY KEY,
    kind          text        NOT NULL,
    subject       text        NOT NULL,
    workspace     text        NOT NULL DEFAULT '',
    session_id    text        NOT NULL DEFAULT '',
    record_kind   text        NOT NULL DEFAULT '',
    record_id     text        NOT NULL DEFAULT '',
    event_type    text        NOT NULL DEFAULT '',
    event_id      bigint      NOT NULL DEFAULT 0,
    committed_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT changes_kind_known CHECK (kind IN (
        'episode_upserted', 'episode_embedded', 'record_quarantined', 'record_restored',
        'subject_purged', 'event_appended'))
);

-- AIP-155: the original response of every request_id, replayed on duplicates.
CREATE TABLE journal.idempotency (
    operation       text        NOT NULL,
    request_id      uuid        NOT NULL,
    request_sha256  text        NOT NULL,
    response        bytea       NOT NULL,
    subject         text        NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (operation, request_id)
);

CREATE TABLE journal.quarantine_ledger (
    entry_id     bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    record_kind  text        NOT NULL,
    record_id    text        NOT NULL,
    action       text        NOT NULL CHECK (action IN ('quarantine', 'restore')),
    reason       text        NOT NULL,
    actor        text        NOT NULL,
    subject      text        NOT NULL,
    workspace    text        NOT NULL,
    request_id   uuid,
    recorded_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT quarantine_record_kind_known
        CHECK (record_kind IN ('episode', 'event', 'run_record'))
);
CREATE INDEX quarantine_ledger_record_idx
    ON journal.quarantine_ledger (record_kind, record_id, entry_id);

-- Projection of the ledger for fast exclusion; written in the same
-- transaction as each ledger entry.
CREATE TABLE journal.quarantined (
    record_kind  text        NOT NULL,
    record_id    text        NOT NULL,
    entry_id     bigint      NOT NULL,
    since        timestamptz NOT NULL,
    PRIMARY KEY (record_kind, record_id)
);

CREATE TABLE journal.purge_ledger (
    purge_id     bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subject      text        NOT NULL,
    workspace    text        NOT NULL DEFAULT '',
    reason       text        NOT NULL CHECK (char_length(reason) > 0),
    actor        text        NOT NULL,
    request_id   uuid,
    counts       jsonb       NOT NULL DEFAULT '{}',
    recorded_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE journal.receipts (
    receipt_id    bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    receipt_type  text        NOT NULL CHECK (receipt_type IN
        ('retrieval_audit', 'context_injection', 'release_verdict')),
    context_id    text        NOT NULL,
    subject       text        NOT NULL,
    workspace     text        NOT NULL,
    session_id    text        NOT NULL DEFAULT '',
    section       text        NOT NULL DEFAULT '',
    record_ids    text[]      NOT NULL DEFAULT '{}',
    block_sha256  text        NOT NULL DEFAULT '',
    detail        jsonb       NOT NULL DEFAULT '{}',
    recorded_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX receipts_context_idx ON journal.receipts (context_id, receipt_id);

-- Durable plane counters (redactions, omissions, injections, ...).
CREATE TABLE journal.counters (
    name   text   PRIMARY KEY,
    value  bigint NOT NULL DEFAULT 0
);

CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON journal.events
    FOR EACH ROW EXECUTE FUNCTION journal.forbid_mutation();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON journal.events
    FOR EACH STATEMENT EXECUTE FUNCTION journal.forbid_truncate();
CREATE TRIGGER changes_append_only BEFORE UPDATE OR DELETE ON journal.changes
    FOR EACH ROW EXECUTE FUNCTION journal.forbid_mutation();
CREATE TRIGGER changes_no_truncate BEFORE TRUNCATE ON journal.changes
    FOR EACH STATEMENT EXECUTE FUNCTION journal.forbid_truncate();
CREATE TRIGGER quarantine_ledger_append_only BEFORE UPDATE OR DELETE ON journal.quarantine_ledger
    FOR EACH ROW EXECUTE FUNCTION journal.forbid_mutation();
CREATE TRIGGER quarantine_ledger_no_truncate BEFORE TRUNCATE ON journal.quarantine_ledger
    FOR EACH STATEMENT EXECUTE FUNCTION journal.forbid_truncate();
CREATE TRIGGER purge_ledger_append_only BEFORE UPDATE OR DELETE ON journal.purge_ledger
    FOR EACH ROW EXECUTE FUNCTION journal.forbid_mutation();
CREATE TRIGGER purge_ledger_no_truncate BEFORE TRUNCATE ON journal.purge_ledger
    FOR EACH STATEMENT EXECUTE FUNCTION journal.forbid_truncate();
CREATE TRIGGER receipts_append_only BEFORE UPDATE OR DELETE ON journal.receipts
    FOR EACH ROW EXECUTE FUNCTION journal.forbid_mutation();
CREATE TRIGGER receipts_no_truncate BEFORE TRUNCATE ON journal.receipts
    FOR EACH STATEMENT EXECUTE FUNCTION journal.forbid_truncate();
CREATE TRIGGER idempotency_append_only BEFORE UPDATE OR DELETE ON journal.idempotency
    FOR EACH ROW EXECUTE FUNCTION journal.forbid_mutation();
CREATE TRIGGER idempotency_no_truncate BEFORE TRUNCATE ON journal.idempotency
    FOR EACH STATEMENT EXECUTE FUNCTION journal.forbid_truncate();

-- The transcript plane in the context: the durable compaction policy, the
-- lookup of turn analyses (`turn.analyzed` / `turn.analysis_failed` events
-- bound to a turn event id) and the checkpoint projection, which a
-- quarantine, a restore or a purge of a covered turn invalidates.

CREATE TABLE journal.compaction_policy (
    singleton             boolean     PRIMARY KEY DEFAULT true CHECK (singleton),
    tail_turns            integer     NOT NULL DEFAULT 8 CHECK (tail_turns BETWEEN 1 AND 256),
    trigger_chars         bigint      NOT NULL DEFAULT 24000
        CHECK (trigger_chars BETWEEN 1 AND 10000000),
    checkpoint_max_chars  integer     NOT NULL DEFAULT 4000
        CHECK (checkpoint_max_chars BETWEEN 256 AND 32768),
    analyzer_address      text        NOT NULL DEFAULT '',
    analyzer_timeout_ms   integer     NOT NULL DEFAULT 5000
        CHECK (analyzer_timeout_ms BETWEEN 100 AND 60000),
    version               bigint      NOT NULL DEFAULT 1,
    updated_at            timestamptz NOT NULL DEFAULT now(),
    updated_by            text        NOT NULL DEFAULT 'default'
);
INSERT INTO journal.compaction_policy (singleton) VALUES (true);

-- An analysis names its turn in payload.turn_event_id.
CREATE INDEX events_turn_analysis_idx
    ON journal.events ((payload ->> 'turn_event_id'), event_id)
    WHERE event_type IN ('turn.analyzed', 'turn.analysis_failed');

-- One checkpoint per session: a projection, rebuilt whenever its inputs
-- (covered turn ids, their hashes and analyses, the policy version) change.
CREATE TABLE journal.session_checkpoints (
    subject              text        NOT NULL,
    workspace            text        NOT NULL,
    session_id           text        NOT NULL,
    policy_version       bigint      NOT NULL,
    input_digest         text        NOT NULL,
    through_event_id     bigint      NOT NULL,
    text                 text        NOT NULL,
    sha256               text        NOT NULL,
    source_event_ids     bigint[]    NOT NULL,
    source_hashes        text[]      NOT NULL,
    analysis_event_ids   bigint[]    NOT NULL,
    turns_elided_by_cap  integer     NOT NULL DEFAULT 0,
    built_at             timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (subject, workspace, session_id)
);
CREATE INDEX session_checkpoints_sources_idx
    ON journal.session_checkpoints USING gin (source_event_ids);
CREATE INDEX session_checkpoints_hashes_idx
    ON journal.session_checkpoints USING gin (source_hashes);

-- A quarantine or restore of a covered turn (by event, by its episode, or by
-- another turn event with its content) drops the checkpoints that quote it;
-- the next read rebuilds without (or with) it.
CREATE FUNCTION journal.invalidate_checkpoints_on_quarantine() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    changed journal.quarantined;
    hash text;
BEGIN
    IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
    IF changed.record_kind = 'event' THEN
        SELECT content_sha256 INTO hash FROM journal.events
        WHERE event_id = changed.record_id::bigint
          AND event_type = 'conversation.turn.completed';
        DELETE FROM journal.session_checkpoints
        WHERE source_event_ids @> ARRAY[changed.record_id::bigint]
           OR (hash IS NOT NULL AND source_hashes @> ARRAY[hash]);
        -- A restored turn must come back into its session's checkpoint.
        IF TG_OP = 'DELETE' THEN
            DELETE FROM journal.session_checkpoints c
            USING journal.events ev
            WHERE ev.event_id = changed.record_id::bigint
              AND c.subject = ev.subject AND c.workspace = ev.workspace
              AND c.session_id = ev.session_id;
        END IF;
    ELSIF changed.record_kind = 'episode' THEN
        DELETE FROM journal.session_checkpoints c
        USING journal.episodes ep
        WHERE ep.episode_id::text = changed.record_id
          AND c.subject = ep.subject AND c.workspace = ep.workspace
          AND (c.source_hashes @> ARRAY[ep.content_sha256] OR TG_OP = 'DELETE');
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER quarantined_invalidates_checkpoints
    AFTER INSERT OR DELETE ON journal.quarantined
    FOR EACH ROW EXECUTE FUNCTION journal.invalidate_checkpoints_on_quarantine();

-- The audited purge removes a subject's events: its checkpoints go with them.
CREATE FUNCTION journal.invalidate_checkpoints_on_purge() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM journal.session_checkpoints c
    USING (SELECT DISTINCT subject, workspace FROM purged) p
    WHERE c.subject = p.subject AND c.workspace = p.workspace;
    RETURN NULL;
END;
$$;
CREATE TRIGGER events_purge_invalidates_checkpoints
    AFTER DELETE ON journal.events
    REFERENCING OLD TABLE AS purged
    FOR EACH STATEMENT EXECUTE FUNCTION journal.invalidate_checkpoints_on_purge();

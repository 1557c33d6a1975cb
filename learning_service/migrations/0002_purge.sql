-- Erasure: when the journal purges a subject (CHANGE_KIND_SUBJECT_PURGED),
-- the learning plane removes the candidates, learnings and skills derived
-- from that subject's data, through an audited path of its own.
--
-- The pattern is the journal's: the purge first writes an entry in the
-- append-only learning.purge_ledger, then sets engram.audited_purge for its
-- own transaction; only then do the append-only triggers let DELETE through.
-- UPDATE and TRUNCATE stay rejected everywhere, and the purge ledger itself
-- can never be changed, not even by a purge.

CREATE OR REPLACE FUNCTION learning.forbid_mutation() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' AND current_setting('engram.audited_purge', true) = 'on' THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'learning.% is append-only: % rejected', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'P0001';
END;
$$;

-- The audit trail of erasure outlives every purge.
CREATE FUNCTION learning.forbid_ledger_mutation() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'learning.% is an append-only ledger: % rejected', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'P0001';
END;
$$;

-- One entry per journal SUBJECT_PURGED change: the change cursor is the key,
-- so a replayed change never purges twice.
CREATE TABLE learning.purge_ledger (
    purge_id       bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    change_cursor  bigint      NOT NULL,
    subject        text        NOT NULL,
    -- '' = every workspace of the subject, as in the journal's purge.
    workspace      text        NOT NULL DEFAULT '',
    actor          text        NOT NULL,
    counts         jsonb       NOT NULL DEFAULT '{}',
    recorded_at    timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT purge_ledger_change_key UNIQUE (change_cursor),
    CONSTRAINT purge_ledger_change_cursor_positive CHECK (change_cursor > 0),
    CONSTRAINT purge_ledger_subject_present CHECK (char_length(subject) > 0)
);

CREATE TRIGGER purge_ledger_append_only BEFORE UPDATE OR DELETE ON learning.purge_ledger
    FOR EACH ROW EXECUTE FUNCTION learning.forbid_ledger_mutation();
CREATE TRIGGER purge_ledger_no_truncate BEFORE TRUNCATE ON learning.purge_ledger
    FOR EACH STATEMENT EXECUTE FUNCTION learning.forbid_truncate();

-- Supersede links may cross subjects (an operator's record can replace one
-- captured from a purged subject, or the reverse). A surviving record keeps
-- the id of an erased one (an opaque id, no content), so these two
-- references cannot stay foreign keys. They are still checked when written.
ALTER TABLE learning.learnings DROP CONSTRAINT learnings_supersedes_fkey;
ALTER TABLE learning.learning_revisions DROP CONSTRAINT learning_revisions_superseded_by_fkey;

CREATE FUNCTION learning.check_supersede_reference() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    target uuid;
BEGIN
    -- Each branch is planned only when it runs: NEW has only its own columns.
    IF TG_TABLE_NAME = 'learnings' THEN
        target := NEW.supersedes;
    ELSE
        target := NEW.superseded_by;
    END IF;
    IF target IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM learning.learnings WHERE learning_id = target) THEN
        RAISE EXCEPTION 'learning.%: supersede reference % names no learning',
            TG_TABLE_NAME, target
            USING ERRCODE = 'foreign_key_violation',
                  CONSTRAINT = TG_TABLE_NAME || '_supersede_reference';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER learnings_supersede_reference BEFORE INSERT ON learning.learnings
    FOR EACH ROW EXECUTE FUNCTION learning.check_supersede_reference();
CREATE TRIGGER learning_revisions_supersede_reference BEFORE INSERT ON learning.learning_revisions
    FOR EACH ROW EXECUTE FUNCTION learning.check_supersede_reference();

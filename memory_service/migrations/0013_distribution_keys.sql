-- Keys a Citus cluster can keep: the per-subject journal tables are declared
-- distributed by `subject` (engram/db/distribution.py, docs/deploy.md
-- "Running on Citus or a managed PostgreSQL"), and Citus enforces a primary
-- key or unique index of a distributed table only when it contains the
-- distribution column. Each such key of those tables gains `subject` as its
-- last column, under its old name (the error mappings name them), so every
-- lookup by the old leading columns reads the same index as before:
--
--   events              PRIMARY KEY (event_id)                -> (event_id, subject)
--   events              UNIQUE ((payload ->> 'run_id'))       -> ((payload ->> 'run_id'), subject)
--   episodes            PRIMARY KEY (episode_id)              -> (episode_id, subject)
--   idempotency         PRIMARY KEY (operation, request_id)   -> (operation, request_id, subject)
--   receipts            PRIMARY KEY (receipt_id)              -> (receipt_id, subject)
--   run_records         PRIMARY KEY (run_id)                  -> (run_id, subject)
--
-- What the database alone no longer rules out: event, episode and receipt ids
-- come from an identity column or gen_random_uuid(), so they stay unique
-- without a constraint. A request id or a run id is the caller's; the key
-- now refuses a second row only for the same subject. Across subjects the
-- writers still find the first use: each looks the id up without the
-- subject (idempotency_get, journal.stored_response, run_completed_event)
-- after taking its lock (the advisory lock of the request id for turns,
-- events and receipts, of the run id for CompleteRun, the policy row for the
-- policy setters, whose rows all have subject ''), so a reuse is a replay or
-- refused as before. One race is no longer refused: two concurrent
-- CompleteRun calls for different runs of different subjects under one
-- request id (they take different run locks) both succeed.
--
-- Cost on an existing database: no table is rewritten. Each new key is one
-- CREATE UNIQUE INDEX (one read of the table and a sort), during which
-- writes to that table wait and reads do not; the swap itself takes an
-- ACCESS EXCLUSIVE lock for a catalog change only. docs/deploy.md records the
-- time measured on 200,000 turns.

-- events
CREATE UNIQUE INDEX events_pkey_by_subject ON journal.events (event_id, subject);
ALTER TABLE journal.events
    DROP CONSTRAINT events_pkey,
    ADD CONSTRAINT events_pkey PRIMARY KEY USING INDEX events_pkey_by_subject;

CREATE UNIQUE INDEX events_run_completed_by_subject ON journal.events
    ((payload ->> 'run_id'), subject)
    WHERE event_type = 'run.completed';
DROP INDEX journal.events_run_completed_key;
ALTER INDEX journal.events_run_completed_by_subject RENAME TO events_run_completed_key;

-- episodes
CREATE UNIQUE INDEX episodes_pkey_by_subject ON journal.episodes (episode_id, subject);
ALTER TABLE journal.episodes
    DROP CONSTRAINT episodes_pkey,
    ADD CONSTRAINT episodes_pkey PRIMARY KEY USING INDEX episodes_pkey_by_subject;

-- idempotency
CREATE UNIQUE INDEX idempotency_pkey_by_subject
    ON journal.idempotency (operation, request_id, subject);
ALTER TABLE journal.idempotency
    DROP CONSTRAINT idempotency_pkey,
    ADD CONSTRAINT idempotency_pkey PRIMARY KEY USING INDEX idempotency_pkey_by_subject;

-- receipts
CREATE UNIQUE INDEX receipts_pkey_by_subject ON journal.receipts (receipt_id, subject);
ALTER TABLE journal.receipts
    DROP CONSTRAINT receipts_pkey,
    ADD CONSTRAINT receipts_pkey PRIMARY KEY USING INDEX receipts_pkey_by_subject;

-- run_records
CREATE UNIQUE INDEX run_records_pkey_by_subject ON journal.run_records (run_id, subject);
ALTER TABLE journal.run_records
    DROP CONSTRAINT run_records_pkey,
    ADD CONSTRAINT run_records_pkey PRIMARY KEY USING INDEX run_records_pkey_by_subject;

-- RecordContextReceipts' database work in one statement and, on an autocommit
-- connection, one transaction and one commit (memory_service/receipt_rpcs.py):
-- check, lock, check again; then every receipt row of one assembled context in
-- one multi-row INSERT, the counters its injection receipts move, the trace
-- event with its change-feed entry and the response kept for replay. The
-- caller validates everything and computes the request fingerprint and the
-- event's content hash. A request id found already recorded returns its stored
-- fingerprint and response with replayed = true and writes nothing; the caller
-- tells a replay from a reuse.
-- The fingerprint and response stored for one request id, or NULLs.
CREATE FUNCTION journal.stored_response(
    p_operation text, p_request_id uuid, OUT request_sha256 text, OUT response jsonb
)
LANGUAGE sql VOLATILE AS $$
    SELECT i.request_sha256, convert_from(i.response, 'UTF8')::jsonb
    FROM journal.idempotency i
    WHERE i.operation = p_operation AND i.request_id = p_request_id;
$$;

CREATE FUNCTION journal.record_context_receipts(
    p_request_id uuid,
    p_request_sha256 text,
    p_context_id text,
    p_subject text,
    p_workspace text,
    p_session_id text,
    -- A JSON array of receipts, in order: {"receipt_type", "section",
    -- "record_ids": [...], "block_sha256", "detail": {...}} (one value, so one
    -- parameter to encode and decode however many rows).
    p_receipts jsonb,
    p_counter_names text[],
    p_counter_amounts bigint[],
    -- NULL: no trace event.
    p_event_type text,
    p_event_payload jsonb,
    p_event_provenance text,
    p_event_sha256 text,
    OUT replayed boolean,
    OUT request_sha256 text,
    OUT response jsonb
)
LANGUAGE plpgsql AS $$
DECLARE
    ids bigint[];
    ev_id bigint := 0;
BEGIN
    -- A plain replay returns without taking the lock.
    SELECT r.request_sha256, r.response INTO request_sha256, response
    FROM journal.stored_response('record_context_receipts', p_request_id) r;
    IF request_sha256 IS NOT NULL THEN
        replayed := true;
        RETURN;
    END IF;
    PERFORM pg_advisory_xact_lock(
        hashtextextended('record_context_receipts:' || p_request_id::text, 0));
    -- Its own statement, so a fresh snapshot: a concurrent duplicate that held
    -- the lock has committed its response by now.
    SELECT r.request_sha256, r.response INTO request_sha256, response
    FROM journal.stored_response('record_context_receipts', p_request_id) r;
    IF request_sha256 IS NOT NULL THEN
        replayed := true;
        RETURN;
    END IF;

    -- Identity values follow the SELECT's order, so the ids come back in the
    -- order of p_receipts.
    WITH inserted AS (
        INSERT INTO journal.receipts
            (receipt_type, context_id, subject, workspace, session_id, section, record_ids,
             block_sha256, detail)
        SELECT r.value ->> 'receipt_type', p_context_id, p_subject, p_workspace, p_session_id,
               r.value ->> 'section',
               ARRAY(SELECT jsonb_array_elements_text(r.value -> 'record_ids')),
               r.value ->> 'block_sha256', r.value -> 'detail'
        FROM jsonb_array_elements(p_receipts) WITH ORDINALITY AS r(value, ord)
        ORDER BY r.ord
        RETURNING receipt_id
    )
    SELECT coalesce(array_agg(receipt_id ORDER BY receipt_id), '{}') INTO ids FROM inserted;

    -- Summed per name and taken in name order: concurrent writers lock the
    -- counter rows in one order.
    INSERT INTO journal.counters AS c (name, value)
    SELECT n.name, sum(n.amount)
    FROM unnest(p_counter_names, p_counter_amounts) AS n(name, amount)
    WHERE n.amount <> 0
    GROUP BY n.name
    ORDER BY n.name
    ON CONFLICT (name) DO UPDATE SET value = c.value + excluded.value;

    IF p_event_type IS NOT NULL THEN
        INSERT INTO journal.events
            (event_type, subject, workspace, session_id, payload, provenance, request_id,
             content_sha256, occurred_at)
        VALUES (p_event_type, p_subject, p_workspace, p_session_id, p_event_payload,
                p_event_provenance, p_request_id, p_event_sha256, now())
        RETURNING event_id INTO ev_id;
        PERFORM journal.append_changes(
            ARRAY['event_appended'], ARRAY[p_subject], ARRAY[p_workspace], ARRAY[p_session_id],
            ARRAY['event'], ARRAY[ev_id::text], ARRAY[p_event_type], ARRAY[ev_id]);
    END IF;

    response := jsonb_build_object(
        'receipt_ids', to_jsonb(ids), 'event_id', ev_id, 'recorded_at', now());
    INSERT INTO journal.idempotency (operation, request_id, request_sha256, response, subject)
    VALUES ('record_context_receipts', p_request_id, p_request_sha256,
            convert_to(response::text, 'UTF8'), p_subject);
    replayed := false;
    request_sha256 := p_request_sha256;
END;
$$;

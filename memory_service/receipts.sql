-- Named queries for retrieval-audit and context-injection receipts.

-- name: insert_receipt
INSERT INTO journal.receipts
    (receipt_type, context_id, subject, workspace, session_id, section, record_ids,
     block_sha256, detail)
VALUES (%(receipt_type)s, %(context_id)s, %(subject)s, %(workspace)s, %(session_id)s,
        %(section)s, %(record_ids)s, %(block_sha256)s, %(detail)s)
RETURNING receipt_id, recorded_at;

-- name: receipts_page
SELECT receipt_id, receipt_type, context_id, section, record_ids, block_sha256, detail,
       recorded_at
FROM journal.receipts
WHERE context_id = %(context_id)s AND receipt_id > %(after)s
  AND (%(scope_subjects)s::text[] IS NULL OR subject = ANY (%(scope_subjects)s::text[]))
  AND (%(scope_workspaces)s::text[] IS NULL OR workspace = ANY (%(scope_workspaces)s::text[]))
ORDER BY receipt_id
LIMIT %(limit)s;

-- name: record_context_receipts
-- One statement, one transaction, one commit (migration 0011).
SELECT replayed, request_sha256, response
FROM journal.record_context_receipts(
    p_request_id => %(request_id)s,
    p_request_sha256 => %(request_sha256)s,
    p_context_id => %(context_id)s,
    p_subject => %(subject)s,
    p_workspace => %(workspace)s,
    p_session_id => %(session_id)s,
    p_receipts => %(receipts)s,
    p_counter_names => %(counter_names)s::text[],
    p_counter_amounts => %(counter_amounts)s::bigint[],
    p_event_type => %(event_type)s,
    p_event_payload => %(event_payload)s,
    p_event_provenance => %(event_provenance)s,
    p_event_sha256 => %(event_sha256)s);

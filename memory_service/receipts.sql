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

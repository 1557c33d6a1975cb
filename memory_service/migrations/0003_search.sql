-- FindExact: the term folding both of its queries apply (the canonical
-- journal and the independent verifier over the episode projection), and an
-- index that bounds its scan of the canonical journal to one subject's turns.

-- Keep identical to memory_service.exact_terms.fold (tests compare them):
-- NFKD, drop combining marks U+0300..U+036F, sharp s -> "ss", lowercase, NFC,
-- collapse whitespace runs to one space, trim. Marks are dropped before
-- lowercasing, so an accented capital reaches its ASCII lowercase letter under
-- any database locale.
CREATE FUNCTION journal.exact_fold(t text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
  SELECT btrim(
           regexp_replace(
             normalize(
               lower(replace(replace(
                 regexp_replace(normalize(t, NFKD), '[\u0300-\u036f]', '', 'g'),
                 'ß', 'ss'), 'ẞ', 'ss')),
               NFC),
             '[ \t\n\v\f\r\u0085\u1680\u2028\u2029]+', ' ', 'g'),
           ' ')
$$;

CREATE INDEX events_turns_idx ON journal.events (subject, workspace, event_id)
    WHERE event_type = 'conversation.turn.completed';

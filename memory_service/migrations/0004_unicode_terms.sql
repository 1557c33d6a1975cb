-- FindExact folds with the suite's one term normaliser (engram.terms.fold):
-- accents are kept, case is folded with full Unicode case folding, and
-- invisible characters are removed. Keep identical to engram.terms.fold (the
-- integration tests compare the two over every code point):
--
-- 1. remove format characters (Cf), variation selectors, the combining
--    grapheme joiner and the Mongolian variation selectors (the class below
--    is Unicode 14's, the database of the Python engram runs on);
-- 2. NFKC;
-- 3. case folding, then 'i' + U+0307 -> 'i', then NFKC again;
-- 4. runs of whitespace -> one space, trimmed.
--
-- PostgreSQL 18 has casefold(); under the built-in pg_unicode_fast collation it
-- is full Unicode case folding whatever the database locale. Older servers get
-- lower() plus the foldings lower() lacks for common text (sharp s, final
-- sigma); FindExact checks, per query, that the database folds every spelling
-- of the terms' letters as engram.terms.fold does, and reports normalisation
-- PARTIAL when it does not, so a weaker fold can never yield an authoritative
-- absence.
DO $migration$
BEGIN
  IF current_setting('server_version_num')::int >= 180000 THEN
    EXECUTE $ddl$
      CREATE OR REPLACE FUNCTION journal.exact_fold(t text) RETURNS text
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
      AS $fn$
        SELECT btrim(
                 regexp_replace(
                   normalize(
                     replace(
                       casefold(
                         normalize(
                           regexp_replace(t, '[\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufe00-\ufe0f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U00013438\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f\U000e0100-\U000e01ef]', '', 'g'),
                           NFKC) COLLATE pg_unicode_fast),
                       U&'i\0307', 'i'),
                     NFKC),
                   '[\t\n\v\f\r\x1c-\x1f \u0085\u1680\u2028\u2029]+', ' ', 'g'),
                 ' ')
      $fn$
    $ddl$;
  ELSE
    EXECUTE $ddl$
      CREATE OR REPLACE FUNCTION journal.exact_fold(t text) RETURNS text
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
      AS $fn$
        SELECT btrim(
                 regexp_replace(
                   normalize(
                     replace(replace(replace(
                       lower(
                         normalize(
                           regexp_replace(t, '[\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufe00-\ufe0f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U00013438\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f\U000e0100-\U000e01ef]', '', 'g'),
                           NFKC)),
                       U&'i\0307', 'i'), U&'\00df', 'ss'), U&'\03c2', U&'\03c3'),
                     NFKC),
                   '[\t\n\v\f\r\x1c-\x1f \u0085\u1680\u2028\u2029]+', ' ', 'g'),
                 ' ')
      $fn$
    $ddl$;
  END IF;
END
$migration$;

-- The same text with combining marks removed after canonical decomposition
-- ("zürich" -> "zurich"). FindExact never matches with it; it only asks whether
-- an empty exact search has a spelling variant with other accents, in which
-- case the absence is not authoritative (normalization PARTIAL).
CREATE OR REPLACE FUNCTION journal.strip_marks(t text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $fn$
  SELECT normalize(
           regexp_replace(normalize(t, NFD),
                          '[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]',
                          '', 'g'),
           NFC)
$fn$;

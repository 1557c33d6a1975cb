-- Ranking (engram.ranking, docs/retrieval.md "Ranking") on the PostgreSQL
-- read path.
--
-- resolved_dates: the absolute dates an episode's relative date expressions
-- ("yesterday", "last Friday", "next month") resolve to against its first
-- occurrence, engram.dates.date_text form ("7 may 2023; may 2023"; '' none).
-- Written by the commit path when the episode is created; added to the
-- lexical view, so search_tsv is regenerated to include it. Episodes created
-- before this migration keep '' (no dates) until re-imported.
ALTER TABLE journal.episodes
    ADD COLUMN resolved_dates text NOT NULL DEFAULT '';
ALTER TABLE journal.episodes DROP COLUMN search_tsv;
ALTER TABLE journal.episodes
    ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS
        (to_tsvector('english', user_text || ' ' || assistant_text || ' ' || resolved_dates))
        STORED;
CREATE INDEX episodes_tsv_idx ON journal.episodes USING gin (search_tsv);

-- Neighbours: the previous and next episode of an episode's first session
-- (session_ids[1]) in first-occurrence order (first_seen_at, then id).
CREATE INDEX episodes_thread_idx
    ON journal.episodes (subject, workspace, (session_ids[1]), first_seen_at, episode_id);

-- The scope's speaker names (removed from questions), read by a loose index scan.
CREATE INDEX episodes_speakers_idx
    ON journal.episodes (subject, workspace, user_name, assistant_name);

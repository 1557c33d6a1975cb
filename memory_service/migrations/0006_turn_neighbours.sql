-- Neighbouring turns of an episode (SearchEpisodes / BatchGetEpisodes /
-- Recall `context_turns`) are read through one rule for whether a turn's text
-- may be shown: journal.turn_withheld. A turn event is withheld when it is
-- quarantined, when its content's episode is quarantined, or when another
-- quarantined turn event of the same subject and workspace carries its
-- content (a quarantine withdraws the content, not one copy of it). This is
-- the rule ReadSessionJournal, FindExact and the episode reads apply.
CREATE FUNCTION journal.turn_withheld(ev journal.events) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT EXISTS (SELECT 1 FROM journal.quarantined q
                   WHERE q.record_kind = 'event' AND q.record_id = ev.event_id::text)
        OR EXISTS (SELECT 1 FROM journal.episodes ep
                   JOIN journal.quarantined q
                     ON q.record_kind = 'episode' AND q.record_id = ep.episode_id::text
                   WHERE ep.subject = ev.subject AND ep.workspace = ev.workspace
                     AND ep.content_sha256 = ev.content_sha256)
        OR EXISTS (SELECT 1 FROM journal.quarantined q
                   JOIN journal.events other
                     ON other.event_id = CASE WHEN q.record_kind = 'event'
                                              THEN q.record_id::bigint END
                   WHERE q.record_kind = 'event'
                     AND other.event_type = 'conversation.turn.completed'
                     AND other.subject = ev.subject AND other.workspace = ev.workspace
                     AND other.content_sha256 = ev.content_sha256)
$$;

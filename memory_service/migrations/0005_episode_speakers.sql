-- Who spoke each side of an episode (CommitTurnRequest.user_name and
-- assistant_name). Names are part of the episode's identity through its
-- canonical content hash, and never part of its indexed text.
ALTER TABLE journal.episodes
    ADD COLUMN user_name text NOT NULL DEFAULT '',
    ADD COLUMN assistant_name text NOT NULL DEFAULT '';

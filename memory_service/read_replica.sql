-- Positions the read router compares (memory_service/read_replica.py).

-- name: primary_position
-- On the primary, when a request starts: every commit acknowledged before it
-- is at or below the flushed WAL position (commits wait for their flush:
-- synchronous_commit = on, PostgreSQL's default, which no journal write turns
-- off), and the feed watermark (journal.feed_clock, migration 0008) of this
-- moment.
SELECT (pg_current_wal_flush_lsn() - '0/0'::pg_lsn)::bigint AS lsn,
       (SELECT last_cursor FROM journal.feed_clock) AS watermark,
       clock_timestamp() AS at;

-- name: standby_replay
-- On the standby, before the read's snapshot is taken (so the snapshot holds
-- at least what this says): the end of the last WAL record replayed and the
-- commit time of the last transaction replayed. Not in recovery: a promoted
-- standby or not a standby at all.
SELECT pg_is_in_recovery() AS in_recovery,
       (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::bigint AS lsn,
       pg_last_xact_replay_timestamp() AS replayed_at,
       pg_is_in_recovery() AND pg_is_wal_replay_paused() AS paused,
       clock_timestamp() AS now;

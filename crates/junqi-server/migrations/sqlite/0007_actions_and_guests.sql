-- Actions with a client-chosen id (`act` with `action_id`, docs/server-protocol.md): the id is
-- kept with the entry it produced, so that a resend after a reconnect, a restart or a cluster
-- takeover is answered with the entry it already made instead of being applied again.
ALTER TABLE junqi_entries ADD COLUMN action_id TEXT;
-- A game with no person left in it nor watching it (only computer players playing on): it plays
-- without pacing and counts among its creator's open tables until it ends.
ALTER TABLE junqi_tables ADD COLUMN unattended INTEGER NOT NULL DEFAULT 0;
-- The sweep of guests that never played looks them up by age.
CREATE INDEX junqi_players_guests ON junqi_players (guest, created_ms);

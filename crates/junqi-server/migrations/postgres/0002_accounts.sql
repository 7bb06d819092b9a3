-- Accounts and security (docs/server-protocol.md, "Accounts and security"), PostgreSQL dialect.
-- Sessions are kept by the SHA-256 of their token (hex), with their last use for the sliding
-- expiry. The old table keeps the earlier server's sessions until the server hashes them when it
-- starts (the same code as for SQLite), after which it stays empty.
ALTER TABLE junqi_sessions RENAME TO junqi_sessions_legacy;
ALTER TABLE junqi_sessions_legacy RENAME CONSTRAINT junqi_sessions_pkey TO junqi_sessions_legacy_pkey;
CREATE TABLE junqi_sessions (
    token_hash TEXT PRIMARY KEY,
    player_id TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    last_used_ms BIGINT NOT NULL
);
CREATE INDEX junqi_sessions_player ON junqi_sessions (player_id);
CREATE INDEX junqi_sessions_last_used ON junqi_sessions (last_used_ms);
-- Name keys of the name policy are version 2. The server gives registered players their new key
-- when it starts, oldest first, and until then each holds a unique placeholder. A player whose
-- new key an older player has keeps the placeholder (and logs in by its exact name).
ALTER TABLE junqi_players ADD COLUMN name_key_version BIGINT NOT NULL DEFAULT 2;
UPDATE junqi_players SET name_key = 'legacy:' || id, name_key_version = 1
    WHERE guest = 0 AND id NOT LIKE 'bot:%';

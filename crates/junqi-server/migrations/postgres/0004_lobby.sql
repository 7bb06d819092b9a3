-- The lobby from the database, not from one server's memory (several servers may share one
-- database, each running some of the tables): each public table's lobby entry as JSON, written
-- by the server running the table whenever the entry changes, and cleared when the game ends.
-- Private tables never have one. The partial index holds only the rows the lobby lists, newest
-- first, and the second index counts a creator's open tables (the per-creator limit).
ALTER TABLE junqi_tables ADD COLUMN summary TEXT;
CREATE INDEX junqi_tables_lobby ON junqi_tables (created_ms) WHERE summary IS NOT NULL AND status <> 'over';
CREATE INDEX junqi_tables_creator ON junqi_tables (creator, status);

-- junqi server schema, PostgreSQL dialect.
CREATE TABLE junqi_players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT,
    guest BIGINT NOT NULL,
    created_ms BIGINT NOT NULL
);
CREATE TABLE junqi_sessions (
    token TEXT PRIMARY KEY,
    player_id TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
CREATE TABLE junqi_tables (
    id TEXT PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    config TEXT NOT NULL,
    host_seat BIGINT NOT NULL,
    status TEXT NOT NULL,
    seats TEXT NOT NULL,
    header TEXT,
    result TEXT,
    created_ms BIGINT NOT NULL,
    started_ms BIGINT,
    finished_ms BIGINT
);
CREATE INDEX junqi_tables_status ON junqi_tables (status);
CREATE TABLE junqi_entries (
    table_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    entry TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE junqi_game_players (
    table_id TEXT NOT NULL,
    seat BIGINT NOT NULL,
    player_id TEXT NOT NULL,
    finished_ms BIGINT NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX junqi_game_players_player ON junqi_game_players (player_id, finished_ms);
CREATE TABLE junqi_ratings (
    player_id TEXT NOT NULL,
    category TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    vol DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    PRIMARY KEY (player_id, category)
);

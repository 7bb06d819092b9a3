-- junqi server schema, SQLite dialect.
CREATE TABLE junqi_players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT,
    guest INTEGER NOT NULL,
    created_ms INTEGER NOT NULL
);
CREATE TABLE junqi_sessions (
    token TEXT PRIMARY KEY,
    player_id TEXT NOT NULL,
    created_ms INTEGER NOT NULL
);
CREATE TABLE junqi_tables (
    id TEXT PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    config TEXT NOT NULL,
    host_seat INTEGER NOT NULL,
    status TEXT NOT NULL,
    seats TEXT NOT NULL,
    header TEXT,
    result TEXT,
    created_ms INTEGER NOT NULL,
    started_ms INTEGER,
    finished_ms INTEGER
);
CREATE INDEX junqi_tables_status ON junqi_tables (status);
CREATE TABLE junqi_entries (
    table_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    entry TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE junqi_game_players (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    player_id TEXT NOT NULL,
    finished_ms INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX junqi_game_players_player ON junqi_game_players (player_id, finished_ms);
CREATE TABLE junqi_ratings (
    player_id TEXT NOT NULL,
    category TEXT NOT NULL,
    rating REAL NOT NULL,
    rd REAL NOT NULL,
    vol REAL NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (player_id, category)
);

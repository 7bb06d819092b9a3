-- Cluster mode runs on PostgreSQL only, and the table exists here so that both schemas stay alike
-- (a single node on SQLite never takes a lease).
CREATE TABLE junqi_leases (
    table_id TEXT PRIMARY KEY,
    node TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);
CREATE INDEX junqi_leases_node ON junqi_leases (node);
CREATE INDEX junqi_leases_expires ON junqi_leases (expires_ms);

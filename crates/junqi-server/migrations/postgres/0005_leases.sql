-- Cluster mode (docs/deploy.md): which node runs each table. A node holds a table's lease while
-- its expiry (the database's clock, ms) is ahead. Every write of the table's entries checks the
-- lease's node and epoch in the same transaction (fencing), and a node taking an expired lease
-- raises the epoch, so a node that lost a lease can never store another entry for the table.
CREATE TABLE junqi_leases (
    table_id TEXT PRIMARY KEY,
    node TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);
CREATE INDEX junqi_leases_node ON junqi_leases (node);
CREATE INDEX junqi_leases_expires ON junqi_leases (expires_ms);

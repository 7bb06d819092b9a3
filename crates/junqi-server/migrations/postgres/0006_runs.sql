-- Cluster mode: a node renews one row for its run (its process) instead of one per table it
-- runs. A lease names the run that holds it and lives as long as that run's row is ahead of the
-- database's clock. A restarted node is a new run, so its last run's leases expire with it.
-- Renewing every lease row of a node raced the fenced writes that lock those rows (deadlocks
-- under load, and live tables taken over when a renewal failed). One row per run cannot.
CREATE TABLE junqi_runs (
    node TEXT NOT NULL,
    run BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL,
    PRIMARY KEY (node, run)
);
ALTER TABLE junqi_leases ADD COLUMN run BIGINT NOT NULL DEFAULT 0;
DROP INDEX junqi_leases_expires;
ALTER TABLE junqi_leases DROP COLUMN expires_ms;

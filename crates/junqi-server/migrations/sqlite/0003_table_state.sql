-- What a table's rules need across a restart (RULES §10): the deadlines of the deployment and
-- move clocks and a pending draw offer, as one JSON object, and who created the table (the
-- per-creator limit on open tables).
ALTER TABLE junqi_tables ADD COLUMN state TEXT;
ALTER TABLE junqi_tables ADD COLUMN creator TEXT;
CREATE INDEX junqi_tables_finished ON junqi_tables (finished_ms);

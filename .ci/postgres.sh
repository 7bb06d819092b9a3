#!/usr/bin/env bash
# Install (Debian package), start and prepare a PostgreSQL server for the persistence tests of
# junqi-server; prints the URL to export as JUNQI_TEST_POSTGRES_URL. Runs as root. Idempotent.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  apt-get update >&2
  apt-get install -y postgresql >&2
fi
if [ -z "$(pg_lsclusters -h 2>/dev/null)" ]; then
  version="$(ls /usr/lib/postgresql | sort -V | tail -1)"
  pg_createcluster "$version" main >&2
fi
read -r version cluster port status _ < <(pg_lsclusters -h | head -1)
if [ "$status" != "online" ]; then
  pg_ctlcluster "$version" "$cluster" start >&2
fi
for _ in $(seq 1 30); do
  runuser -u postgres -- pg_isready -q -p "$port" && break
  sleep 1
done
psql_root() { runuser -u postgres -- psql -p "$port" -v ON_ERROR_STOP=1 -tA "$@"; }
if [ "$(psql_root -c "SELECT 1 FROM pg_roles WHERE rolname = 'junqi'")" != "1" ]; then
  psql_root -c "CREATE ROLE junqi LOGIN PASSWORD 'junqi'" >&2
fi
# The cluster tests make a database of their own each (their nodes take over every unfinished
# table they find).
psql_root -c "ALTER ROLE junqi CREATEDB" >&2
if [ "$(psql_root -c "SELECT 1 FROM pg_database WHERE datname = 'junqi_test'")" != "1" ]; then
  psql_root -c "CREATE DATABASE junqi_test OWNER junqi" >&2
fi
echo "postgres://junqi:junqi@127.0.0.1:$port/junqi_test"

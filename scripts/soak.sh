#!/usr/bin/env bash
# A soak test of `junqi serve` as an operator would run it: a release server on a fresh data
# directory, `junqi loadtest` against it, and every INTERVAL seconds the server's resident
# memory, open files, database and write-ahead log sizes. Loopback only; it stops by itself.
#   scripts/soak.sh [CONCURRENCY] [SECONDS] [THINK_MS]      (defaults: 2000 1800 1000)
# JUNQI_BIN: a junqi binary to use instead of building one; INTERVAL: seconds between samples.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
concurrency="${1:-2000}"
seconds="${2:-1800}"
think="${3:-1000}"
interval="${INTERVAL:-30}"
port="${PORT:-18090}"
source "$root/scripts/soak-common.sh"
data="$(mktemp -d /tmp/junqi-soak.XXXXXX)"
# shellcheck disable=SC2046 # load_flags gives several words
"$bin" serve --addr "127.0.0.1:$port" --data-dir "$data" $(load_flags "$concurrency") \
  >"$data/serve.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$port/api/info" >/dev/null 2>&1 && break; sleep 0.2; done
sample() {
  local wal db
  wal=$(stat -c %s "$data/junqi.sqlite3-wal" 2>/dev/null || echo 0)
  db=$(stat -c %s "$data/junqi.sqlite3" 2>/dev/null || echo 0)
  printf '%6ss  rss %7.1f MB  fds %6s  db %8.1f MB  wal %7.1f MB\n' "$1" \
    "$(rss_mb $server)" "$(open_files $server)" "$(echo "$db / 1048576" | bc -l)" "$(echo "$wal / 1048576" | bc -l)"
}
echo "== soak: $concurrency games at once for $seconds s, clients think ${think} ms (data in $data)"
"$bin" loadtest --url "http://127.0.0.1:$port" --concurrency "$concurrency" --duration "$seconds" \
  --think-ms "$think" --ramp 60 >"$data/loadtest.log" 2>&1 &
load=$!
start=$(date +%s)
while kill -0 $load 2>/dev/null; do
  sample $(( $(date +%s) - start ))
  sleep "$interval"
done
wait $load || true
sample $(( $(date +%s) - start ))
echo "== loadtest report"
tail -25 "$data/loadtest.log"

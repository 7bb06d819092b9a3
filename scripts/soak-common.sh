# What the soak scripts (soak.sh, cluster-soak.sh) share; sourced, with $root set to the
# repository. Sets $bin (JUNQI_BIN, or a release build made now) and raises the open-file
# limit: thousands of clients and their server connections on one machine.
cd "$root"
if [ -z "${JUNQI_BIN:-}" ]; then
  cargo build --release -p junqi ${CI:+--locked}
fi
bin="${JUNQI_BIN:-$root/target/release/junqi}"
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

# The `junqi serve` flags of a load test for GAMES games at once: every client is 127.0.0.1,
# so the per-address limits (connections, table creation, open tables, the frame budget shared
# by all of an address's connections) are raised, and bots answer at once.
load_flags() {
  echo --max-connections-per-address $(($1 * 3)) --tables-per-minute 1000000 \
    --max-open-tables "$1" --rate 1000000 --bot-delay-ms 0 --guests-per-hour 100000000
}

# Resident memory of process $1 in MB, and its open files.
rss_mb() { awk '/VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/$1/status"; }
open_files() { ls "/proc/$1/fd" | wc -l; }

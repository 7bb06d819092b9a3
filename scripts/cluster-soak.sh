#!/usr/bin/env bash
# A load test of junqi in cluster mode on this machine: NODES release nodes on one fresh
# PostgreSQL database and one nats-server, `junqi loadtest --cross-node` against all of them
# (every game's two seats are clients on different nodes), and every INTERVAL seconds each
# node's memory and open files, the database's size and the CPU time spent so far. At the end:
# the load test's report and the CPU seconds per action of the nodes, PostgreSQL and NATS.
#   scripts/cluster-soak.sh [GAMES] [SECONDS] [THINK_MS]        (defaults: 5000 300 5000)
# NODES: nodes to run (default 3). NODES=1 runs one node without NATS (the single-server
# baseline on the same database), both seats on it. KILL_EVERY: seconds between SIGKILLs of a
# node (in turn, each started again after LEASE_MS), 0 for none. Needs JUNQI_TEST_POSTGRES_URL
# (a role that may create databases) and nats-server (scripts/test installs both).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
games="${1:-5000}"
seconds="${2:-300}"
think="${3:-5000}"
nodes="${NODES:-3}"
interval="${INTERVAL:-30}"
ramp="${RAMP:-60}"
kill_every="${KILL_EVERY:-0}"
lease_ms="${LEASE_MS:-4000}"
pg="${JUNQI_TEST_POSTGRES_URL:?set JUNQI_TEST_POSTGRES_URL to a role that may create databases}"
source "$root/scripts/soak-common.sh"
nats_bin="$(command -v nats-server || echo /usr/sbin/nats-server)"
work="$(mktemp -d /tmp/junqi-cluster-soak.XXXXXX)"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

db="junqi_soak_$$"
psql "$pg" -qc "CREATE DATABASE $db" >/dev/null
db_url="${pg%/*}/$db"
pids=()
cleanup() {
  for p in "${pids[@]}" ${nats:-}; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  psql "$pg" -qc "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
}
trap cleanup EXIT

cluster_args=()
if [ "$nodes" -gt 1 ]; then
  nats_port="$(free_port)"
  "$nats_bin" -a 127.0.0.1 -p "$nats_port" >"$work/nats.log" 2>&1 &
  nats=$!
  cluster_args=(--nats "nats://127.0.0.1:$nats_port" --lease-ms "$lease_ms")
  sleep 0.5
fi
addrs=()
start_node() {
  local i=$1
  "$bin" serve --addr "${addrs[$i]}" --database "$db_url" ${cluster_args[@]+"${cluster_args[@]}"} \
    ${cluster_args[@]+--node "n$i"} $(load_flags "$games") >>"$work/node$i.log" 2>&1 &
  pids[$i]=$!
}
for i in $(seq 0 $((nodes - 1))); do
  addrs[$i]="127.0.0.1:$(free_port)"
  start_node "$i"
done
for a in "${addrs[@]}"; do
  for _ in $(seq 1 100); do curl -sf "http://$a/readyz" >/dev/null 2>&1 && break; sleep 0.2; done
done

ticks=$(getconf CLK_TCK)
cpu_of() { # CPU seconds of the given pids so far
  local t=0
  for p in "$@"; do
    [ -r "/proc/$p/stat" ] || continue
    t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat")))
  done
  echo "scale=1; $t / $ticks" | bc
}
pg_pids() { pgrep -u postgres | tr '\n' ' '; }
sample() {
  local line="$(printf '%5ss' "$1")" i
  for i in "${!pids[@]}"; do
    local p=${pids[$i]}
    if [ -r "/proc/$p/status" ]; then
      line+="$(printf '  n%s rss %5.0f MB fds %5s' "$i" "$(rss_mb "$p")" "$(open_files "$p")")"
    else
      line+="  n$i down"
    fi
  done
  line+="$(printf '  db %6.1f MB' "$(psql "$pg" -tAc "SELECT pg_database_size('$db') / 1048576.0")")"
  [ -n "${nats:-}" ] && line+="$(printf '  nats rss %4.0f MB' "$(rss_mb "$nats")")"
  line+="  cpu s: nodes $(cpu_of "${pids[@]}") pg $(cpu_of $(pg_pids)) nats $(cpu_of ${nats:-})"
  echo "$line"
}

urls=()
for a in "${addrs[@]}"; do urls+=(--url "http://$a"); done
[ "$nodes" -eq 1 ] && urls+=(--url "http://${addrs[0]}")
echo "== $nodes node(s), $games games at once for $seconds s, clients think ${think} ms (logs in $work)"
"$bin" loadtest "${urls[@]}" --cross-node --concurrency "$games" --duration "$seconds" \
  --think-ms "$think" --ramp "$ramp" >"$work/loadtest.log" 2>&1 &
load=$!
start=$(date +%s)
next_kill=$((start + kill_every))
victim=0
kills=0
cpu0=""
while kill -0 $load 2>/dev/null; do
  now=$(date +%s)
  # The load test measures from the end of its ramp-up: so does the CPU count.
  if [ -z "$cpu0" ] && [ $((now - start)) -ge "$ramp" ]; then
    cpu0="$(cpu_of "${pids[@]}") $(cpu_of $(pg_pids)) $(cpu_of ${nats:-})"
  fi
  if [ "$kill_every" -gt 0 ] && [ "$now" -ge "$next_kill" ] && [ "$nodes" -gt 1 ]; then
    kill -9 "${pids[$victim]}"
    kills=$((kills + 1))
    echo "$((now - start))s: SIGKILL n$victim"
    sleep "$(echo "$lease_ms / 1000" | bc -l)"
    start_node "$victim"
    victim=$(((victim + 1) % nodes))
    next_kill=$((now + kill_every))
  fi
  if [ $(((now - start) % interval)) -eq 0 ]; then sample $((now - start)); fi
  sleep 1
done
wait $load || true
sample $(( $(date +%s) - start ))
echo "== loadtest report"
tail -20 "$work/loadtest.log"
entries=$(awk '/actions \(all seats\)/ {print $4}' "$work/loadtest.log")
read -r n0 p0 q0 <<<"${cpu0:-0 0 0}"
node_cpu=$(echo "$(cpu_of "${pids[@]}") - $n0" | bc)
pg_cpu=$(echo "$(cpu_of $(pg_pids)) - $p0" | bc)
nats_cpu=$(echo "$(cpu_of ${nats:-}) - $q0" | bc)
if [ "$kills" -gt 0 ]; then
  # A killed node's CPU time goes with it: no honest cost per action. The load generator does
  # not reconnect either: a game whose client lost its node counts as an error and a new one
  # starts (crates/junqi/tests/cluster.rs is the failover test that reconnects and checks).
  echo "== $kills kills: no CPU per action (a killed node's CPU time is lost)"
elif [ -n "$entries" ] && [ "$entries" -gt 0 ]; then
  echo "== CPU per action after the ramp-up ($entries actions):"
  echo "   nodes $(echo "scale=3; $node_cpu * 1000 / $entries" | bc) ms, postgres $(echo "scale=3; $pg_cpu * 1000 / $entries" | bc) ms, nats $(echo "scale=3; $nats_cpu * 1000 / $entries" | bc) ms"
fi

#!/usr/bin/env bash
# Instructions per ply of random self-play, counted by valgrind (callgrind's Ir): a measure of
# the rules core's cost that a loaded, shared machine does not disturb, for comparing two builds
# or two rule sets. Usage: scripts/instructions-per-ply.sh <junqi binary> <selfplay args...>
# e.g. scripts/instructions-per-ply.sh target/release/junqi --board four_player --games 300 --preset qq
set -euo pipefail
bin=$1
shift
out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" selfplay "$@" 2>&1)
plies=$(grep -oP 'plies \K[0-9]+' <<<"$out" | head -1)
ir=$(grep -oP 'Collected : \K[0-9]+' <<<"$out")
echo "plies $plies instructions $ir per ply $((ir / plies))"

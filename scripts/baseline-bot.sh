#!/usr/bin/env bash
# Build the bot of a named commit of this repository into a cache folder, once, and print the
# arena's `cmd:` bot that runs it through the engine protocol (docs/engine-protocol.md), so that
# strength is measured against a frozen binary, never against a copy of old code kept in the
# tree (STRENGTH.md).
#
#   scripts/baseline-bot.sh <commit> [bot]          # bot: a name that commit's `junqi engine --bot` knows (default master)
#   junqi arena --bot master --bot "$(scripts/baseline-bot.sh 40a3ba0 master)" --games 400 --budget nodes:20000
#
# The commit's sources are exported with `git archive` (the working tree is not touched) and built
# in release with a target folder of their own: two builds of one workspace must not share one,
# as cargo would mix their artifacts. Cache: $JUNQI_BASELINES (default ~/.cache/junqi-baselines),
# one folder per full commit id; remove it to rebuild. Build output goes to stderr, the `cmd:`
# line alone to stdout.
set -euo pipefail
commit=${1:?usage: scripts/baseline-bot.sh <commit> [bot]}
bot=${2:-master}
root=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
sha=$(git -C "$root" rev-parse --verify "$commit^{commit}")
cache=${JUNQI_BASELINES:-$HOME/.cache/junqi-baselines}/$sha
bin=$cache/bin/junqi
if [ ! -x "$bin" ]; then
  echo "== building junqi at ${sha:0:12} into $cache (once)" >&2
  rm -rf "$cache/src"
  mkdir -p "$cache/src" "$cache/bin"
  git -C "$root" archive "$sha" | tar -x -C "$cache/src"
  CARGO_TARGET_DIR="$cache/target" cargo build --release --locked -p junqi \
    --manifest-path "$cache/src/Cargo.toml" >&2
  cp "$cache/target/release/junqi" "$bin.tmp"
  mv "$bin.tmp" "$bin"
  # The sources and the build folder are not needed to run it.
  rm -rf "$cache/src" "$cache/target"
fi
# Fail here, not in the arena, if that commit has no such bot.
if ! printf 'junqi\nquit\n' | "$bin" engine --bot "$bot" >/dev/null 2>&1; then
  echo "the junqi of ${sha:0:12} cannot serve the bot $bot: $("$bin" engine --bot "$bot" </dev/null 2>&1 | tail -1)" >&2
  exit 1
fi
echo "cmd:$bin engine --bot $bot"

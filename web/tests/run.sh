#!/usr/bin/env bash
# Browser tests of the web client: real headless Chromium (the system's /usr/bin/chromium, which
# the caller installs, e.g. `apt-get install -y chromium`) driven by playwright-core, against the
# real server (`junqi serve`), plus node unit tests of the client's modules.
#   bash web/tests/run.sh            # from anywhere
# Environment: CHROMIUM (default /usr/bin/chromium), JUNQI_BIN (default target/debug/junqi, built
# here), JUNQI_SERVE_ARGS (extra arguments for `junqi serve`).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

chromium="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  echo "error: $chromium not found; install it (Debian: apt-get install -y chromium)" >&2
  exit 1
fi
"$chromium" --version || true
command -v node >/dev/null || { echo "error: node is needed" >&2; exit 1; }
node --version

echo "== npm ci (playwright-core only: no browser download)"
cd "$here"
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund

if [ -z "${JUNQI_BIN:-}" ]; then
  echo "== cargo build -p junqi"
  (cd "$root" && cargo build -p junqi ${CI:+--locked})
  export JUNQI_BIN="$root/target/debug/junqi"
fi

echo "== node --test (unit and browser tests)"
cd "$here"
# A test (or a test file, which node times as a whole) that hangs fails after ten minutes
# instead of holding CI past its time.
node --test --test-concurrency=1 --test-timeout=600000 --test-reporter=spec unit/*.test.mjs browser/*.test.mjs

#!/usr/bin/env bash
# Every test of the project. `npm test` runs this; CI runs `npm test`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# Each phase says how long the ones before it took (the budget is 5 minutes on 2 cores).
phase() { echo "== [${SECONDS}s] $*"; }

phase "cargo test: simulation core (unit, integration, golden digests) and CLI"
cargo test --workspace --exclude hotrow-wasm --release --locked 2>&1

phase "build: CLI, WebAssembly package, playground site"
cargo build --release --locked -p hotrow-cli 2>&1
bash scripts/build-site.sh

phase "wasm-bindgen-test under Node: wasm digests equal the native golden digests"
wasm-pack --log-level warn test --node --release crate/wasm 2>&1

phase "node --test: CLI contract and JavaScript API (two files at a time)"
node --test --test-concurrency=2 tests/cli/ tests/js/ 2>&1
# Browser tests mostly wait for simulated time to pass, so two groups run side by side:
# the packed-tarball tests with the playground file (both run the package build, npm pack's
# prepack, which rewrites files others read: one at a time, never beside each other's), and
# the other Chromium files with Firefox's. Each group's files run one at a time.
phase "node --test: packed tarball and playground | the other Chromium files and Firefox"
packed_log=$(mktemp)
node --test --test-concurrency=1 tests/pack/ tests/browser/playground.test.mjs >"$packed_log" 2>&1 &
packed=$!
others=0
node --test --test-concurrency=1 $(ls tests/browser/*.test.mjs | grep -v '/playground\.test\.mjs$') tests/firefox/ 2>&1 || others=$?
status=0
wait "$packed" || status=$?
echo "== the packed tarball and playground group:"
cat "$packed_log"
rm -f "$packed_log"
if [ "$status" -ne 0 ] || [ "$others" -ne 0 ]; then
  echo "== node --test failed (packed tarball and playground: exit $status; the others: exit $others)"
  exit 1
fi
phase "done"

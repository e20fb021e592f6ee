#!/usr/bin/env bash
# Every test of the project. `npm test` runs this; CI runs `npm test`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# Each phase says how long the ones before it took (the budget is 5 minutes on 2 cores).
phase() { echo "== [${SECONDS}s] $*"; }

phase "rustfmt and clippy (warnings denied), the whole workspace"
cargo fmt --all -- --check 2>&1
cargo clippy --workspace --all-targets --locked -- -D warnings 2>&1

phase "cargo test: simulation core (unit, integration, golden digests) and CLI"
cargo test --workspace --exclude hotrow-wasm --exclude hotrow-fit-wasm --exclude hotrow-sql-wasm --release --locked 2>&1

phase "build: CLI, WebAssembly package, playground site"
cargo build --release --locked -p hotrow-cli 2>&1
bash scripts/build-site.sh

phase "tsc --checkJs over js/: the worker protocol (js/element/protocol.d.ts) and the package's types where they are used"
tsc -p tsconfig.json 2>&1

phase "wasm-bindgen-test under Node: wasm digests equal the native golden digests"
wasm-pack --log-level warn test --node --release crate/wasm 2>&1

# A test that hangs fails after 5 minutes (--test-timeout) instead of stalling the run.
phase "node --test: CLI contract and JavaScript API (two files at a time)"
node --test --test-concurrency=2 --test-timeout=300000 tests/cli/ tests/js/ 2>&1
# The packed-tarball tests first, alone: they run the package build (npm pack's prepack).
# Then the browser files two at a time (about 45 s less than one at a time, here; the
# browser package test packs too, but a warm prepack rewrites only the element's types).
phase "node --test: packed tarball"
node --test --test-concurrency=1 --test-timeout=300000 tests/pack/ 2>&1
phase "node --test: real databases (a PostgreSQL and a MariaDB started and stopped here)"
node --test --test-concurrency=1 --test-timeout=300000 tests/db/ 2>&1
phase "node --test: playground in Chromium and Firefox (two files at a time)"
node --test --test-concurrency=2 --test-timeout=300000 tests/browser/ tests/firefox/ 2>&1
phase "done"

#!/usr/bin/env bash
# Every test of the project. `npm test` runs this; CI runs `npm test`.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# Each phase says how long the ones before it took (docs/testing.md has a bare clone's).
phase() { echo "== [${SECONDS}s] $*"; }

# What the first compile needs (the Rust toolchain's parts) first; the rest of the set-up
# (npm's and Debian's packages, and wasm-pack and wasm-bindgen-cli, which compile) beside
# the Rust phases, which need none of it: it is waited for before the builds. Job control
# gives it a process group of its own, which an early exit stops.
bash scripts/setup.sh --toolchain --browser
mkdir -p target
setup_log=target/setup.log
set -m
bash scripts/setup.sh --packages --browser </dev/null >"$setup_log" 2>&1 &
setup=$!
set +m
trap 'kill -- -"$setup" 2>/dev/null || true' EXIT

# The whole workspace, natively, in one selection, so that the CLI built for the Node tests
# reuses what the Rust tests compiled. Clippy lints every crate of it as it compiles: its
# driver wraps rustc for the workspace's crates, with the arguments `cargo clippy -- -D
# warnings` gives it (warnings denied), so nothing is compiled twice to be linted. Only
# here: the driver turns MIR optimisations off, which the shipped WebAssembly must keep.
native=(--workspace --profile ci --locked)
if ! clippy_driver=$(command -v clippy-driver); then
  echo "clippy-driver is not on PATH: add clippy with 'rustup component add clippy' (scripts/setup.sh does)" >&2
  exit 1
fi
lint=(env RUSTC_WORKSPACE_WRAPPER="$clippy_driver" CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__")

phase "rustfmt"
cargo fmt --all -- --check 2>&1

phase "cargo test, linted by clippy (warnings denied): simulation core (unit, integration, golden digests) and CLI"
"${lint[@]}" cargo test "${native[@]}" 2>&1

phase "build: CLI (target/ci/hotrow), WebAssembly package, playground site"
"${lint[@]}" cargo build "${native[@]}" --bins 2>&1
if ! wait "$setup"; then
  cat "$setup_log" >&2
  echo "the set-up failed (above): fix what it names, or run bash scripts/setup.sh --browser to see it alone" >&2
  exit 1
fi
trap - EXIT
grep '^setup:' "$setup_log" || true
bash scripts/build-site.sh

phase "tsc --checkJs over js/: the worker protocol (js/element/protocol.d.ts) and the package's types where they are used"
tsc -p tsconfig.json 2>&1

# A test that hangs fails after 5 minutes (--test-timeout) instead of stalling the run.
phase "node --test: CLI contract, the JavaScript API and the shipped module's golden digests (two files at a time)"
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

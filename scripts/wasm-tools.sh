#!/usr/bin/env bash
# Installs the two tools the WebAssembly build needs when they are missing: wasm-pack and
# wasm-bindgen-cli, pinned. Idempotent. scripts/setup.sh runs it beside the npm and Debian
# installs (and scripts/test.sh that set-up beside its first compile: only the WebAssembly
# build needs them).
#
# Pins: wasm-pack 0.15.1; wasm-bindgen-cli exactly the wasm-bindgen in Cargo.lock (wasm-pack
# only uses the one on PATH when the versions match). Both are compiled without
# optimisation (about half the time: what they do takes well under a second a module) and
# wasm-bindgen-cli without its TLS features (no download is made: they pull in ring).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
say() { printf 'setup: %s\n' "$*" >&2; }
export CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=256 CARGO_PROFILE_RELEASE_DEBUG=false

WASM_PACK_VERSION=0.15.1
if [ "$(wasm-pack --version 2>/dev/null)" != "wasm-pack $WASM_PACK_VERSION" ]; then
  say "installing wasm-pack $WASM_PACK_VERSION (about a minute)"
  cargo install wasm-pack --version "$WASM_PACK_VERSION" --locked --force >&2
fi

# The wasm-bindgen version that Cargo.lock pins.
BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $BINDGEN_VERSION" ]; then
  say "installing wasm-bindgen-cli $BINDGEN_VERSION (about a minute)"
  # Without --locked: its own lockfile wants crate versions the registry may not have.
  cargo install wasm-bindgen-cli --version "$BINDGEN_VERSION" --no-default-features --force >&2
fi

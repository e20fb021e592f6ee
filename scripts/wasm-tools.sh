#!/usr/bin/env bash
# Installs the two tools the WebAssembly build needs when they are missing: wasm-pack and
# wasm-bindgen-cli, pinned. Idempotent. scripts/setup.sh runs it beside the npm and Debian
# installs (and scripts/test.sh that set-up beside its first compile: only the WebAssembly
# build needs them).
#
# Both are built in one cargo run from scripts/wasm-tools/ (its Cargo.toml pins them, its
# Cargo.lock their dependencies: the crates they share compile once) and copied to
# ~/.cargo/bin, which every script puts first on PATH. wasm-bindgen-cli must be exactly the
# wasm-bindgen of the workspace's Cargo.lock: wasm-pack only uses the one on PATH when the
# versions match.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
say() { printf 'setup: %s\n' "$*" >&2; }

tools=scripts/wasm-tools
pinned() { sed -n "s/^$1 = .*\"=\([0-9.]*\)\".*/\1/p" "$tools/Cargo.toml"; }
WASM_PACK_VERSION=$(pinned wasm-pack)
BINDGEN_VERSION=$(pinned wasm-bindgen-cli)
if [ -z "$WASM_PACK_VERSION" ] || [ -z "$BINDGEN_VERSION" ]; then
  say "$tools/Cargo.toml must pin both tools exactly, as name = \"=X.Y.Z\" or name = { version = \"=X.Y.Z\", ... }"
  exit 1
fi
# The wasm-bindgen that the workspace's Cargo.lock pins.
LOCKED=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ "$BINDGEN_VERSION" != "$LOCKED" ]; then
  say "Cargo.lock has wasm-bindgen $LOCKED but $tools/Cargo.toml pins wasm-bindgen-cli $BINDGEN_VERSION: pin =$LOCKED there and run 'cargo update --manifest-path $tools/Cargo.toml -p wasm-bindgen-cli'"
  exit 1
fi

if [ "$(wasm-pack --version 2>/dev/null)" = "wasm-pack $WASM_PACK_VERSION" ] &&
  [ "$(wasm-bindgen --version 2>/dev/null)" = "wasm-bindgen $BINDGEN_VERSION" ]; then
  exit 0
fi
say "building wasm-pack $WASM_PACK_VERSION and wasm-bindgen-cli $BINDGEN_VERSION (about 90 s on 2 cores)"
target="$PWD/target/wasm-tools"
cargo build --manifest-path "$tools/Cargo.toml" --release --locked --target-dir "$target" \
  -p wasm-pack -p wasm-bindgen-cli --bin wasm-pack --bin wasm-bindgen >&2
mkdir -p "$HOME/.cargo/bin"
install -m 755 "$target/release/wasm-pack" "$target/release/wasm-bindgen" "$HOME/.cargo/bin/"

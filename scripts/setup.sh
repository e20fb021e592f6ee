#!/usr/bin/env bash
# Installs what hotrow needs and is missing; idempotent, so `npm start` and `npm test`
# call it every time. With everything present it takes a second or two.
# Versions are pinned: wasm-bindgen-cli must equal the wasm-bindgen in Cargo.lock.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'setup: %s\n' "$*" >&2; }
export PATH="$HOME/.cargo/bin:$PATH"

if ! command -v cargo >/dev/null; then
  say "cargo not found: install Rust with rustup (https://rustup.rs) and run again"
  exit 1
fi

# npm packages (front end, browser tests): install when the lockfile changed or none exist.
if [ -f package-lock.json ] && { [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; }; then
  say "installing npm packages"
  npm ci --no-audit --no-fund --loglevel=error >&2
fi
say "ready"

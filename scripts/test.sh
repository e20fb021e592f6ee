#!/usr/bin/env bash
# Every test of the project, in the order that fails fastest. `npm test` runs this.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"

echo "== cargo test (simulation core and CLI)"
cargo test --workspace --release --locked 2>&1

echo "== hotrow run --json contract"
cargo build --release --locked -p hotrow-cli 2>&1
node --test tests/cli/ 2>&1

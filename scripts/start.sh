#!/usr/bin/env bash
# `npm start`. Until the playground exists (issue: playground), it builds the CLI and
# runs the default scenario so that the command already does something useful.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"
cargo build --release --locked -p hotrow-cli
echo "The browser playground is not built yet; running the CLI's default scenario instead." >&2
./target/release/hotrow run --preset bug39267

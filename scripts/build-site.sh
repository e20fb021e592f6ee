#!/usr/bin/env bash
# Builds everything the playground needs: the npm package's wasm and vendored files, then
# the static site in www/dist (index.html, embed.html, docs.html).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
bash scripts/build-package.sh
vite build --config www/vite.config.js --logLevel warn

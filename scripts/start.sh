#!/usr/bin/env bash
# `npm start`: installs what is missing, builds the playground and serves it on
# http://127.0.0.1:5173 (set PORT to change it). Stop with Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build-site.sh
export PATH="$PWD/node_modules/.bin:$PATH"
port="${PORT:-5173}"
echo "hotrow playground: http://127.0.0.1:$port/  (embed page: /embed.html, docs example: /docs.html)" >&2
exec vite preview --config www/vite.config.js --port "$port" --strictPort

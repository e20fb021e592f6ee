#!/usr/bin/env bash
# Builds the WebAssembly package into dist/: dist/web (browsers and bundlers, ES module
# that fetches the .wasm) and dist/node (Node, loads the .wasm from disk synchronously).
# Skips the build when dist/ is newer than every source it is made from.
set -euo pipefail
cd "$(dirname "$0")/.."
# wasm-opt must come from the npm package `binaryen`: Debian's old one breaks the module.
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

stamp=dist/.built
if [ -f "$stamp" ] && [ -z "$(find crate/sim/src crate/wasm/src crate/wasm/Cargo.toml Cargo.lock -newer "$stamp" -print -quit)" ]; then
  exit 0
fi
for target in web nodejs; do
  dir=$([ "$target" = nodejs ] && echo node || echo web)
  wasm-pack --log-level warn build crate/wasm --release --target "$target" --out-dir "../../dist/$dir" \
    --out-name hotrow --mode no-install --no-pack >&2
  rm -f "dist/$dir/.gitignore"
  # dist/node is CommonJS; the package root says "type": "module".
  [ "$dir" = node ] && echo '{ "type": "commonjs" }' > dist/node/package.json
done
touch "$stamp"

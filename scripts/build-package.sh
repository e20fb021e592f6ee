#!/usr/bin/env bash
# Builds what the npm package ships besides js/: the WebAssembly module in dist/web (and the
# fit's, loaded only by the playground's Fit mode, in dist/fit), built
# once (browsers and bundlers fetch the .wasm; js/node.mjs instantiates the same bytes from
# disk with initSync), the element's types and manifest, and uPlot's and driver.js's ES modules and CSS in dist/vendor, so
# that the <hotrow-playground> element imports only relative paths and runs without a bundler.
# Skips what is newer than every source it is made from.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

vendor=dist/vendor/uplot
if [ ! -f "$vendor/uPlot.esm.js" ] || [ node_modules/uplot/package.json -nt "$vendor/uPlot.esm.js" ]; then
  mkdir -p "$vendor"
  cp node_modules/uplot/dist/uPlot.esm.js node_modules/uplot/LICENSE "$vendor/"
  node -e 'const fs = require("fs"); const css = fs.readFileSync("node_modules/uplot/dist/uPlot.min.css", "utf8");
    fs.writeFileSync(process.argv[1], "// uPlot " + require("./node_modules/uplot/package.json").version + " CSS (MIT), for Shadow DOM.\nexport const css = " + JSON.stringify(css) + ";\n");' "$vendor/uplot-css.js"
fi

vendor=dist/vendor/driver
if [ ! -f "$vendor/driver.js.mjs" ] || [ node_modules/driver.js/package.json -nt "$vendor/driver.js.mjs" ]; then
  mkdir -p "$vendor"
  cp node_modules/driver.js/dist/driver.js.mjs "$vendor/"
  cp node_modules/driver.js/license "$vendor/LICENSE"
  node -e 'const fs = require("fs"); const css = fs.readFileSync("node_modules/driver.js/dist/driver.css", "utf8");
    fs.writeFileSync(process.argv[1], "// driver.js " + require("./node_modules/driver.js/package.json").version + " CSS (MIT), adopted as a constructed sheet (no inline style under a CSP).\nexport const css = " + JSON.stringify(css) + ";\n");' "$vendor/driver-css.js"
fi

# Their types beside them, so that `tsc --checkJs` over js/ reads declarations, not their code.
cp -u node_modules/uplot/dist/uPlot.d.ts dist/vendor/uplot/uPlot.esm.d.ts
cp -u node_modules/driver.js/dist/driver.js.d.mts dist/vendor/driver/driver.js.d.mts

# The element's types and its custom-elements.json come from its own lists: always fresh.
node scripts/element-types.mjs
cem analyze --quiet >&2

# wasm-opt (the npm package `binaryen`'s: Debian's old one breaks the module) runs here, in
# the background, beside the next module's compile; every job is waited for at the end.
# The simulation's module for speed (-O3, to a fixed point, with GUFA's whole-program
# flow analysis and --low-memory-unused, with which binaryen folds small constant additions
# into load and store offsets: that differs only for a pointer that wraps past 4 GiB, which
# no Rust pointer does; 3 KB less, the same speed); the others at -O1, which here makes them
# as small as -Oz does in a third of the time (they run no hot loop but the fit's planning).
features=(--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals)
opt_jobs=()
# An early exit (a failed compile, Ctrl-C) stops the jobs and waits for them, so that none
# finishes later over a newer build.
trap 'for job in "${opt_jobs[@]}"; do kill "$job" 2>/dev/null || true; done; wait' EXIT
optimise() { # optimise FILE STAMP FLAGS...: rewrites FILE, then marks it built (STAMP)
  local file=$1 stamp=$2 tmp
  shift 2
  tmp=$(mktemp "$file.XXXXXX")
  ( wasm-opt "$@" "${features[@]}" "$file" -o "$tmp" && chmod 644 "$tmp" && mv "$tmp" "$file" && mv "$stamp.new" "$stamp" ) &
  opt_jobs+=($!)
}
# A module's stamp is dated when its compile starts ($stamp.new) and takes its place once
# the module is optimised: a source saved meanwhile is newer than it.

stamp=dist/.built
if [ ! -f "$stamp" ] || [ -n "$(find crate/sim/src crate/wasm/src crate/wasm/Cargo.toml Cargo.lock scripts/build-package.sh -newer "$stamp" -print -quit)" ]; then
  rm -f "$stamp"
  touch "$stamp.new"
  # LLVM's inliner held to a threshold of 125 (opt-level 3's is higher): 254.4 -> 244.7 KB
  # gzipped, which every page embedding the playground loads, for 4-6% of the simulation's
  # speed in WebAssembly (Node, three presets, builds alternated; 150 gave 249.8 KB for 3%,
  # 100 cost 4-10%). This module only: the others' crates compiled at opt-level z (the SQL
  # parser) would inline more under it, and the report's grows. Native builds are untouched.
  RUSTFLAGS="${RUSTFLAGS:-} -C llvm-args=-inline-threshold=125" \
    wasm-pack --log-level warn build crate/wasm --release --target web --out-dir ../../dist/web \
    --out-name hotrow --mode no-install --no-pack >&2
  rm -f dist/web/.gitignore
  rm -rf dist/node # built by earlier versions, once per target
  optimise dist/web/hotrow_bg.wasm "$stamp" -O3 --gufa --converge --low-memory-unused
fi

# A WebAssembly module of its own, apart from the simulation's, built when any of its
# sources is newer than its stamp: module CRATE OUT NAME SOURCE...
module() {
  local crate=$1 out=$2 name=$3 stamp=dist/.built-$2
  shift 3
  if [ ! -f "$stamp" ] || [ -n "$(find "$@" Cargo.lock scripts/build-package.sh -newer "$stamp" -print -quit)" ]; then
    rm -f "$stamp"
    touch "$stamp.new"
    wasm-pack --log-level warn build "crate/$crate" --release --target web --out-dir "../../dist/$out" \
      --out-name "$name" --mode no-install --no-pack >&2
    rm -f "dist/$out/.gitignore"
    optimise "dist/$out/${name}_bg.wasm" "$stamp" -O1
  fi
}
# The fit's (crate/fit-wasm): only the playground's Fit mode loads it.
module fit-wasm fit hotrow_fit crate/sim/src crate/fit/src crate/fit-wasm/src crate/fit-wasm/Cargo.toml
# The SQL import's (crate/sql-wasm): only SQL given to importSql or the SQL tab loads it.
module sql-wasm sql hotrow_sql crate/sim/src crate/sql/src crate/sql-wasm/src crate/sql-wasm/Cargo.toml
# The report's (crate/report-wasm): only report() loads it.
module report-wasm report hotrow_report crate/sim/src crate/report/src crate/report-wasm/src crate/report-wasm/Cargo.toml

for job in "${opt_jobs[@]}"; do
  wait "$job"
done
trap - EXIT

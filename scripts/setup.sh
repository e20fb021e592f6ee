#!/usr/bin/env bash
# Installs what hotrow needs and is missing; idempotent, so `npm start` and `npm test`
# call it every time. With everything present it takes a second or two; on a bare
# machine about two minutes (wasm-pack and wasm-bindgen-cli compiling in one cargo run,
# scripts/wasm-tools.sh, beside the rest).
# `--browser`: also what the browser and database tests need (Debian's packages).
# `--toolchain`: only the Rust toolchain's parts (the wasm target, rustfmt, clippy), all a
# native compile needs (with `--browser`, it also refuses at once what `--packages` could
# not install); `--packages`: only the rest (npm's and Debian's packages, the wasm
# tools). scripts/test.sh runs the first, then the second beside its first compile.
#
# Pins: npm packages from package-lock.json; the wasm tools in scripts/wasm-tools.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'setup: %s\n' "$*" >&2; }
browser= toolchain=1 packages=1
for arg in "$@"; do
  case "$arg" in
    --browser) browser=1 ;;
    --toolchain) packages= ;;
    --packages) toolchain= ;;
    *) say "unknown option $arg (known: --browser, --toolchain, --packages)"; exit 2 ;;
  esac
done
export PATH="$HOME/.cargo/bin:$PATH"

if ! command -v cargo >/dev/null || ! command -v rustup >/dev/null; then
  say "cargo and rustup are needed: install Rust with rustup (https://rustup.rs), then run again"
  exit 1
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  say "node and npm are needed (Node 20 or later), then run again"
  exit 1
fi

# Browser tests drive Debian's Chromium (its headless shell, the lighter build of Chromium
# that Playwright also runs headless pages in) through playwright-core and Debian's Firefox ESR
# through puppeteer-core (WebDriver BiDi): no browser download. The database tests start
# Debian's PostgreSQL 15 and MariaDB 10.11 with sysbench (tests/db/): their packages, never
# their own clusters. What is missing is known (and refused, when it cannot be installed)
# before either part runs: a refusal comes at once, not after a compile.
missing=()
if [ -n "$browser" ]; then
  [ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
  [ -x /usr/bin/firefox-esr ] || missing+=(firefox-esr)
  [ -x /usr/lib/postgresql/15/bin/initdb ] && command -v pgbench >/dev/null || missing+=(postgresql)
  [ -x /usr/sbin/mariadbd ] || missing+=(mariadb-server)
  command -v sysbench >/dev/null || missing+=(sysbench)
  if [ ${#missing[@]} -gt 0 ] && ! { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; }; then
    say "the browser and database tests need Debian's ${missing[*]} (/usr/bin/chromium-headless-shell, /usr/bin/firefox-esr, PostgreSQL 15 with pgbench, MariaDB 10.11, sysbench): install them (as root) and run again"
    exit 1
  fi
fi

# The Rust toolchain's parts: the WebAssembly target, and rustfmt and clippy, which npm test
# checks formatting and lints with.
if [ -n "$toolchain" ]; then
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    say "adding the Rust target wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown >&2
  fi
  for component in rustfmt clippy; do
    if ! rustup component list --installed | grep -q "^$component"; then
      say "adding the Rust component $component"
      rustup component add "$component" >&2 || {
        say "could not add $component: run 'rustup component add $component', then run again"
        exit 1
      }
    fi
  done
fi
[ -n "$packages" ] || exit 0

# wasm-pack and wasm-bindgen-cli (scripts/wasm-tools.sh), compiled beside the npm and
# Debian installs below.
bash scripts/wasm-tools.sh </dev/null & tools=$!
# An early exit below stops it (a later run would start a second install).
trap 'kill "$tools" 2>/dev/null || true' EXIT

# npm packages (wasm-opt from binaryen, TypeScript, Vite, uPlot, Playwright's driver).
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm packages"
  npm ci --no-audit --no-fund --loglevel=error >&2
fi
if [ ${#missing[@]} -gt 0 ]; then
  say "installing Debian's ${missing[*]} for the browser and database tests"
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
fi
if ! wait "$tools"; then
  say "could not install wasm-pack or wasm-bindgen-cli (above): run bash scripts/wasm-tools.sh again"
  exit 1
fi
trap - EXIT
say "ready"

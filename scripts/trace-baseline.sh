#!/usr/bin/env bash
# Same events, same order: traces every preset, and every shipped workload on the
# bug39267 cluster, for one simulated second (200 ms warm-up + 800 ms) with this build
# and with BASELINE (another `hotrow` binary that has `trace`), and stops at the first
# run whose traces differ. A refactor of the engine must pass this (issue "Engine v4").
#
#   npm run trace:baseline -- /path/to/older/hotrow
set -euo pipefail
cd "$(dirname "$0")/.."
baseline=${1:?usage: scripts/trace-baseline.sh BASELINE_HOTROW_BINARY}
export PATH="$HOME/.cargo/bin:$PATH"
cargo build --release --locked --quiet -p hotrow-cli
hotrow=target/release/hotrow
one_second=(--set warmupMs=200 --set durationMs=800)
# The names, from the lists' JSON (DBT2 is every preset's workload already).
names() { node -e 'for (const x of JSON.parse(require("fs").readFileSync(0, "utf8"))) if (x.name !== "dbt2") console.log(x.name)'; }
runs=()
for p in $("$hotrow" presets --json | names); do runs+=("--preset $p"); done
for w in $("$hotrow" workloads --json | names); do runs+=("--workload $w"); done
for run in "${runs[@]}"; do
  start=$SECONDS
  # shellcheck disable=SC2086 # a run is two words by design
  if ! out=$("$hotrow" trace $run "${one_second[@]}" --baseline "$baseline" 2>&1); then
    echo "DIFFERS  $run"
    echo "$out" | tail -20
    exit 1
  fi
  echo "same     $run  ($(echo "$out" | tail -1), $((SECONDS - start)) s)"
done
echo "every trace is the same as the baseline's"

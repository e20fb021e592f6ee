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
cargo build --release --locked -p hotrow-cli >/dev/null 2>&1
hotrow=target/release/hotrow
one_second=(--set warmupMs=200 --set durationMs=800)
runs=()
for p in $("$hotrow" presets | awk '{print $1}'); do runs+=("--preset $p"); done
for w in $("$hotrow" workloads | awk 'NF > 1 && $1 != "Run" && $1 != "a" {print $1}'); do
  [ "$w" = dbt2 ] || runs+=("--workload $w")
done
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

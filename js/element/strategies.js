// "Which id strategy for my cluster?": every strategy the field table lists, run on the
// current cluster and workload on the sweep pool, with one API node restart in each run so
// that the ids a restart loses show. The table's figures are summary metrics by their
// metric-table names; the best choices (no other strategy is better on inserts/s, ids lost
// and order at once) are marked.

import { SweepPool } from "./sweep.js";
import { drawBars } from "./charts.js";
import { fmtInt, fmtPct } from "./format.js";

/** Every strategy, from the field table: each allocator with each cache owner (timestamp
 * ids have no cache), then each key layout on range partitioning. */
export function strategies(table) {
  const values = (name) => table.find((f) => f.name === name).kind.values;
  const out = [];
  for (const allocator of values("allocator")) {
    const scopes = allocator === "timestamp" ? [null] : values("idCacheScope");
    for (const scope of scopes) {
      out.push({ allocator, ...(scope ? { idCacheScope: scope } : {}), partitioning: "hash" });
    }
  }
  for (const keyLayout of values("keyLayout")) out.push({ allocator: "counterRow", partitioning: "range", keyLayout });
  return out;
}

/** The fault every strategy run has: API node 0 restarts once, after the warm-up. */
export const restartAt = (warmupMs, runMs) => [{ kind: "apiNodeRestart", atMs: warmupMs + Math.round(runMs / 2), apiNode: 0, downMs: 100 }];

/** The columns of the table: metric-table names of summary metrics, with their labels. */
export const COLUMNS = ["insertsPerSecond", "latencyP99Us", "coordinationsPerSecond", "idsLost", "insertSkew", "inOrderFraction"];

/** Indexes of the results no other result beats on inserts/s, ids lost and order at once. */
export function best(results) {
  const better = (a, b) => a.insertsPerSecond >= b.insertsPerSecond && a.idsLost <= b.idsLost && a.inOrderFraction >= b.inOrderFraction
    && (a.insertsPerSecond > b.insertsPerSecond || a.idsLost < b.idsLost || a.inOrderFraction > b.inOrderFraction);
  return results.map((r, i) => (results.some((o) => better(o, r)) ? -1 : i)).filter((i) => i >= 0);
}

/** A strategy's name in the table. */
export function strategyName(p) {
  const who = { apiNode: "per API node", client: "per client" }[p.idCacheScope] ?? "";
  const what = { counterRow: "counter row", centralService: "central service", timestamp: "timestamp ids" }[p.allocator] ?? p.allocator;
  if (p.partitioning === "range") return `range partitioning, ${{ sequential: "sequential keys", shardBits: "shard bits", bitReversed: "bit-reversed keys" }[p.keyLayout] ?? p.keyLayout}`;
  return who ? `${what}, ${who}` : what;
}

const RUN_MS = 1000;
const WARMUP_MS = 500;

/** Runs every strategy on the element's cluster and workload, on its sweep pool. */
export function runStrategies(el) {
  const patches = strategies(el.fieldTable);
  const base = { ...structuredClone(el.overrides), faults: restartAt(WARMUP_MS, RUN_MS) };
  el.$(".strategies-progress").value = 0;
  el.$(".strategies-run").disabled = true;
  el.$(".strategies-cancel").disabled = false;
  el.$(".strategies-table tbody").replaceChildren();
  const workers = Math.min(patches.length, el.sweepWorkers ?? navigator.hardwareConcurrency ?? 2);
  el.note(`Running ${patches.length} strategies on ${workers} worker${workers > 1 ? "s" : ""}...`);
  el.pool ??= new SweepPool(() => new Worker(new URL("./worker.js", import.meta.url), { type: "module" }));
  const t0 = performance.now();
  const draw = (results) => {
    el.$(".strategies-progress").value = results.length / patches.length;
    showStrategies(el, results);
  };
  el.pool.run({ base, field: null, values: patches, runMs: RUN_MS, warmupMs: WARMUP_MS, workers }, draw).then(
    (results) => {
      const seconds = (performance.now() - t0) / 1000;
      el.lastStrategies = results && { runs: results.length, workers, seconds, results };
      el.note(results ? `${results.length} strategies on ${workers} workers in ${seconds.toFixed(1)} s.` : "Cancelled.");
      if (results) el.dispatchEvent(new CustomEvent("hotrow-strategiesdone", { detail: el.lastStrategies, bubbles: true, composed: true }));
    },
    (e) => el.showError(`The strategies could not run: ${e.message}`),
  ).finally(() => {
    el.$(".strategies-run").disabled = false;
    el.$(".strategies-cancel").disabled = true;
  });
}

/** The table and the bars of the results so far; the best choices marked. */
function showStrategies(el, results) {
  const marked = new Set(results.length ? best(results) : []);
  const fmt = { insertsPerSecond: fmtInt, latencyP99Us: fmtInt, coordinationsPerSecond: fmtInt, idsLost: fmtInt, insertSkew: (v) => v.toFixed(3), inOrderFraction: fmtPct };
  el.$(".strategies-table tbody").replaceChildren(...results.map((r, i) => {
    const tr = document.createElement("tr");
    const name = document.createElement("th");
    name.scope = "row";
    name.textContent = `${marked.has(i) ? "★ " : ""}${strategyName(r.value)}`;
    tr.append(name, ...COLUMNS.map((c) => Object.assign(document.createElement("td"), { textContent: fmt[c](r[c]) })));
    tr.classList.toggle("best", marked.has(i));
    tr.dataset.digest = r.digest;
    return tr;
  }));
  drawBars(el.$(".bars-strategies"), results.map((r) => r.insertsPerSecond), { max: 1, fmt: fmtInt, label: (i) => strategyName(results[i].value) });
}

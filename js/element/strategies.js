// "Which id strategy for my cluster?": every strategy the field table lists, run on the
// current cluster and workload on the sweep pool, with one API node restart in each run so
// that the ids a restart loses show. The table's figures are summary metrics by their
// metric-table names; the best choices (no other strategy is better on inserts/s, ids lost
// and order at once) are marked.

import { runOnPool } from "./sweep.js";
import { withRunLength, RUN_LENGTHS } from "./run-lengths.js";
import { plusMinus } from "./intervals.js";
import { drawBars } from "./charts.js";
import { fmtInt, fmtPct, withCode } from "./format.js";
import { choiceLabel } from "./controls.js";
import { best, twin } from "./pareto.js";
import { traitsOf } from "./traits.js";

/** Every strategy, from the field table and its traits: each allocator with each cache
 * owner (one without a cache runs once; one with a service runs at cache 1, one request
 * per id, where its global order shows), then each key layout on range partitioning with
 * ids from the counter row. */
function strategies(table) {
  const values = (name) => table.find((f) => f.name === name).kind.values;
  const out = [];
  for (const allocator of values("allocator")) {
    const { cache, service } = traitsOf(table, allocator);
    for (const scope of cache ? values("idCacheScope") : [null]) {
      out.push({ allocator, ...(scope ? { idCacheScope: scope } : {}), ...(service ? { cacheSize: 1 } : {}), partitioning: "hash" });
    }
  }
  const counterRow = values("allocator").find((a) => traitsOf(table, a).counterRow);
  for (const keyLayout of values("keyLayout")) out.push({ allocator: counterRow, partitioning: "range", keyLayout });
  return out;
}

/** The fault every strategy run has: API node 0 restarts once, late in the warm-up (a
 * growing cache has grown by then), down 100 ms and back 50 ms before measuring begins, so
 * that a run that stops early has counted the ids it lost (a whole-run total). */
const restartAt = (warmupMs) => [{ kind: "apiNodeRestart", atMs: Math.max(0, warmupMs - 150), apiNode: 0, downMs: 100 }];

/** The columns of the table: metric-table names of summary metrics, with their labels. */
const COLUMNS = ["insertsPerSecond", "latencyP99Us", "coordinationsPerSecond", "idsLost", "insertSkew", "inOrderFraction"];


/** A strategy's name in the table, in the words the controls use for its choices. */
function strategyName(p) {
  if (p.partitioning === "range") return `${choiceLabel("partitioning", "range")}: ${choiceLabel("keyLayout", p.keyLayout)}`;
  const owner = p.idCacheScope ? `; cached by ${choiceLabel("idCacheScope", p.idCacheScope)}` : "";
  return `${choiceLabel("allocator", p.allocator)}${owner}`;
}

/** Runs every strategy on the element's cluster and workload, on its sweep pool. */
export function runStrategies(el) {
  const patches = strategies(el.fieldTable);
  const base = withRunLength(el.overrides, "strategies");
  base.faults = restartAt(base.warmupMs);
  el.$(".strategies-table tbody").replaceChildren();
  const job = { base, field: null, values: patches };
  runOnPool(el, "strategies", job, (results) => showStrategies(el, results)).then(({ results, failed, workers, seconds }) => {
    if (failed) return;
    el.lastStrategies = results && { runs: results.length, workers, seconds, results };
    el.note(results ? `${results.length} strategies on ${workers} workers in ${seconds.toFixed(1)} s.` : "Cancelled.", "strategies");
    if (results) el.host.dispatchEvent(new CustomEvent("hotrow-strategiesdone", { detail: el.lastStrategies, bubbles: true, composed: true }));
  });
}

const fmtMs = (ms) => (ms >= 1000 ? `${+(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);
/** The shortest to the longest of `ms`, or the one length they all have. */
const span = (ms) => (Math.min(...ms) === Math.max(...ms) ? fmtMs(ms[0]) : `${fmtMs(Math.min(...ms))}–${fmtMs(Math.max(...ms))}`);

/** A range layout whose run never grew past a range split: its nature did not show. */
const unsplit = (r) => r.value.partitioning === "range" && r.insertSkew >= 0.95;

/** The table and the bars of the results so far; the best choices marked (never one the
 * run was too short to show, nor one equal to another: the cell says which). */
function showStrategies(el, results) {
  const marked = new Set(results.length ? best(results).filter((i) => !unsplit(results[i])) : []);
  const fmt = { insertsPerSecond: (v, r) => fmtInt(v) + plusMinus(r, "insertsPerSecond"), latencyP99Us: fmtInt, coordinationsPerSecond: fmtInt, idsLost: fmtInt, insertSkew: (v) => v.toFixed(3), inOrderFraction: fmtPct };
  // A column that reads the same on every row says nothing row by row: folded into the note.
  const constant = results.length > 1 ? COLUMNS.filter((c) => new Set(results.map((r) => fmt[c](r[c], r))).size === 1) : [];
  el.$$(".strategies-table thead th").forEach((th, k) => { th.hidden = constant.includes(COLUMNS[k - 1]); });
  const shown = COLUMNS.filter((c) => !constant.includes(c));
  // Range layouts too short to split, two or more: one row, their figures the one range's.
  const short = results.map((r, i) => i).filter((i) => unsplit(results[i]));
  const fold = short.length > 1 ? short : [];
  const rows = results.map((r, i) => {
    if (fold.includes(i) && i !== fold[0]) return null;
    const tr = document.createElement("tr");
    const name = document.createElement("th");
    name.scope = "row";
    tr.dataset.digest = r.digest;
    if (i === fold[0]) {
      const layouts = fold.map((j) => choiceLabel("keyLayout", results[j].value.keyLayout)).join("; ");
      name.textContent = `${fold.map((j) => j + 1).join(", ")}. ${choiceLabel("partitioning", "range")}: ${layouts}`;
      const cell = Object.assign(document.createElement("td"), { className: "folded", colSpan: shown.length + 1 });
      cell.textContent = "too short to split: each inserted into one range, so they read alike here (the note below says more)";
      tr.append(name, cell);
      return tr;
    }
    const same = twin(results, i);
    const why = unsplit(r) ? " (too short to split)" : same >= 0 ? ` (= ${same + 1} within noise)` : "";
    name.textContent = `${marked.has(i) ? "★ " : ""}${i + 1}. ${strategyName(r.value)}${why}`;
    const held = Object.assign(document.createElement("td"), { className: "held-by" });
    held.append(...withCode(r.bottleneck ? `${r.bottleneck.name} (${fmtPct(r.bottleneckUtilization)})` : "nothing committed"));
    tr.append(name, ...shown.map((c) => Object.assign(document.createElement("td"), { textContent: fmt[c](r[c], r) })), held);
    tr.classList.toggle("best", marked.has(i));
    return tr;
  });
  el.$(".strategies-table tbody").replaceChildren(...rows.filter(Boolean));
  const headers = [...el.$$(".strategies-table thead th")].map((th) => th.textContent);
  // Range layouts spread inserts only once the table grows past a range split; a run too
  // short for that reads one range whatever the layout, and the table says so.
  const run = RUN_LENGTHS.strategies;
  const open = results.filter((r) => r.precision && !r.precision.converged);
  const measured = results.map((r) => r.simulatedSeconds * 1000);
  el.$(".strategies-note").textContent = [
    "★: no other strategy is as good on inserts/s, ids lost and order at once and better on one; inserts/s whose 95% intervals (±) overlap count as equal, and a strategy equal to another on all three gets no ★.",
    ` Each run went on until its inserts/s was known within ${fmtPct(run.precision)}, ${fmtMs(run.durationMs)} at most (${span(measured)} measured after ${fmtMs(run.warmupMs)} of warm-up).`,
    open.length ? ` ${open.length} did not get there within ${fmtMs(run.durationMs)}: ${open.map((r) => strategyName(r.value)).join(", ")}.` : "",
    short.length ? ` ${short.length} range layout${short.length > 1 ? "s" : ""} inserted into one range only: the run is too short for the table to grow past a range split, so their skew does not show here (a sweep or a longer run does).` : "",
    ...constant.map((c) => ` ${headers[COLUMNS.indexOf(c) + 1]}: ${fmt[c](results[0][c], results[0])} for every strategy.`),
  ].join("");
  drawBars(el.$(".bars-strategies"), results.map((r) => r.insertsPerSecond), { max: 1, fmt: fmtInt, label: (i) => strategyName(results[i].value) });
  scatter(el.$(".scatter-lost"), results, marked, "idsLost", "ids lost (1 restart)", fmtInt);
  scatter(el.$(".scatter-order"), results, marked, "inOrderFraction", "ids in order", fmtPct);
}

const SVG = "http://www.w3.org/2000/svg";
const node = (name, attrs, text) => {
  const n = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  if (text !== undefined) n.textContent = text;
  return n;
};

/** A scatter of inserts/s (up) against metric `x` (right), a point per strategy numbered as
 * in the table, the best choices in the hot colour. SVG with classes only (the CSP allows
 * no inline style). */
function scatter(svg, results, marked, x, xLabel, fmtX) {
  const [w, h, left, bottom, top, right] = [480, 250, 56, 34, 22, 20];
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const xs = results.map((r) => r[x]);
  const ys = results.map((r) => r.insertsPerSecond);
  const xMax = Math.max(...xs, x === "inOrderFraction" ? 1 : 1e-9);
  const yMax = Math.max(...ys, 1e-9);
  const px = (v) => left + ((w - left - right) * v) / xMax;
  const py = (v) => h - bottom - ((h - bottom - top) * v) / yMax;
  const parts = [
    node("line", { class: "axis", x1: left, y1: h - bottom, x2: w - right, y2: h - bottom }),
    node("line", { class: "axis", x1: left, y1: top, x2: left, y2: h - bottom }),
    node("text", { class: "tick", x: left - 4, y: top + 4, "text-anchor": "end" }, fmtInt(yMax)),
    node("text", { class: "tick", x: left - 4, y: h - bottom, "text-anchor": "end" }, "0"),
    node("text", { class: "tick", x: w - right, y: h - bottom + 14, "text-anchor": "end" }, fmtX(xMax)),
    node("text", { class: "tick", x: left, y: h - bottom + 14 }, fmtX(0)),
    node("text", { class: "axis-label", x: (left + w - right) / 2, y: h - 4, "text-anchor": "middle" }, xLabel),
  ];
  results.forEach((r, i) => {
    const g = node("g", { class: marked.has(i) ? "point best" : "point" });
    g.append(node("title", {}, `${i + 1}. ${strategyName(r.value)}: ${fmtInt(r.insertsPerSecond)} inserts/s, ${xLabel} ${fmtX(r[x])}`));
    g.append(node("circle", { cx: px(r[x]), cy: py(r.insertsPerSecond), r: 5 }));
    g.append(node("text", { class: "point-label", x: px(r[x]) + 7, y: py(r.insertsPerSecond) - 6 }, String(i + 1)));
    parts.push(g);
  });
  svg.replaceChildren(...parts);
}

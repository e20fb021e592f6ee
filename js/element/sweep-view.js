// Sweep mode's view: one short run per value of a field on the sweep pool (sweep.js), the
// measured throughput drawn against the value and every run's figures in a table, with its
// hottest row. A sweep over workloads runs DBT2, each shipped spec and the user's own, and
// plots transactions/s (a workload without inserts has no inserts/s to compare).

import { runOnPool } from "./sweep.js";
import { withRunLength } from "./run-lengths.js";
import { plusMinus } from "./intervals.js";
import { makeChart, css } from "./charts.js";
import { valueName, FIELD_LABELS } from "./controls.js";
import { fmtInt, fmtPct, fmtUs, withCode } from "./format.js";
import { sweepValues, sweepLabel } from "./modes.js";
import { primaryMetric } from "./render.js";


/** The figure a sweep of `field` plots: the headline of the run shown (run A), whose
 * workload the sweep keeps unless it varies it. */
function sweepMetric(el, field) {
  // Offered load is in requests (transactions) per second: achieved is read in the same unit.
  return field === "workload" || field === "arrivalRatePerApiNode" ? "transactionsPerSecond" : primaryMetric(el, 0);
}

/** Starts a sweep of the field chosen in the sweep panel on the element's settings. */
export function runSweep(el) {
  const field = el.$("#sweepField").value;
  const c = el.effective[0] ?? { replicas: 2 };
  const values = sweepValues(field, c, el.fieldTable);
  const choices = typeof values[0] !== "number";
  const label = sweepLabel(field, FIELD_LABELS);
  const metric = sweepMetric(el, field);
  const metricLabel = el.metricTable?.find((m) => m.name === metric)?.label ?? metric;
  el.$(".sweep-axis").textContent = label;
  // The table's first figure is the chart's, in its unit; the second the other of
  // transactions/s and inserts/s.
  const second = metric === "insertsPerSecond" ? "transactionsPerSecond" : "insertsPerSecond";
  el.$(".sweep-metric").textContent = metricLabel;
  el.$(".sweep-second").textContent = el.metricTable?.find((m) => m.name === second)?.label ?? second;
  el.sweepChart?.destroy();
  el.sweepChart = makeChart(el.$(".sweep-chart"), {
    series: [{ label: metricLabel, color: css(el.host, "--hotrow-accent", "#2563eb"), fmt: fmtInt },
      { label: `bound (${metricLabel})`, color: css(el.host, "--hotrow-hot", "#c2410c"), dash: [4, 4], fmt: fmtInt }],
    hover: true,
    logX: field === "cacheSize" || field === "arrivalRatePerApiNode", xLabel: label, yLabel: metricLabel,
    // Workloads go by their short names under the chart (the table gives their labels).
    xNames: choices ? values.map((v) => (field === "workload" ? (v.name ?? v) : valueName(field, v))) : null,
  });
  el.$(".sweep-table tbody").replaceChildren();
  // The first column holds the swept values: headed by the field's name, not "run".
  el.$(".sweep-table thead th").textContent = label;
  // Open arrivals take no think time: a sweep of the offered load runs without it.
  // Each point runs until the figure it plots is known within the run length's precision.
  const base = { ...withRunLength(field === "arrivalRatePerApiNode" ? { ...el.overrides, thinkTimeUs: 0 } : el.overrides, "sweep"), precisionMetric: metric };
  const job = { base, field, values };
  runOnPool(el, "sweep", job, (results) => drawSweep(el, field, metric, results, choices)).then(({ results, failed, workers, seconds }) => {
    if (failed) return;
    el.lastSweep = results && { runs: results.length, workers, seconds };
    el.note(results ? `Sweep finished: ${results.length} runs on ${workers} workers in ${seconds.toFixed(1)} s.` : "Sweep cancelled.", "sweep");
    if (results) el.host.dispatchEvent(new CustomEvent("hotrow-sweepdone", { detail: el.lastSweep, bubbles: true, composed: true }));
  });
}

/** The chart and the table of the results so far. */
function drawSweep(el, field, metric, results, choices) {
  const x = results.map((r) => (choices ? r.index : r.value));
  // The bound each run's bottleneck sets, in the plotted figure's unit.
  const bound = results.map((r) => (r.transactionsPerSecond > 0 ? (r.boundTransactionsPerSecond * r[metric]) / r.transactionsPerSecond : null));
  el.sweepChart.setData([x, results.map((r) => r[metric]), bound]);
  const sorted = [...results].sort((a, b) => a.index - b.index);
  el.$(".sweep-table tbody").replaceChildren(...sorted.map((r, k) => {
    const tr = document.createElement("tr");
    const name = document.createElement("th");
    name.scope = "row";
    name.textContent = valueName(field, r.value);
    const hot = r.hotRow;
    // Where the bottleneck changes kind from the run before, the row says so.
    const before = sorted[k - 1]?.bottleneck?.kind;
    const changed = k > 0 && r.bottleneck && before !== r.bottleneck.kind;
    // The offered load is not busy: the cluster keeps up with it (achieved / offered).
    const how = r.bottleneck?.kind === "offered" ? `${fmtPct(r.bottleneckUtilization)} achieved` : `${fmtPct(r.bottleneckUtilization)} busy`;
    const held = r.bottleneck ? `${changed ? "▲ " : ""}${r.bottleneck.name} (${how})` : "nothing committed";
    const second = metric === "insertsPerSecond" ? "transactionsPerSecond" : "insertsPerSecond";
    const cells = [`${fmtInt(r[metric])}${plusMinus(r, metric)}`, fmtInt(r[second]), fmtUs(r.latencyP99Us),
      hot ? `${hot.name}: ${fmtPct(hot.lockBusyFraction)} busy${hot.binds ? "" : " (not binding)"}` : "none locked twice", held];
    tr.classList.toggle("changed", changed);
    // A table's name in the core's text is marked with backticks: set as code.
    tr.append(name, ...cells.map((text) => { const td = document.createElement("td"); td.append(...withCode(text)); return td; }));
    tr.dataset.digest = r.digest;
    return tr;
  }));
  el.host.dispatchEvent(new CustomEvent("hotrow-sweep", { detail: results, bubbles: true, composed: true }));
}

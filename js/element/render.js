// What the element draws: the charts (both runs in compare mode), the heatmap of load per
// node or inserts per partition, the bars and the figures, fed from the worker's ticks.
import { REPORTED, k } from "./bug-report.js";
import { makeChart, Heatmap, drawBars, css } from "./charts.js";
import { fmtInt, fmtPct, fmtUs } from "./format.js";
import { Series } from "./series.js";
import { CHART_LINES } from "./chart-lines.js";
import { FIELD_LABELS, valueName } from "./controls.js";
import { updateTimeline, replayFork } from "./rewind.js";
import { settle } from "./requests.js";
import { drawWhy } from "./why.js";
import { drawHottestRows } from "./hottest-rows.js";
import { meanHalfWidth } from "./intervals.js";
import { describeRun } from "./running.js";
import { traitsOf } from "./traits.js";
import { YOUR_SPEC } from "./modes.js";
import { counterLock } from "./cluster.js";

const MAX_POINTS = 600;

/** The chart columns: x (seconds) and every scalar window metric of the core's metric
 * table, by the table's names (worked out once per chart setup, read every tick). */
const scalarMetricNames = (el) => el.metricTable.filter((m) => m.window && m.shape === "scalar" && m.name !== "endMs").map((m) => m.name);
const seriesNames = (el) => ["x", ...el.seriesMetrics];
/** The table's label of a metric, for legends. */
const label = (el, name) => el.metricTable.find((m) => m.name === name).label;
/** Each chart's metrics, in its lines' order (worked out once: the list is a constant). */
const LINE_NAMES = Object.fromEntries(Object.entries(CHART_LINES).map(([chart, lines]) => [chart, lines.map((l) => l.metric)]));
const lineNames = (chart) => LINE_NAMES[chart];
/** The bug report's measurements (DBT2, 8 data nodes), drawn as reference lines. */
const REPORTED_LINES = [
  { value: REPORTED.cacheOneTpm, label: `reported: ${k(REPORTED.cacheOneTpm)} TPM (cache 1, 2008)` },
  { value: REPORTED.cacheThousandTpm, label: `reported: ${k(REPORTED.cacheThousandTpm)} TPM (cache 1000)` },
];

/** A heatmap per run: A, and B in compare mode. */
export const makeHeatmaps = (el) => el.$$("canvas.heatmap").map((c) => new Heatmap(c));

/** The figure run `i`'s throughput chart leads with: the core's headline (`facts.headline`:
 * TPM for DBT2, inserts/s for a workload that only inserts, transactions/s otherwise), as
 * the worker reported it when the run started; transactions/s before any has. */
export const primaryMetric = (el, i) => el.state.run.facts[i]?.headline ?? "transactionsPerSecond";

/**
 * The metric the throughput chart leads with: open arrivals draw offered and achieved
 * transactions/s together, and runs that lead with different figures (a workload compared
 * with one without inserts) are compared on transactions/s, which every workload has.
 */
export function primaryName(el) {
  if (el.open) return "transactionsPerSecond";
  const leads = el.effective.map((_, i) => primaryMetric(el, i));
  return leads.every((m) => m === leads[0]) ? leads[0] ?? "transactionsPerSecond" : "transactionsPerSecond";
}

export function setupCharts(el, { keepSeries = false } = {}) {
  el.chartsBehind = true; // new charts: drawn at the next frame
  const { dataNodes: nodes, partitions } = el.shape;
  for (const chart of el.charts ?? []) chart.destroy();
  const c = el.effective[0] ?? {};
  const dbt2 = c.workload === "dbt2";
  const compare = el.effective.length === 2;
  const primary = label(el, el.primaryName);
  // The bug report's two TPM lines, where the core says they compare (facts.referenceLines).
  const showRefs = Boolean(el.state.run.facts?.[0]?.referenceLines);
  el.$(".reported-note").hidden = !showRefs;
  showCards(el, el.state.run.facts[0]);
  const colors = [css(el.host, "--hotrow-accent", "#2563eb"), css(el.host, "--hotrow-accent2", "#0b7a5c")];
  const hot = css(el.host, "--hotrow-hot", "#c2410c");
  const [nameA, nameB] = runNames(el);
  // In compare mode every chart draws both runs: B dashed and in colours of its own, so that
  // the legend's swatches tell A from B (a dash does not show in a swatch).
  const hotB = css(el.host, "--hotrow-hot2", "#9333ea");
  const colorB = (c) => (c === colors[0] ? colors[1] : c === hot ? hotB : c);
  const both = (list) => (compare
    ? [...list.map((x) => ({ ...x, label: `${nameA}: ${x.label}` })), ...list.map((x) => ({ ...x, label: `${nameB}: ${x.label}`, color: colorB(x.color), dash: [6, 4] }))]
    : list);
  // The bound the bottleneck sets, in the chart's unit: a dashed ceiling over each run.
  const bound = (name, color = hot) => ({ label: `${name}bound (${primary})`, color, dash: [4, 4] });
  const throughputSeries = compare
    ? [{ label: `${nameA}: ${primary}`, color: colors[0] }, { label: `${nameB}: ${primary}`, color: colors[1] }, bound(`${nameA}: `), bound(`${nameB}: `, hotB)]
    : el.open
      // Offered as a wide pale band under the achieved line: where they part, the cluster saturates.
      ? [{ label: label(el, "offeredPerSecond"), color: css(el.host, "--hotrow-offered", "rgba(37, 99, 235, 0.35)"), width: 7 }, { label: `${primary} achieved`, color: colors[1] }, bound("")]
    : dbt2
      ? [{ label: label(el, "tpm"), color: colors[0] }, { label: label(el, "insertsPerSecond"), color: colors[1], scale: "y2" }, bound("")]
      : [{ label: primary, color: colors[1] }, bound("")];
  el.throughputChart = makeChart(el.$(".chart-throughput"), {
    series: throughputSeries, yLabel: primary, y2Label: !compare && dbt2 && !el.open ? label(el, "insertsPerSecond") : "", refs: () => (showRefs && !el.open ? REPORTED_LINES : []),
  });
  const lines = (chart) => both(CHART_LINES[chart].map(({ metric, color, fmt, scale }) =>
    ({ label: label(el, metric), color: color === "hot" ? hot : colors[color], ...(fmt ? { fmt } : {}), ...(scale ? { scale } : {}) })));
  // An axis is named for the line drawn on it (the right one, y2, for a line that says so).
  const onAxis = (chart, scale) => CHART_LINES[chart].find((l) => (l.scale ?? "y") === scale).metric;
  el.hotChart = makeChart(el.$(".chart-hot"), {
    series: lines("hot"), yLabel: `${label(el, onAxis("hot", "y"))} (0..1)`, y2Label: label(el, onAxis("hot", "y2")),
  });
  el.latencyChart = makeChart(el.$(".chart-latency"), { series: lines("latency"), yLabel: "response time (us)" });
  el.charts = [el.throughputChart, el.hotChart, el.latencyChart];
  if (keepSeries) {
    el.dirty = true; // the series kept, drawn at the next frame: paused, no tick comes
    return;
  }
  el.seriesMetrics = scalarMetricNames(el);
  el.series = el.effective.map(() => new Series(seriesNames(el), MAX_POINTS));
  // Range partitioning: the heatmap shows partitions (the tail hotspot is a bright line).
  const rows = el.byPartition ? Array.from({ length: partitions }, (_, i) => `part ${i}`) : Array.from({ length: nodes }, (_, i) => `node ${i}`);
  // The hot row's node is marked once the core names it (drawNodes, each tick).
  el.heatmaps.forEach((h) => h.reset(rows, -1));
  el.$(".heatmap-legend").hidden = el.byPartition;
  const what = el.byPartition ? "share of inserted rows per partition over time" : "load per data node over time";
  el.$(".heatmap-title").textContent = el.byPartition ? "inserted rows per partition (share of the window's rows)" : "load per data node";
  el.$$("canvas.heatmap").forEach((cv, i) => cv.setAttribute("aria-label", compare ? `${i ? nameB : nameA}: ${what}` : what));
  el.$$(".run-name").forEach((h, i) => (h.textContent = i ? nameB : nameA));
  // Panels drawn for one run say which, in compare mode.
  el.$$(".run-a-only").forEach((s) => { s.hidden = !compare; s.textContent = compare ? ` — run ${nameA}` : ""; });
  el.$(".ratio-label").textContent = `ratio B / A (${primary})`;
  describeRun(el);
  el.explained = el.effective.map(() => null);
  el.latest = null;
}

/** The headline figures' metrics: each shown as its mean over the last simulated second. */
const HEADLINE = ["tpm", "insertsPerSecond", "transactionsPerSecond", "hotRowLockUtilization", "refillsPerSecond", "abortsPerSecond"];

/**
 * Run `i`'s headline figures: each metric's mean over the windows of the last simulated
 * second (up to time `at`, in s: compare mode reads both runs at one time). One window's
 * figure wanders with the run's noise; the mean of a second is a number one can quote,
 * and the tour's claims quote these same numbers.
 */
export function headline(el, i, at = Infinity) {
  const d = el.series[i];
  const n = windowsPerSecond(el, i);
  return Object.fromEntries(HEADLINE.map((k) => [k, d ? d.mean(k, n, at) : 0]));
}

/** How many of run `i`'s windows make a simulated second. */
const windowsPerSecond = (el, i) => Math.max(1, Math.round(1000 / (el.effective[i]?.windowMs ?? 100)));

/** The bottleneck's bound per window in the unit of the chart's `key` (its ratio to
 * transactions/s in that window); null where nothing committed. */
/** A lock's figure is drawn in the alarm colour only when the lock is near saturation (90%
 * busy or more, where its queue grows without bound), not at every value. */
const SATURATED = 0.9;
function alarm(valueEl, busy) {
  const hot = busy >= SATURATED;
  const card = valueEl.parentElement;
  if (card.classList.contains("hot") !== hot) card.classList.toggle("hot", hot);
}

function boundIn(d, key, n, untilX = Infinity) {
  const [bound, tps, v] = ["boundTransactionsPerSecond", "transactionsPerSecond", key].map((k) => d.get(k, n, untilX));
  return Array.from(bound, (b, k) => (b > 0 && tps[k] > 0 ? (b * v[k]) / tps[k] : null));
}

/** Names of runs A and B in compare mode: the compared field's two values. */
export function runNames(el) {
  if (el.effective.length !== 2) return ["A", "B"];
  const f = el.forkInfo;
  const spec = f ? { compareField: f.field, compareA: f.was, compareB: f.value } : el.compareSpec();
  const field = spec.compareField;
  const label = FIELD_LABELS[field] ?? field;
  const value = (v) => valueName(field, v === YOUR_SPEC ? el.overrides.workload : v);
  return [`A (${label}: ${value(spec.compareA)})`, `B (${label}: ${value(spec.compareB)})`];
}

/** One heatmap column of window `k`: node load, or each partition's share of the rows inserted. */
function heatColumn(el, w, k) {
  if (!el.byPartition) return w.nodeLoad.subarray(k * el.nodes, (k + 1) * el.nodes);
  const p = w.partitions;
  const col = w.partitionInsertsPerSecond.subarray(k * p, (k + 1) * p);
  let total = 0;
  for (const v of col) total += v;
  return col.map((v) => (total > 0 ? v / total : 0));
}

export function ingest(el, m) {
  if (m.reset) {
    el.series = el.effective.map(() => new Series(seriesNames(el), MAX_POINTS));
    el.cluster.reset(); // the flows' tally restarts at the moment shown
    for (const h of el.heatmaps) h.reset(h.labels, h.mark);
  }
  const names = el.seriesMetrics;
  m.sims.forEach((s, i) => {
    const d = el.series[i];
    const w = s.windows;
    if (!d) return;
    if (s.explain) el.explained[i] = s.explain;
    for (let k = 0; k < w.count; k++) {
      const point = { x: w.endMs[k] / 1000 };
      for (const name of names) point[name] = w[name][k];
      d.push(point);
      el.heatmaps[i]?.push(heatColumn(el, w, k), w.endMs[k]);
    }
  });
  // The worker ticks about 60 times a second, and a window closes every windowMs of
  // simulated time (100 ms at real time): the charts and heatmaps change only then.
  if (m.reset || m.sims.some((s) => s.windows.count > 0)) el.chartsBehind = true;
  el.latest = m;
  // Only the worker's own pause (pauseAtMs) changes the button: a tick posted before the
  // worker saw a click must not undo it. The pause asked for is spent: a restart later runs
  // on (the tour's hold, a link's pauseAtMs or fork moment pause once).
  if (m.pausedItself) {
    el.update({ run: { paused: true }, view: { pauseAtMs: undefined } }, { fromWorker: true });
    replayFork(el);
  }
  updateTimeline(el, m);
  el.dirty = true;
  if (m.replyTo) {
    el.render();
    settle(el, m.replyTo, null, { nowMs: m.nowMs, ...el.figures });
  }
}

export function render(el) {
  el.dirty = false;
  const m = el.latest;
  if (!m || !el.series.length) return;
  const snap = m.sims[0].snapshot;
  const d = el.series[0];
  const dbt2 = el.effective[0]?.workload === "dbt2";
  const set = (metric, text) => {
    const node = el.metricEls[metric];
    if (node && node.textContent !== text) node.textContent = text;
  };
  // In compare mode both runs are read at one simulated time: where both have got.
  const at = el.series.length === 2 ? Math.min(d.lastX, el.series[1].lastX) : Infinity;
  const f = headline(el, 0, at);
  set("tpm", fmtInt(f.tpm));
  set("insertsPerSecond", fmtInt(f.insertsPerSecond));
  set("transactionsPerSecond", fmtInt(f.transactionsPerSecond));
  // The hot row is the row that binds (the core's facts); the id counter row's figure
  // (hotRowLockUtilization, the SYSTAB_0 row's) is shown beside it when the run takes ids
  // from one and it is another row.
  const facts = snap.facts ?? null;
  const hot = facts?.hotRow ?? null;
  const binding = hot?.binds ? hot : null;
  const hotBusy = f.hotRowLockUtilization;
  set("hotRowLockUtilization", fmtPct(hotBusy));
  alarm(el.metricEls.hotRowLockUtilization, hotBusy);
  showCards(el, facts);
  showHotRow(el, hot, set);
  titleCounterChart(el, facts);
  set("refillsPerSecond", fmtInt(f.refillsPerSecond));
  // Aborts come in bursts (a deadlock waits out its timeout): the second's mean with its
  // interval, once the card is shown.
  if (facts?.cards.includes("abortsPerSecond")) {
    const aborts = meanHalfWidth(d.get("abortsPerSecond", windowsPerSecond(el, 0), at));
    set("abortsPerSecond", fmtInt(f.abortsPerSecond) + (aborts === null ? "" : ` ± ${fmtInt(aborts)}`));
  }
  set("latencyP99Us", fmtUs(snap.latencyP99Us));
  set("simulatedSeconds", (m.nowMs / 1000).toFixed(1));
  set("simPerWall", m.engine.simPerWall.toFixed(2));
  set("eventsPerSecond", fmtInt(m.engine.eventsPerSecond));
  set("aborts", String(snap.aborts));
  set("idsLost", String(snap.idsLost));
  set("nodesDown", snap.nodesDown.length ? snap.nodesDown.map((n) => `node ${n}`).join(", ") : "none");
  // Raw numbers for scripts and tests, beside the formatted text.
  for (const [k, v] of Object.entries({ tpm: f.tpm, insertsPerSecond: f.insertsPerSecond, hotRowLockUtilization: hotBusy })) {
    el.metricEls[k].dataset.value = String(v);
  }
  const figures = { tpm: f.tpm, insertsPerSecond: f.insertsPerSecond, hotRowLockUtilization: hotBusy,
    refillsPerSecond: f.refillsPerSecond, nowMs: m.nowMs };
  if (hot) figures.bindingRowLockUtilization = hot.lockBusyFraction;
  if (el.series.length === 2) {
    Object.assign(figures, drawCompared(el, f, at, set));
  } else if (el.chartsBehind) {
    el.throughputChart.setData(el.open
      ? [d.get("x"), d.get("offeredPerSecond"), d.get("transactionsPerSecond"), boundIn(d, "transactionsPerSecond", d.length)]
      : dbt2
        ? [d.get("x"), d.get("tpm"), d.get("insertsPerSecond"), boundIn(d, "tpm", d.length)]
        : [d.get("x"), d.get(el.primaryName), boundIn(d, el.primaryName, d.length)]);
    el.hotChart.setData([d.get("x"), ...lineNames("hot").map((k) => d.get(k))]);
    el.latencyChart.setData([d.get("x"), ...lineNames("latency").map((k) => d.get(k))]);
  }
  m.sims.forEach((sim, i) => drawNodes(el, sim.snapshot, i));
  el.chartsBehind = false;
  drawHottestRows(el.$(".hottest tbody"), snap.hottestRows ?? []);
  drawWhy(el);
  const view = m.sims[0].cluster;
  if (view) {
    // A counter row is drawn when the core's facts name one; a one-server engine's node is the server.
    const c = el.effective[0];
    const traits = traitsOf(el.fieldTable, c?.allocator ?? "counterRow");
    const counterRow = traits.counterRow && !!snap.facts?.counterRow;
    const server = c && (c.engine === "postgres" || c.engine === "innodb") ? valueName("engine", c.engine) : null;
    el.cluster.update(view, snap, { speed: el.view.speed, traits: { ...traits, counterRow }, binding, server, lock: counterLock(snap) });
    el.cluster.draw();
  }
  el.figures = figures;
  el.host.dispatchEvent(new CustomEvent("hotrow-snapshot", { detail: figures, bubbles: true, composed: true }));
}

/** The cards the core's facts list (`snapshot.facts.cards`), in their order: the headline
 * figure first. Beside the full page (compact, figure) only the headline, inserts/s and
 * the hot row's card are shown. */
const ESSENTIAL = ["insertsPerSecond", "hotRow"];
function showCards(el, facts) {
  const cards = facts?.cards ?? [];
  el.$$(".figures [data-card]").forEach((card) => {
    const i = cards.indexOf(card.dataset.card);
    if (card.hidden !== (i < 0)) card.hidden = i < 0;
    const extra = i > 0 && !ESSENTIAL.includes(card.dataset.card);
    if (card.classList.contains("full-only") !== extra) card.classList.toggle("full-only", extra);
    if (i >= 0 && card.style.order !== String(i)) card.style.order = String(i);
  });
}

/** The chart of hotRowLockUtilization and refills/s draws the id counter row's figures:
 * its title says whose, and whether it is the hot row (`facts.counterRow`). */
function titleCounterChart(el, facts) {
  const c = facts?.counterRow;
  const text = !c ? "id counter row: none in this run"
    : c.isHotRow ? `hot row, the id counter row of ${c.of}: lock busy and refills / s`
    : `id counter row of ${c.of}: lock busy and refills / s`;
  const title = el.$(".hot-chart-title");
  if (title.textContent !== text) title.textContent = text;
}

/** The hot row's card (`facts.hotRow`): the row that binds the latest window, or the
 * busiest row lock while something else binds. */
function showHotRow(el, hot, set) {
  const value = el.metricEls.bindingRowLockUtilization;
  set("bindingRowLockUtilization", hot ? fmtPct(hot.lockBusyFraction) : "–");
  alarm(value, hot?.lockBusyFraction ?? 0);
  value.dataset.value = String(hot?.lockBusyFraction ?? 0);
  const row = hot ? (hot.counterOf ? `counter row of ${hot.counterOf}` : `${hot.table} ${hot.key}`) : "";
  const label = !hot ? "hot row lock busy" : hot.binds ? `hot row lock busy (${row})` : `busiest row lock (${row}; not binding)`;
  const labelEl = value.previousElementSibling;
  if (labelEl.textContent !== label) labelEl.textContent = label;
}

/** Whether runs A and B's `key` differ only by noise over the second before `at` (s): the
 * two figures' 95% intervals over that second's windows overlap (the one rule, docs/MODEL.md
 * §5). The ratio card and the tour's claims both ask here; `[a, b]`, the two figures, when
 * the caller has them already. */
export function withinNoise(el, key, at = Infinity, [a, b] = [headline(el, 0, at)[key], headline(el, 1, at)[key]]) {
  const [d, e] = el.series;
  if (!d || !e) return false;
  const [ha, hb] = [meanHalfWidth(d.get(key, windowsPerSecond(el, 0), at)), meanHalfWidth(e.get(key, windowsPerSecond(el, 1), at))];
  return ha !== null && hb !== null && Math.abs(b - a) <= ha + hb;
}

/** Compare mode: the ratio of B to A at simulated time `at` (both runs' windows up to the
 * latest both have closed; the worker keeps them in step, this holds while one catches
 * up), whether it is within noise, and the charts of both; returns the figures it adds. */
function drawCompared(el, f, at, set) {
  const [d, e] = el.series;
  const key = el.primaryName;
  const [a, b] = [f[key], headline(el, 1, at)[key]];
  const ratio = a > 0 ? b / a : 0;
  const within = a > 0 && withinNoise(el, key, at, [a, b]);
  set("compareRatio", a > 0 ? `${ratio.toFixed(2)}x` : "–");
  el.$(".ratio-noise").textContent = within ? "within noise" : "";
  el.metricEls.compareRatio.dataset.value = String(ratio);
  if (el.chartsBehind) {
    const n = Math.min(d.countUntil(at), e.countUntil(at));
    const [da, ea] = [(k) => d.get(k, n, at), (k) => e.get(k, n, at)];
    el.throughputChart.setData([da("x"), da(key), ea(key), boundIn(d, key, n, at), boundIn(e, key, n, at)]);
    for (const [chart, lines] of [[el.hotChart, lineNames("hot")], [el.latencyChart, lineNames("latency")]]) {
      chart.setData([da("x"), ...lines.map(da), ...lines.map(ea)]);
    }
  }
  return { compareRatio: ratio, ...(Number.isFinite(at) ? { compareAtMs: Math.round(at * 1000) } : {}) };
}

/** Run `i`'s heatmap and per-node (or per-partition) bars from its snapshot `sn`. */
function drawNodes(el, sn, i) {
  if (!el.heatmaps[i]) return;
  // The hot row's node (the core's facts), as the cluster drawing outlines it.
  const marked = sn.facts?.hotRow?.node ?? -1;
  const heatmap = el.heatmaps[i];
  const remark = !el.byPartition && heatmap.mark !== marked;
  if (remark) heatmap.mark = marked;
  if (remark || el.chartsBehind) heatmap.draw();
  const load = el.$$(".bars-load")[i];
  if (el.byPartition) {
    drawBars(load, sn.partitionInsertsPerSecond, { max: 1, fmt: fmtInt, label: (p) => `part ${p}` });
  } else {
    drawBars(load, sn.nodeLoad, { max: 1, fmt: fmtPct, hotNode: marked });
  }
  drawBars(el.$$(".bars-tc")[i], sn.nodeTcPerSecond, { max: 1, fmt: fmtInt, hotNode: marked });
}

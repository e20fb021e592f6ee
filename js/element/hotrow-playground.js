// <hotrow-playground>: the hotrow playground as a custom element with Shadow DOM.
//
//   <script type="module" src="node_modules/hotrow/js/element/hotrow-playground.js"></script>
//   <hotrow-playground preset="bug39267" cache-size="1" data-nodes="8" compact></hotrow-playground>
//
// Attributes are the config fields in kebab-case (preset, seed, cache-size, data-nodes,
// hinted-refill, network-latency-us, ...) plus display options: `compact` (figures, one
// chart, a few controls), `mode` (live | compare | sweep), `speed` (simulated ms per wall
// second), `paused`, `pause-at-ms`, `theme` (light | dark). Theme with CSS variables
// (--hotrow-bg, --hotrow-fg, --hotrow-accent, --hotrow-hot, --hotrow-font, ...).
// Live figures carry data-metric="insertsPerSecond" | "tpm" | "hotRowLockUtilization" | ...
// and every update dispatches a `hotrow-snapshot` event with them.
import { makeChart, Heatmap, drawBars, css } from "./charts.js";
import { template } from "./template.js";
import { STYLE } from "./style.js";
import { css as uplotCss } from "../../dist/vendor/uplot/uplot-css.js";
import {
  FIELDS, COMPARE_FIELDS, DEFAULT_SPEED, parseEntries, kebab, setField, toQuery,
} from "./state.js";
import { fmtInt, fmtPct, fmtUs } from "./format.js";
import { Series } from "./series.js";
import { wireControls, syncControls, bindFieldTable } from "./controls.js";
import { compareSpec, configsFor, sweepValues, SWEEP_FIELDS } from "./modes.js";

let SHEETS = null;
/** uPlot's CSS and ours, parsed once and shared by every element on the page. */
function sheets() {
  SHEETS ??= [uplotCss, STYLE].map((text) => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(text);
    return sheet;
  });
  return SHEETS;
}

const MAX_POINTS = 600;
const SERIES = ["x", "tpm", "ins", "util", "refills", "p50", "p99"];
/** The bug report's measurements (DBT2, 8 data nodes), drawn as reference lines. */
const REPORTED = [
  { value: 106000, label: "reported: 106k TPM (cache 1, 2008)" },
  { value: 158000, label: "reported: 158k TPM (cache 1000)" },
];
const FIELD_LABELS = {
  cacheSize: "cache size", hintedRefill: "refill hint", primaryKey: "primary key", dataNodes: "data nodes",
  "network.latencyUs": "network latency (us)", clientsPerApiNode: "clients per API node",
};

export class HotrowPlayground extends HTMLElement {
  static observedAttributes = [...Object.keys(FIELDS).map(kebab), "mode", "speed", "paused", "pause-at-ms"];

  constructor() {
    super();
    this.attachShadow({ mode: "open" });
    this.overrides = {}; // the user's config input ({ preset, ...fields })
    this.view = { mode: "live", speed: DEFAULT_SPEED };
    this.errors = [];
    this.paused = false;
    this.effective = []; // effective configs of the running simulations
    this.series = [];
    this.dirty = false;
    this.frame = 0;
    this.sweepToken = 0;
    this.liveFields = []; // from the package: which fields Simulation.set takes while running
    this.seekSeq = 0;
    this.seekWaiters = new Map(); // seek or fork id -> resolve
    this.forkInfo = null; // { field, value, was, atMs } while showing a fork
  }

  connectedCallback() {
    if (this.worker) return;
    // Constructed style sheets, not <style> elements: a host page's CSP needs no
    // 'unsafe-inline' for styles.
    this.shadowRoot.adoptedStyleSheets = sheets();
    this.shadowRoot.innerHTML = template();
    this.$ = (sel) => this.shadowRoot.querySelector(sel);
    this.$$ = (sel) => [...this.shadowRoot.querySelectorAll(sel)];
    this.heatmap = new Heatmap(this.$("canvas.heatmap"));
    // The render loop writes these every frame: look them up once.
    this.metricEls = Object.fromEntries(this.$$("[data-metric]").map((el) => [el.dataset.metric, el]));
    this.fillSelects();
    wireControls(this, FIELD_LABELS);
    if (!this.loaded) this.load(parseEntries(this.getAttributeNames().map((n) => [n, this.getAttribute(n)]), { kebabNames: true }));
    this.worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
    this.worker.onmessage = (e) => this.onWorker(e.data);
    this.worker.onerror = (e) => this.showError(`The simulation worker failed to load: ${e.message ?? "unknown error"}`);
    const loop = () => {
      this.frame = requestAnimationFrame(loop);
      if (this.dirty) this.render();
    };
    this.frame = requestAnimationFrame(loop);
  }

  disconnectedCallback() {
    cancelAnimationFrame(this.frame);
    this.worker?.terminate();
    this.worker = null;
  }

  attributeChangedCallback() {
    if (!this.worker) return;
    clearTimeout(this.attrTimer);
    this.attrTimer = setTimeout(() => {
      this.load(parseEntries(this.getAttributeNames().map((n) => [n, this.getAttribute(n)]), { kebabNames: true }));
      this.start();
    }, 0);
  }

  /** Sets the whole state ({ config, view, errors }, as state.js parses it) and restarts. */
  load(state) {
    this.loaded = true;
    this.overrides = structuredClone(state.config ?? {});
    this.view = { mode: "live", speed: DEFAULT_SPEED, ...state.view };
    this.paused = this.hasAttribute("paused");
    this.errors = state.errors?.length ? [`Some settings were ignored: ${state.errors.join("; ")}.`] : [];
    if (this.worker && this.ready) this.start();
  }

  /** The current state, for a shareable link (see state.js toQuery). */
  get state() {
    const view = { mode: this.view.mode, speed: this.view.speed };
    if (this.view.mode === "compare") Object.assign(view, this.compareSpec());
    return { config: this.overrides, view };
  }

  get query() {
    return toQuery(this.state.config, this.state.view);
  }

  // ---- worker protocol ---------------------------------------------------------------

  onWorker(m) {
    switch (m.type) {
      case "ready":
        this.ready = true;
        this.liveFields = m.liveFields;
        this.fillForkFields();
        this.fillPresets(m.presets, m.version);
        bindFieldTable(this, m.fields);
        this.start();
        break;
      case "started":
        this.effective = m.configs;
        this.forkInfo = m.forked;
        this.showFork();
        this.hotNode = m.hotRowNode;
        this.setupCharts(m.dataNodes);
        syncControls(this);
        break;
      case "tick":
        this.ingest(m);
        break;
      case "set":
        this.note(`${FIELD_LABELS[m.field] ?? m.field} set to ${m.value} without restarting.`);
        break;
      case "error":
        this.onError(m);
        break;
      case "sweepProgress":
        this.$(".sweep-progress").value = m.done / m.total;
        this.drawSweep(m.results);
        break;
      case "sweepDone":
      case "sweepCancelled":
        this.$(".sweep-run").disabled = false;
        this.$(".sweep-cancel").disabled = true;
        this.note(m.type === "sweepDone" ? "Sweep finished." : "Sweep cancelled.");
        break;
    }
  }

  onError(m) {
    if (m.context === "start") {
      const text = `These settings cannot run: ${m.message}.`;
      if (Object.keys(this.overrides).length) {
        this.errors.push(`${text} Showing the defaults instead.`);
        this.overrides = {};
        this.start();
      } else {
        this.showError(text);
      }
    } else if (m.context === "inject") {
      this.showError(`Fault not injected: ${m.message}`);
    } else if (m.context === "fork") {
      this.showError(`Not forked: ${m.message}`);
      this.settleWaiters(Infinity, new Error(m.message));
    } else if (m.context === "set") {
      this.showError(`Not changed: ${m.message}`);
      syncControls(this);
    } else {
      this.showError(`The simulation stopped: ${m.message}`);
    }
  }

  configs() {
    return configsFor(this.overrides, this.view);
  }

  compareSpec() {
    return compareSpec(this.view);
  }

  start() {
    if (!this.worker || !this.ready) return;
    this.forkInfo = null;
    this.showError(this.errors.join(" "));
    this.errors = [];
    this.applyMode();
    if (this.view.mode === "sweep") {
      this.worker.postMessage({ type: "start", configs: [this.overrides], speed: this.view.speed, paused: true });
      return;
    }
    this.worker.postMessage({
      type: "start", configs: this.configs(), speed: this.view.speed, paused: this.paused, pauseAtMs: this.view.pauseAtMs ?? null,
    });
    this.updatePlayButton();
    this.emitState();
  }

  // ---- timeline: seek and fork ------------------------------------------------------------

  /**
   * Shows simulated time `ms` again (clamped to the time already run) and pauses there.
   * Resolves with the figures shown once the charts, heatmap and figures are at that time.
   */
  seek(ms) {
    if (!this.worker || !this.ready) return Promise.reject(new Error("hotrow: the playground has not started yet"));
    if (!Number.isFinite(+ms)) return Promise.reject(new TypeError(`hotrow: seek needs a simulated time in ms, not ${ms}`));
    this.paused = true;
    this.updatePlayButton();
    const id = ++this.seekSeq;
    return new Promise((resolve, reject) => {
      this.seekWaiters.set(id, { resolve, reject });
      this.worker.postMessage({ type: "seek", ms: Math.round(+ms), id });
    });
  }

  /**
   * Forks at the moment shown: run B branches from it with `field` = `value` (a live field:
   * cache size, hint, clients, think time, latency, ...), run A goes on unchanged, and both
   * are drawn in compare mode. Resolves with the figures once the branch is shown.
   */
  fork(field, value) {
    if (!this.worker || !this.ready) return Promise.reject(new Error("hotrow: the playground has not started yet"));
    if (!this.liveFields.includes(String(field).split(".")[0])) {
      const text = `${FIELD_LABELS[field] ?? field} shapes the cluster, so a branch cannot differ in it from the same past; fork with one of: ${this.forkFields().join(", ")}`;
      this.showError(`Not forked: ${text}.`);
      return Promise.reject(new Error(text));
    }
    this.paused = true;
    this.updatePlayButton();
    this.view.mode = "compare";
    this.applyMode();
    const id = ++this.seekSeq;
    return new Promise((resolve, reject) => {
      this.seekWaiters.set(id, { resolve, reject });
      this.worker.postMessage({ type: "fork", field, value, id });
    });
  }

  /** Fields a fork can change: the live ones the URL knows. */
  forkFields() {
    return Object.keys(FIELDS).filter((f) => this.liveFields.includes(f.split(".")[0]) && f !== "durationMs");
  }

  fillForkFields() {
    this.$("#forkField").replaceChildren(...this.forkFields().map((f) => new Option(FIELD_LABELS[f] ?? f, f)));
  }

  showFork() {
    const f = this.forkInfo;
    const note = this.$(".fork-note");
    note.hidden = !f;
    if (f) note.textContent = `Run B forked at ${(f.atMs / 1000).toFixed(2)} s: ${FIELD_LABELS[f.field] ?? f.field} ${f.was} → ${f.value}. Same seed, same past.`;
    this.$(".compare-panel").hidden = this.view.mode !== "compare" || !!f;
  }

  settleWaiters(upTo, error, value) {
    for (const [id, w] of this.seekWaiters) {
      if (id > upTo) continue;
      this.seekWaiters.delete(id);
      if (error) w.reject(error);
      else w.resolve(value);
    }
  }

  updateTimeline(m) {
    const t = m.timeline;
    if (!t) return;
    const range = this.$("#timeline");
    range.min = String(Math.floor(t.startMs));
    range.max = String(Math.ceil(t.frontierMs));
    if (!this.dragging) range.value = String(Math.round(m.nowMs));
    const text = `${(m.nowMs / 1000).toFixed(2)} s of ${(t.frontierMs / 1000).toFixed(2)} s`;
    this.$("#timeline-out").textContent = text;
    range.setAttribute("aria-valuetext", text);
  }

  // ---- controls ------------------------------------------------------------------------

  fillSelects() {
    this.$("#compareField").replaceChildren(...COMPARE_FIELDS.map((f) => new Option(FIELD_LABELS[f] ?? f, f)));
    this.$("#sweepField").replaceChildren(...SWEEP_FIELDS.map(([f, label]) => new Option(label, f)));
  }

  /** The presets, their descriptions and the version come from the package (via the worker). */
  fillPresets(presets, version) {
    this.$("#preset").replaceChildren(...presets.map((p) => new Option(`${p.name} — ${p.description}`, p.name)));
    this.$("#preset").value = this.overrides.preset ?? "bug39267";
    this.$(".version").textContent = `hotrow ${version}`;
  }

  /** A control changed `field`: live fields go to the running simulation, others restart it. */
  change(field, value) {
    setField(this.overrides, field, value);
    const live = this.liveFields.includes(field.split(".")[0]);
    if (live && this.view.mode !== "sweep" && !(this.view.mode === "compare" && field === this.compareSpec().compareField)) {
      this.worker?.postMessage({ type: "set", field, value });
    } else {
      this.note(`${FIELD_LABELS[field] ?? field} changes the cluster: restarted from time 0.`);
      this.start();
    }
    this.emitState();
  }

  applyMode() {
    const mode = this.view.mode;
    for (const tab of this.$$("[data-mode]")) tab.setAttribute("aria-pressed", String(tab.dataset.mode === mode));
    this.$(".compare-panel").hidden = mode !== "compare";
    this.$(".compare-only").hidden = mode !== "compare";
    this.$(".sweep-panel").hidden = mode !== "sweep";
    this.$(".live-panels").hidden = mode === "sweep";
  }

  updatePlayButton() {
    const b = this.$(".play");
    b.textContent = this.paused ? "Play" : "Pause";
    b.setAttribute("aria-pressed", String(this.paused));
  }

  note(text) {
    this.$(".notice").textContent = text;
  }

  showError(text) {
    const e = this.$(".error");
    e.textContent = text;
    e.classList.toggle("shown", !!text);
  }

  emitState() {
    this.dispatchEvent(new CustomEvent("hotrow-statechange", { detail: { query: this.query }, bubbles: true, composed: true }));
  }

  // ---- data and charts --------------------------------------------------------------------

  setupCharts(nodes) {
    this.nodes = nodes;
    for (const chart of this.charts ?? []) chart.destroy();
    const c = this.effective[0] ?? {};
    const dbt2 = c.workload === "dbt2";
    const compare = this.view.mode === "compare";
    const primary = dbt2 ? "TPM" : "inserts/s";
    const showRefs = dbt2 && c.dataNodes === 8 && c.replicas === 2;
    this.$(".reported-note").hidden = !showRefs;
    this.$(".primary-tpm").hidden = !dbt2;
    const colors = [css(this, "--hotrow-accent", "#2563eb"), css(this, "--hotrow-accent2", "#0b7a5c")];
    const hot = css(this, "--hotrow-hot", "#c2410c");
    const [nameA, nameB] = this.runNames();
    const throughputSeries = compare
      ? [{ label: `${nameA}: ${primary}`, color: colors[0] }, { label: `${nameB}: ${primary}`, color: colors[1] }]
      : dbt2
        ? [{ label: "TPM", color: colors[0] }, { label: "inserts/s", color: colors[1], scale: "y2" }]
        : [{ label: "inserts/s", color: colors[1] }];
    this.throughputChart = makeChart(this.$(".chart-throughput"), {
      series: throughputSeries, yLabel: primary, y2Label: !compare && dbt2 ? "inserts/s" : "", refs: () => (showRefs ? REPORTED : []),
    });
    this.hotChart = makeChart(this.$(".chart-hot"), {
      series: [{ label: "lock busy", color: hot, fmt: fmtPct }, { label: "refills/s", color: colors[0], scale: "y2" }],
      yLabel: "lock busy (0..1)", y2Label: "refills/s",
    });
    this.latencyChart = makeChart(this.$(".chart-latency"), {
      series: [{ label: "p50", color: colors[0], fmt: fmtUs }, { label: "p99", color: hot, fmt: fmtUs }], yLabel: "response time (us)",
    });
    this.charts = [this.throughputChart, this.hotChart, this.latencyChart];
    this.series = this.effective.map(() => new Series(SERIES, MAX_POINTS));
    this.heatmap.reset(nodes, this.hotNode);
    this.latest = null;
  }

  /** Names of runs A and B in compare mode: the compared field's two values. */
  runNames() {
    if (this.view.mode !== "compare") return ["A", "B"];
    const f = this.forkInfo;
    const field = f ? f.field : this.compareSpec().compareField;
    const label = FIELD_LABELS[field] ?? field;
    if (f) return [`A (${label} ${f.was})`, `B (${label} ${f.value})`];
    const spec = this.compareSpec();
    return [`A (${label} ${spec.compareA})`, `B (${label} ${spec.compareB})`];
  }

  ingest(m) {
    if (m.reset) {
      this.series = this.effective.map(() => new Series(SERIES, MAX_POINTS));
      this.heatmap.reset(this.nodes, this.hotNode);
    }
    m.sims.forEach((s, i) => {
      const d = this.series[i];
      const w = s.windows;
      if (!d) return;
      for (let k = 0; k < w.count; k++) {
        d.push({ x: w.endMs[k] / 1000, tpm: w.tpm[k], ins: w.insertsPerSecond[k], util: w.hotRowLockUtilization[k],
          refills: w.refillsPerSecond[k], p50: w.latencyP50Us[k], p99: w.latencyP99Us[k] });
        if (i === 0) this.heatmap.push(w.nodeLoad.subarray(k * this.nodes, (k + 1) * this.nodes));
      }
    });
    this.latest = m;
    // Only the worker's own pause (pauseAtMs) changes the button: a tick posted before the
    // worker saw a click must not undo it.
    if (m.pausedItself && !this.paused) {
      this.paused = true;
      this.updatePlayButton();
    }
    this.updateTimeline(m);
    this.dirty = true;
    if (m.seekId) {
      this.render();
      this.settleWaiters(m.seekId, null, { nowMs: m.nowMs, ...this.figures });
    }
  }

  render() {
    this.dirty = false;
    const m = this.latest;
    if (!m || !this.series.length) return;
    const snap = m.sims[0].snapshot;
    const d = this.series[0];
    const dbt2 = this.effective[0]?.workload === "dbt2";
    const set = (metric, text) => {
      const el = this.metricEls[metric];
      if (el && el.textContent !== text) el.textContent = text;
    };
    set("tpm", fmtInt(snap.tpm));
    set("insertsPerSecond", fmtInt(snap.insertsPerSecond));
    set("transactionsPerSecond", fmtInt(snap.transactionsPerSecond));
    set("hotRowLockUtilization", fmtPct(snap.hotRowLockUtilization));
    set("refillsPerSecond", fmtInt(snap.refillsPerSecond));
    set("latencyP99Us", fmtUs(snap.latencyP99Us));
    set("simulatedSeconds", (m.nowMs / 1000).toFixed(1));
    set("simPerWall", m.engine.simPerWall.toFixed(2));
    set("eventsPerSecond", fmtInt(m.engine.eventsPerSecond));
    set("aborts", String(snap.aborts));
    set("idsLost", String(snap.idsLost));
    set("nodesDown", snap.nodesDown.length ? snap.nodesDown.map((n) => `node ${n}`).join(", ") : "none");
    // Raw numbers for scripts and tests, beside the formatted text.
    for (const [k, v] of Object.entries({ tpm: snap.tpm, insertsPerSecond: snap.insertsPerSecond, hotRowLockUtilization: snap.hotRowLockUtilization })) {
      this.metricEls[k].dataset.value = String(v);
    }
    const figures = { tpm: snap.tpm, insertsPerSecond: snap.insertsPerSecond, hotRowLockUtilization: snap.hotRowLockUtilization,
      refillsPerSecond: snap.refillsPerSecond, nowMs: m.nowMs };
    if (this.series.length === 2) {
      const key = dbt2 ? "tpm" : "ins";
      const a = this.series[0].mean(key, 10);
      const b = this.series[1].mean(key, 10);
      const ratio = a > 0 ? b / a : 0;
      set("compareRatio", a > 0 ? `${ratio.toFixed(2)}x` : "–");
      this.metricEls.compareRatio.dataset.value = String(ratio);
      figures.compareRatio = ratio;
      const n = Math.min(d.length, this.series[1].length);
      this.throughputChart.setData([d.get("x", n), d.get(key, n), this.series[1].get(key, n)]);
    } else {
      this.throughputChart.setData(dbt2 ? [d.get("x"), d.get("tpm"), d.get("ins")] : [d.get("x"), d.get("ins")]);
    }
    this.hotChart.setData([d.get("x"), d.get("util"), d.get("refills")]);
    this.latencyChart.setData([d.get("x"), d.get("p50"), d.get("p99")]);
    this.heatmap.draw();
    drawBars(this.$(".bars-load"), snap.nodeLoad, { max: 1, fmt: fmtPct, hotNode: snap.hotRowNode });
    drawBars(this.$(".bars-tc"), snap.nodeTcPerSecond, { max: 1, fmt: fmtInt, hotNode: snap.hotRowNode });
    this.figures = figures;
    this.dispatchEvent(new CustomEvent("hotrow-snapshot", { detail: figures, bubbles: true, composed: true }));
  }

  // ---- sweep ------------------------------------------------------------------------------

  runSweep() {
    const field = this.$("#sweepField").value;
    const c = this.effective[0] ?? { replicas: 2 };
    const values = sweepValues(field, c);
    this.sweepField = field;
    this.$(".sweep-axis").textContent = field === "cacheSize" ? "cache size (log)" : "data nodes";
    this.sweepChart?.destroy();
    const dbt2 = c.workload === "dbt2";
    this.sweepChart = makeChart(this.$(".sweep-chart"), {
      series: [{ label: dbt2 ? "TPM" : "inserts/s", color: css(this, "--hotrow-accent", "#2563eb") }],
      logX: field === "cacheSize", xLabel: field === "cacheSize" ? "cache size" : "data nodes", yLabel: dbt2 ? "TPM" : "inserts/s",
    });
    this.$(".sweep-progress").value = 0;
    this.$(".sweep-run").disabled = true;
    this.$(".sweep-cancel").disabled = false;
    this.note(`Sweeping ${values.length} runs in the worker...`);
    this.worker.postMessage({ type: "sweep", base: this.overrides, field, values, runMs: 1000, warmupMs: 1000, token: ++this.sweepToken });
  }

  drawSweep(results) {
    const dbt2 = (this.effective[0] ?? {}).workload === "dbt2";
    this.sweepChart.setData([results.map((r) => r.value), results.map((r) => (dbt2 ? r.tpm : r.insertsPerSecond))]);
    this.dispatchEvent(new CustomEvent("hotrow-sweep", { detail: results, bubbles: true, composed: true }));
  }
}

if (!customElements.get("hotrow-playground")) customElements.define("hotrow-playground", HotrowPlayground);

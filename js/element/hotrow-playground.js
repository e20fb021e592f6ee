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
import { css as uplotCss } from "../../dist/vendor/uplot/uplot-css.js";
import {
  FIELDS, COMPARE_FIELDS, DEFAULT_SPEED, parseEntries, kebab, setField, getField, compareValue, toQuery,
} from "./state.js";

const MAX_POINTS = 600;
const PRESETS = [
  ["bug39267", "2008 bug: DBT2, 8 nodes, cache 1, no hint"],
  ["bug39267-fixed", "6.3.18 fix: cache 1000"],
  ["ndbapi-pk", "NDB API inserts, table with PK"],
  ["ndbapi-hidden-pk", "NDB API inserts, hidden PK, cache 1"],
  ["modern", "present-day cluster"],
];
const SEED_REFS = [
  { value: 106000, label: "seed: 106k TPM (cache 1, 2008)" },
  { value: 158000, label: "seed: 158k TPM (cache 1000)" },
];
const FIELD_LABELS = {
  cacheSize: "cache size", hintedRefill: "refill hint", primaryKey: "primary key", dataNodes: "data nodes",
  "network.latencyUs": "network latency (us)", clientsPerApiNode: "clients per API node",
};

const fmtInt = (v) => (v >= 1e6 ? `${(v / 1e6).toFixed(2)}M` : v >= 1e4 ? `${(v / 1e3).toFixed(1)}k` : v.toFixed(0));
const fmtPct = (v) => `${(100 * v).toFixed(0)}%`;
const fmtUs = (v) => (v >= 1000 ? `${(v / 1000).toFixed(1)} ms` : `${v.toFixed(0)} us`);
const fmtSpeed = (ms) => (ms >= 1000 ? `${+(ms / 1000).toFixed(1)}x real time` : `1/${Math.round(1000 / ms)} real time`);
const logSlider = (value, min, max) => Math.log10(Math.min(max, Math.max(min, value)));

const STYLE = `
:host { --hotrow-bg: #ffffff; --hotrow-fg: #1d2230; --hotrow-muted: #5b6275; --hotrow-panel: #f4f6fa;
  --hotrow-border: #d5dae4; --hotrow-accent: #2563eb; --hotrow-accent2: #0f9d76; --hotrow-hot: #e4572e;
  --hotrow-ref: #8a6d00; --hotrow-grid: rgba(120,130,150,0.25); --hotrow-font: system-ui, -apple-system, "Segoe UI", sans-serif;
  display: block; color: var(--hotrow-fg); background: var(--hotrow-bg); font: 14px/1.45 var(--hotrow-font);
  border: 1px solid var(--hotrow-border); border-radius: 8px; padding: 12px; box-sizing: border-box; container-type: inline-size; }
:host([theme="dark"]) { --hotrow-bg: #141821; --hotrow-fg: #e6e9f0; --hotrow-muted: #9aa3b5; --hotrow-panel: #1d2330;
  --hotrow-border: #343c4d; --hotrow-accent: #6ea0ff; --hotrow-accent2: #34d3a2; --hotrow-hot: #ff7a50; --hotrow-ref: #e0c060;
  --hotrow-grid: rgba(160,170,190,0.18); }
@media (prefers-color-scheme: dark) { :host(:not([theme="light"])) { --hotrow-bg: #141821; --hotrow-fg: #e6e9f0;
  --hotrow-muted: #9aa3b5; --hotrow-panel: #1d2330; --hotrow-border: #343c4d; --hotrow-accent: #6ea0ff; --hotrow-accent2: #34d3a2;
  --hotrow-hot: #ff7a50; --hotrow-ref: #e0c060; --hotrow-grid: rgba(160,170,190,0.18); } }
* { box-sizing: border-box; }
h2, h3 { margin: 0 0 6px; font-size: 15px; }
h3 { font-size: 13px; color: var(--hotrow-muted); font-weight: 600; }
.figures { display: grid; grid-template-columns: repeat(auto-fit, minmax(130px, 1fr)); gap: 8px; margin-bottom: 10px; }
.figure { background: var(--hotrow-panel); border-radius: 6px; padding: 6px 10px; min-width: 0; }
.figure .label { font-size: 12px; color: var(--hotrow-muted); }
.figure .value { font-size: 20px; font-weight: 650; font-variant-numeric: tabular-nums; white-space: nowrap; }
.figure.hot .value { color: var(--hotrow-hot); }
.row { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: center; margin: 6px 0; }
button, select, input { font: inherit; color: inherit; }
button { background: var(--hotrow-panel); border: 1px solid var(--hotrow-border); border-radius: 6px; padding: 4px 10px; cursor: pointer; }
button[aria-pressed="true"], button.primary { background: var(--hotrow-accent); color: #fff; border-color: var(--hotrow-accent); }
button:focus-visible, select:focus-visible, input:focus-visible { outline: 2px solid var(--hotrow-accent); outline-offset: 2px; }
select, input[type="number"] { background: var(--hotrow-bg); border: 1px solid var(--hotrow-border); border-radius: 6px; padding: 3px 6px; max-width: 100%; }
input[type="number"] { width: 7em; }
.controls { display: grid; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); gap: 8px 16px; background: var(--hotrow-panel);
  border-radius: 6px; padding: 10px; margin: 8px 0; }
.control { display: grid; gap: 2px; min-width: 0; align-content: start; }
.controls select { width: 100%; }
.control label { font-weight: 600; font-size: 13px; }
.control .hint { font-size: 12px; color: var(--hotrow-muted); }
.control .inline { display: flex; gap: 8px; align-items: center; }
.control input[type="range"] { flex: 1; min-width: 0; accent-color: var(--hotrow-accent); }
.control output { font-variant-numeric: tabular-nums; min-width: 5.5em; text-align: right; }
.live-tag { font-size: 11px; color: var(--hotrow-accent2); font-weight: 600; }
.restart-tag { font-size: 11px; color: var(--hotrow-muted); }
.panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 420px), 1fr)); gap: 12px; }
.panel { min-width: 0; border: 1px solid var(--hotrow-border); border-radius: 6px; padding: 8px; }
.chart { width: 100%; min-width: 0; overflow: hidden; }
canvas.heatmap { width: 100%; display: block; }
.bars { display: grid; gap: 2px; font-size: 12px; }
.bar { display: grid; grid-template-columns: 4.5em 1fr 5em; gap: 6px; align-items: center; }
.bar-track { height: 10px; background: var(--hotrow-bg); border: 1px solid var(--hotrow-border); border-radius: 3px; overflow: hidden; }
.bar-fill { display: block; height: 100%; background: var(--hotrow-accent); }
.bar.hot .bar-fill { background: var(--hotrow-hot); }
.bar.hot .bar-label { color: var(--hotrow-hot); font-weight: 700; }
.bar-value { text-align: right; font-variant-numeric: tabular-nums; }
.notice { min-height: 1.4em; color: var(--hotrow-muted); font-size: 13px; }
.error { display: none; border: 1px solid var(--hotrow-hot); color: var(--hotrow-fg); background: color-mix(in srgb, var(--hotrow-hot) 12%, transparent);
  border-radius: 6px; padding: 6px 10px; margin: 6px 0; }
.error.shown { display: block; }
.tabs { display: flex; gap: 4px; flex-wrap: wrap; }
.explain { background: var(--hotrow-panel); border-radius: 6px; padding: 8px 12px; margin-top: 12px; }
.explain p { margin: 6px 0; }
.meter { font-size: 12px; color: var(--hotrow-muted); font-variant-numeric: tabular-nums; }
progress { width: 100%; }
.legend-note { font-size: 12px; color: var(--hotrow-muted); }
[hidden] { display: none !important; }
:host([compact]) .full-only { display: none !important; }
.compact-only { display: none; }
:host([compact]) .compact-only { display: revert; }
@container (max-width: 480px) { .figure .value { font-size: 17px; } .controls { grid-template-columns: 1fr; } }
`;

const TEMPLATE = `
<style>${uplotCss}</style><style>${STYLE}</style>
<div class="error" role="alert" part="error"></div>
<div class="figures" aria-live="polite">
  <div class="figure primary-tpm"><div class="label">TPM (New-Order / min)</div><div class="value" data-metric="tpm">–</div></div>
  <div class="figure"><div class="label">inserts / s</div><div class="value" data-metric="insertsPerSecond">–</div></div>
  <div class="figure full-only"><div class="label">transactions / s</div><div class="value" data-metric="transactionsPerSecond">–</div></div>
  <div class="figure hot"><div class="label">hot row lock busy</div><div class="value" data-metric="hotRowLockUtilization">–</div></div>
  <div class="figure full-only"><div class="label">refills / s</div><div class="value" data-metric="refillsPerSecond">–</div></div>
  <div class="figure full-only"><div class="label">latency p99</div><div class="value" data-metric="latencyP99Us">–</div></div>
  <div class="figure compare-only" hidden><div class="label">ratio B / A</div><div class="value" data-metric="compareRatio">–</div></div>
</div>
<div class="row" role="toolbar" aria-label="simulation">
  <button class="play" aria-pressed="false">Pause</button>
  <button class="step full-only" title="advance one metrics window">Step</button>
  <button class="reset">Reset</button>
  <span class="control inline full-only"><label for="speed">speed</label>
    <input id="speed" type="range" min="0" max="5" step="0.05" aria-describedby="speed-out"><output id="speed-out"></output></span>
  <span class="control inline full-only"><label for="seed">seed</label><input id="seed" type="number" min="0" step="1"></span>
  <span class="tabs full-only" role="tablist" aria-label="mode">
    <button role="tab" data-mode="live">Live</button><button role="tab" data-mode="compare">Compare</button><button role="tab" data-mode="sweep">Sweep</button>
  </span>
  <button class="share full-only" title="copy a link that reopens this exact run">Copy link</button>
  <button class="theme full-only" title="switch light / dark">Theme</button>
</div>
<div class="row faults full-only" role="group" aria-label="faults">
  <span class="legend-note">Faults:</span>
  <label for="faultNode">data node</label><select id="faultNode"></select>
  <button class="fail-node" title="the node stops; its partner takes over; it restarts after 3 s">Fail node</button>
  <button class="slow-node" title="messages to and from the node take 2 ms longer for 2 s">Slow network</button>
  <button class="restart-api" title="API node 0 restarts: its cached ids are lost, its clients are away for 1 s">Restart API node 0</button>
  <span class="legend-note">aborted: <span data-metric="aborts">0</span> · ids lost: <span data-metric="idsLost">0</span> · down: <span data-metric="nodesDown">none</span></span>
</div>
<div class="notice" aria-live="polite"></div>
<div class="controls">
  <div class="control full-only"><label for="preset">preset</label><select id="preset"></select></div>
  <div class="control full-only"><label for="workload">workload</label><select id="workload">
    <option value="dbt2">DBT2 (TPC-C-like via mysqld)</option><option value="ndbapi-insert">NDB API single-row inserts</option></select>
    <span class="hint restart-tag">restarts the run</span></div>
  <div class="control"><label for="cacheSize">id cache size <span class="live-tag">live</span></label>
    <span class="inline"><input id="cacheSize" type="range" min="0" max="6" step="0.01"><output for="cacheSize"></output></span>
    <span class="hint">ids fetched per refill of the counter row (log scale, 1 to 1,000,000)</span></div>
  <div class="control"><label><input id="hintedRefill" type="checkbox"> refill uses a transaction hint <span class="live-tag">live</span></label>
    <span class="hint">TC on the node holding the counter row, instead of round robin</span></div>
  <div class="control full-only"><label><input id="primaryKey" type="checkbox"> inserted table has a primary key</label>
    <span class="hint">no hidden key, no allocator (restarts)</span></div>
  <div class="control full-only"><label for="dataNodes">data nodes</label><select id="dataNodes"></select>
    <span class="hint">node groups = data nodes / replicas (restarts)</span></div>
  <div class="control full-only"><label for="replicas">replicas</label><select id="replicas">
    <option>1</option><option>2</option><option>3</option><option>4</option></select><span class="hint">restarts the run</span></div>
  <div class="control full-only"><label for="apiNodes">API nodes</label><input id="apiNodes" type="number" min="1" max="256" step="1">
    <span class="hint">mysqld / NDB API processes (restarts)</span></div>
  <div class="control full-only"><label for="clientsPerApiNode">clients per API node <span class="live-tag">live</span></label>
    <span class="inline"><input id="clientsPerApiNode" type="range" min="1" max="256" step="1"><output for="clientsPerApiNode"></output></span></div>
  <div class="control full-only"><label for="thinkTimeUs">think time <span class="live-tag">live</span></label>
    <span class="inline"><input id="thinkTimeUs" type="range" min="0" max="6" step="0.05"><output for="thinkTimeUs"></output></span>
    <span class="hint">pause between a client's transactions</span></div>
  <div class="control full-only"><label for="latency">network latency <span class="live-tag">live</span></label>
    <span class="inline"><input id="latency" type="range" min="0" max="500" step="5"><output for="latency"></output></span>
    <span class="hint">one way, between hosts</span></div>
</div>
<div class="compare-panel controls" hidden>
  <div class="control"><label for="compareField">compare runs that differ in</label><select id="compareField"></select></div>
  <div class="control"><label for="compareA">run A</label><input id="compareA" type="text" inputmode="decimal"></div>
  <div class="control"><label for="compareB">run B</label><input id="compareB" type="text" inputmode="decimal"></div>
  <div class="control"><span class="hint">Same seed, same workload; only this knob differs. The ratio is run B over run A, averaged over the last second.</span></div>
</div>
<div class="sweep-panel" hidden>
  <div class="row"><label for="sweepField">sweep</label>
    <select id="sweepField"><option value="cacheSize">cache size (1 to 1,000,000)</option><option value="dataNodes">data nodes</option></select>
    <button class="sweep-run primary">Run sweep</button><button class="sweep-cancel" disabled>Cancel</button></div>
  <progress class="sweep-progress" max="1" value="0" aria-label="sweep progress"></progress>
  <div class="panel"><h3>throughput vs <span class="sweep-axis">cache size</span> (each point: 1 s measured after 1 s warm-up)</h3><div class="chart sweep-chart"></div></div>
</div>
<div class="panels live-panels">
  <div class="panel"><h3>throughput</h3><div class="chart chart-throughput"></div>
    <div class="legend-note seed-note" hidden>Dashed lines: the bug report's measurements at 8 data nodes.</div></div>
  <div class="panel full-only"><h3>hot row: lock busy and refills / s</h3><div class="chart chart-hot"></div></div>
  <div class="panel"><h3>load per data node <span class="legend-note">(● holds the SYSTAB_0 counter row)</span></h3>
    <canvas class="heatmap" role="img" aria-label="load per data node over time"></canvas><div class="bars bars-load"></div></div>
  <div class="panel full-only"><h3>latency (p50, p99)</h3><div class="chart chart-latency"></div></div>
  <div class="panel full-only"><h3>transactions coordinated per data node / s</h3><div class="bars bars-tc"></div>
    <div class="legend-note">Without a hint, cache-1 refills land TC work on every node, even idle ones.</div></div>
</div>
<div class="meter"><span data-metric="simulatedSeconds">0.0</span> simulated s · <span data-metric="simPerWall">–</span> simulated s per wall s ·
  <span data-metric="eventsPerSecond">–</span> events/s</div>
<div class="explain full-only">
  <h2>What you are looking at</h2>
  <p>A simulated MySQL Cluster (NDB): data nodes in node groups, each holding replicas of partitions; clients run transactions
  whose every row operation travels as messages through a transaction coordinator (TC), the primary replica and its backup,
  and commits with two-phase commit. Nothing here is a formula: throughput, load and latency come out of messages waiting
  for CPU threads, for the network, and for row locks.</p>
  <p><b>The bug (MySQL #39267, 2008).</b> A table without a primary key gets a hidden key. Each value came from one counter
  row per table in <code>SYSTAB_0</code>, fetched with cache size 1: every insert first ran its own committed transaction that
  updated that single row, holding its lock for a whole two-phase commit. All inserts of the cluster queued on that one lock.
  With the cache at 1, watch the <em>hot row lock busy</em> figure sit at 100% and the node holding the row (●) glow; TPM is
  capped near the seed's 106k. Turn the cache size up to 1000: the row goes idle, and DBT2 reaches about 158k TPM.</p>
  <p>The refill also ran without a transaction hint, so its coordinator was picked round robin: TC work lands on nodes that
  otherwise have nothing to do (see the TC bars with one warehouse). <em>Compare</em> runs two settings side by side;
  <em>Sweep</em> shows throughput against cache size or node count.</p>
</div>
<div class="compact-only legend-note">hotrow: one counter row per table, locked for every insert when the id cache is 1.</div>
`;

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
  }

  connectedCallback() {
    if (this.worker) return;
    this.shadowRoot.innerHTML = TEMPLATE;
    this.$ = (sel) => this.shadowRoot.querySelector(sel);
    this.$$ = (sel) => [...this.shadowRoot.querySelectorAll(sel)];
    this.heatmap = new Heatmap(this.$("canvas.heatmap"));
    // The render loop writes these every frame: look them up once.
    this.metricEls = Object.fromEntries(this.$$("[data-metric]").map((el) => [el.dataset.metric, el]));
    this.fillSelects();
    this.wireControls();
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
        this.start();
        break;
      case "started":
        this.effective = m.configs;
        this.hotNode = m.hotRowNode;
        this.setupCharts(m.dataNodes);
        this.syncControls();
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
    } else if (m.context === "set") {
      this.showError(`Not changed: ${m.message}`);
      this.syncControls();
    } else {
      this.showError(`The simulation stopped: ${m.message}`);
    }
  }

  configs() {
    if (this.view.mode !== "compare") return [this.overrides];
    const { compareField, compareA, compareB } = this.compareSpec();
    return [compareA, compareB].map((text) => {
      const c = structuredClone(this.overrides);
      setField(c, compareField, compareValue(compareField, text));
      return c;
    });
  }

  compareSpec() {
    const field = this.view.compareField ?? "cacheSize";
    const defaults = { cacheSize: ["1", "1000"], hintedRefill: ["false", "true"], primaryKey: ["false", "true"],
      dataNodes: ["4", "8"], "network.latencyUs": ["90", "20"], clientsPerApiNode: ["4", "16"] }[field];
    const ok = (t) => t !== undefined && compareValue(field, t) !== undefined;
    return {
      compareField: field,
      compareA: ok(this.view.compareA) ? this.view.compareA : defaults[0],
      compareB: ok(this.view.compareB) ? this.view.compareB : defaults[1],
    };
  }

  start() {
    if (!this.worker || !this.ready) return;
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

  // ---- controls ------------------------------------------------------------------------

  fillSelects() {
    this.$("#preset").replaceChildren(...PRESETS.map(([v, t]) => new Option(`${v} — ${t}`, v)));
    this.$("#compareField").replaceChildren(...COMPARE_FIELDS.map((f) => new Option(FIELD_LABELS[f] ?? f, f)));
  }

  fillDataNodes(replicas) {
    const sel = this.$("#dataNodes");
    const options = [];
    for (let n = replicas; n <= 48; n += replicas) options.push(new Option(String(n), String(n)));
    sel.replaceChildren(...options);
  }

  wireControls() {
    const $ = this.$;
    $(".play").onclick = () => {
      this.paused = !this.paused;
      this.worker?.postMessage({ type: this.paused ? "pause" : "resume" });
      this.updatePlayButton();
    };
    $(".step").onclick = () => {
      this.paused = true;
      this.worker?.postMessage({ type: "pause" });
      this.worker?.postMessage({ type: "step" });
      this.updatePlayButton();
    };
    $(".reset").onclick = () => {
      this.note("Reset: the same settings from simulated time 0.");
      this.start();
    };
    $("#speed").oninput = (e) => {
      this.view.speed = Math.round(10 ** +e.target.value);
      $("#speed-out").textContent = fmtSpeed(this.view.speed);
      this.worker?.postMessage({ type: "speed", value: this.view.speed });
      this.emitState();
    };
    $("#seed").onchange = (e) => this.change("seed", Math.max(0, Math.floor(+e.target.value || 0)));
    $("#preset").onchange = (e) => {
      this.overrides = { preset: e.target.value, ...(this.overrides.seed !== undefined ? { seed: this.overrides.seed } : {}) };
      this.note(`Preset ${e.target.value}: restarted.`);
      this.start();
    };
    $("#workload").onchange = (e) => this.change("workload", e.target.value);
    $("#cacheSize").oninput = (e) => ($("output[for=cacheSize]").textContent = fmtInt(Math.round(10 ** +e.target.value)));
    $("#cacheSize").onchange = (e) => this.change("cacheSize", Math.round(10 ** +e.target.value));
    $("#hintedRefill").onchange = (e) => this.change("hintedRefill", e.target.checked);
    $("#primaryKey").onchange = (e) => this.change("primaryKey", e.target.checked);
    $("#dataNodes").onchange = (e) => this.change("dataNodes", +e.target.value);
    $("#replicas").onchange = (e) => {
      const r = +e.target.value;
      const nodes = Math.max(r, Math.round((getField(this.effective[0] ?? {}, "dataNodes") ?? 8) / r) * r);
      setField(this.overrides, "dataNodes", Math.min(48 - (48 % r), nodes));
      this.change("replicas", r);
    };
    $("#apiNodes").onchange = (e) => this.change("apiNodes", Math.floor(+e.target.value));
    $("#clientsPerApiNode").oninput = (e) => ($("output[for=clientsPerApiNode]").textContent = e.target.value);
    $("#clientsPerApiNode").onchange = (e) => this.change("clientsPerApiNode", +e.target.value);
    const think = (x) => (+x === 0 ? 0 : Math.round(10 ** +x));
    $("#thinkTimeUs").oninput = (e) => ($("output[for=thinkTimeUs]").textContent = fmtUs(think(e.target.value)));
    $("#thinkTimeUs").onchange = (e) => this.change("thinkTimeUs", think(e.target.value));
    $("#latency").oninput = (e) => ($("output[for=latency]").textContent = `${e.target.value} us`);
    $("#latency").onchange = (e) => this.change("network.latencyUs", +e.target.value);
    for (const tab of this.$$("[data-mode]")) {
      tab.onclick = () => {
        this.view.mode = tab.dataset.mode;
        this.start();
      };
    }
    $("#compareField").onchange = (e) => {
      this.view = { ...this.view, compareField: e.target.value, compareA: undefined, compareB: undefined };
      this.start();
    };
    for (const id of ["compareA", "compareB"]) {
      $(`#${id}`).onchange = (e) => {
        const field = this.compareSpec().compareField;
        if (compareValue(field, e.target.value) === undefined) {
          this.showError(`Run ${id.slice(-1)}: "${e.target.value}" is not a value for ${FIELD_LABELS[field] ?? field}.`);
          return;
        }
        this.view[id] = e.target.value;
        this.start();
      };
    }
    const inject = (fault, text) => {
      this.worker?.postMessage({ type: "inject", fault });
      this.note(text);
    };
    $(".fail-node").onclick = () => {
      const n = +$("#faultNode").value;
      inject({ kind: "dataNodeFailure", dataNode: n, restartAfterMs: 3000 },
        `Data node ${n} failed: its transactions abort and retry, its partner becomes primary; it rejoins in 3 simulated s.`);
    };
    $(".slow-node").onclick = () => {
      const n = +$("#faultNode").value;
      inject({ kind: "networkDelay", dataNode: n, extraUs: 2000, durationMs: 2000 }, `Messages to and from node ${n} take 2 ms longer for 2 s.`);
    };
    $(".restart-api").onclick = () => inject({ kind: "apiNodeRestart", apiNode: 0, downMs: 1000 },
      "API node 0 restarted: its cached id range is lost (a gap, never a duplicate); its clients return in 1 s.");
    $(".sweep-run").onclick = () => this.runSweep();
    $(".sweep-cancel").onclick = () => this.worker?.postMessage({ type: "cancel" });
    $(".share").onclick = async () => {
      const url = `${location.origin}${location.pathname}?${this.query}`;
      try {
        await navigator.clipboard.writeText(url);
        this.note("Link copied: it reopens this exact run (same seed, same settings).");
      } catch {
        this.note(`Link: ${url}`);
      }
    };
    $(".theme").onclick = () => {
      const dark = this.getAttribute("theme") === "dark" || (!this.hasAttribute("theme") && matchMedia("(prefers-color-scheme: dark)").matches);
      this.setAttribute("theme", dark ? "light" : "dark");
      this.setupCharts(this.nodes ?? 8);
    };
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

  syncControls() {
    const c = this.effective[0];
    if (!c) return;
    const $ = this.$;
    $("#preset").value = this.overrides.preset ?? "bug39267";
    $("#workload").value = c.workload;
    $("#cacheSize").value = logSlider(c.cacheSize, 1, 1e6);
    $("output[for=cacheSize]").textContent = fmtInt(c.cacheSize);
    $("#hintedRefill").checked = c.hintedRefill;
    $("#primaryKey").checked = c.primaryKey;
    this.fillDataNodes(c.replicas);
    $("#dataNodes").value = String(c.dataNodes);
    $("#faultNode").replaceChildren(...Array.from({ length: c.dataNodes }, (_, i) => new Option(`node ${i}`, String(i))));
    $("#replicas").value = String(c.replicas);
    $("#apiNodes").value = String(c.apiNodes);
    $("#clientsPerApiNode").value = String(Math.min(256, c.clientsPerApiNode));
    $("output[for=clientsPerApiNode]").textContent = String(c.clientsPerApiNode);
    $("#thinkTimeUs").value = c.thinkTimeUs ? logSlider(c.thinkTimeUs, 1, 1e6) : 0;
    $("output[for=thinkTimeUs]").textContent = fmtUs(c.thinkTimeUs);
    $("#latency").value = String(c.network.latencyUs);
    $("output[for=latency]").textContent = `${c.network.latencyUs} us`;
    $("#seed").value = String(c.seed);
    $("#speed").value = logSlider(this.view.speed, 1, 1e5);
    $("#speed-out").textContent = fmtSpeed(this.view.speed);
    const spec = this.compareSpec();
    $("#compareField").value = spec.compareField;
    $("#compareA").value = spec.compareA;
    $("#compareB").value = spec.compareB;
  }

  applyMode() {
    const mode = this.view.mode;
    for (const tab of this.$$("[data-mode]")) tab.setAttribute("aria-selected", String(tab.dataset.mode === mode));
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
    this.$(".seed-note").hidden = !showRefs;
    this.$(".primary-tpm").hidden = !dbt2;
    const colors = [css(this, "--hotrow-accent", "#2563eb"), css(this, "--hotrow-accent2", "#0f9d76")];
    const hot = css(this, "--hotrow-hot", "#e4572e");
    const throughputSeries = compare
      ? [{ label: `A: ${primary}`, color: colors[0] }, { label: `B: ${primary}`, color: colors[1] }]
      : dbt2
        ? [{ label: "TPM", color: colors[0] }, { label: "inserts/s", color: colors[1], scale: "y2" }]
        : [{ label: "inserts/s", color: colors[1] }];
    this.throughputChart = makeChart(this.$(".chart-throughput"), {
      series: throughputSeries, yLabel: primary, y2Label: !compare && dbt2 ? "inserts/s" : "", refs: () => (showRefs ? SEED_REFS : []),
    });
    this.hotChart = makeChart(this.$(".chart-hot"), {
      series: [{ label: "lock busy", color: hot, fmt: fmtPct }, { label: "refills/s", color: colors[0], scale: "y2" }],
      yLabel: "lock busy (0..1)", y2Label: "refills/s",
    });
    this.latencyChart = makeChart(this.$(".chart-latency"), {
      series: [{ label: "p50", color: colors[0], fmt: fmtUs }, { label: "p99", color: hot, fmt: fmtUs }], yLabel: "response time (us)",
    });
    this.charts = [this.throughputChart, this.hotChart, this.latencyChart];
    this.series = this.effective.map(() => ({ x: [], tpm: [], ins: [], util: [], refills: [], p50: [], p99: [] }));
    this.heatmap.reset(nodes, this.hotNode);
    this.latest = null;
  }

  ingest(m) {
    m.sims.forEach((s, i) => {
      const d = this.series[i];
      const w = s.windows;
      if (!d) return;
      for (let k = 0; k < w.count; k++) {
        d.x.push(w.endMs[k] / 1000);
        d.tpm.push(w.tpm[k]);
        d.ins.push(w.insertsPerSecond[k]);
        d.util.push(w.hotRowLockUtilization[k]);
        d.refills.push(w.refillsPerSecond[k]);
        d.p50.push(w.latencyP50Us[k]);
        d.p99.push(w.latencyP99Us[k]);
        if (i === 0) this.heatmap.push(w.nodeLoad.subarray(k * this.nodes, (k + 1) * this.nodes));
      }
      if (d.x.length > MAX_POINTS) for (const a of Object.values(d)) a.splice(0, a.length - MAX_POINTS);
    });
    this.latest = m;
    if (m.paused !== this.paused) {
      this.paused = m.paused;
      this.updatePlayButton();
    }
    this.dirty = true;
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
      const mean = (a) => { const t = a.slice(-10); return t.reduce((x, y) => x + y, 0) / Math.max(1, t.length); };
      const a = mean(this.series[0][key]);
      const b = mean(this.series[1][key]);
      const ratio = a > 0 ? b / a : 0;
      set("compareRatio", a > 0 ? `${ratio.toFixed(2)}x` : "–");
      this.metricEls.compareRatio.dataset.value = String(ratio);
      figures.compareRatio = ratio;
      this.throughputChart.setData([d.x, this.series[0][key], this.series[1][key].slice(-d.x.length)]);
    } else {
      this.throughputChart.setData(dbt2 ? [d.x, d.tpm, d.ins] : [d.x, d.ins]);
    }
    this.hotChart.setData([d.x, d.util, d.refills]);
    this.latencyChart.setData([d.x, d.p50, d.p99]);
    this.heatmap.draw();
    drawBars(this.$(".bars-load"), snap.nodeLoad, { max: 1, fmt: fmtPct, hotNode: snap.hotRowNode });
    drawBars(this.$(".bars-tc"), snap.nodeTcPerSecond, { max: 1, fmt: fmtInt, hotNode: snap.hotRowNode });
    this.dispatchEvent(new CustomEvent("hotrow-snapshot", { detail: figures, bubbles: true, composed: true }));
  }

  // ---- sweep ------------------------------------------------------------------------------

  runSweep() {
    const field = this.$("#sweepField").value;
    const c = this.effective[0] ?? { replicas: 2 };
    const values = field === "cacheSize"
      ? [1, 3, 10, 30, 100, 1000, 10000, 1000000]
      : [1, 2, 4, 6, 8, 12, 16].map((k) => k * c.replicas).filter((n) => n <= 48);
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

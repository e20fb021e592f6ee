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
import { runStrategies } from "./strategies.js";
import { bindKeys } from "./keys.js";
import { setupCharts, ingest, render, makeHeatmaps } from "./render.js";
import { template } from "./template.js";
import { STYLE } from "./style.js";
import { css as uplotCss } from "../../dist/vendor/uplot/uplot-css.js";
import {
  FIELDS, COMPARE_FIELDS, DEFAULT_SPEED, ATTRIBUTE_VIEW, ATTRIBUTE_ONLY, parseEntries, kebab, setField, toQuery,
} from "./state.js";
import { wireControls, FIELD_LABELS } from "./controls.js";
import { compareSpec, configsFor, SWEEP_FIELDS } from "./modes.js";
import { runSweep } from "./sweep-view.js";
import { readLinkedSpec, linkedSpecText } from "./spec-link.js";
import { ClusterDrawing } from "./cluster.js";
import { Tour } from "./tour.js";
import { wireSpecEditor } from "./spec-editor.js";
import * as rewind from "./rewind.js";
import { onWorkerMessage } from "./messages.js";
import { send, settleAll } from "./requests.js";

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


/**
 * The hotrow playground: a simulated MySQL Cluster whose hidden-key counter row throttles
 * it (Bug #39267), charted live while you turn its knobs.
 *
 * @summary A live, embeddable simulation of a hot counter row in a sharded cluster.
 * @fires {CustomEvent<HotrowSnapshotDetail>} hotrow-snapshot - after every drawn update: `{ tpm, insertsPerSecond, hotRowLockUtilization, refillsPerSecond, nowMs, compareRatio? }` (hotRowLockUtilization: the row that binds, the counter row unless a row of the workload's own is the bottleneck)
 * @fires {CustomEvent<HotrowStateChangeDetail>} hotrow-statechange - the state changed: `{ query }` reopens it as a URL query
 * @fires {CustomEvent<HotrowSweepResult[]>} hotrow-sweep - a sweep's results so far: one `{ index, value, ...metrics }` per run
 * @fires {CustomEvent<HotrowSweepDoneDetail>} hotrow-sweepdone - a sweep finished: `{ runs, workers, seconds }`, or null when cancelled
 * @fires {CustomEvent<HotrowStrategiesDoneDetail>} hotrow-strategiesdone - every id strategy ran: `{ runs, workers, seconds, results }`
 * @csspart error - the error message shown when a setting or the worker fails
 * @csspart figures - the row of headline figures
 * @csspart controls - the knobs
 * @csspart charts - the charts, heatmaps and bars
 * @csspart keys - the keyboard shortcuts' list
 * @cssprop --hotrow-accent - the first run's colour
 * @cssprop --hotrow-hot - the hot row's colour
 */
export class HotrowPlayground extends HTMLElement {
  static observedAttributes = [...Object.keys(FIELDS).map(kebab), ...ATTRIBUTE_VIEW];

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
    this.liveFields = []; // from the package: which fields Simulation.set takes while running
    this.requests = { last: 0, pending: new Map() }; // requests.js: id -> { type, resolve, reject }
    this.ready = false; // the worker said ready
    this.pool = null; // the sweep pool (sweep-view.js, strategies.js)
    this.encoding = null; // a spec being compressed into the link (spec-link.js)
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
    this.heatmaps = makeHeatmaps(this);
    this.cluster = new ClusterDrawing(this.$("canvas.cluster"), this.$(".cluster-panel"));
    this.tour = new Tour(this);
    // The render loop writes these every frame: look them up once.
    this.metricEls = Object.fromEntries(this.$$("[data-metric]").map((el) => [el.dataset.metric, el]));
    this.fillSelects();
    wireControls(this, FIELD_LABELS);
    wireSpecEditor(this);
    bindKeys(this);
    // Focusable, so that a click anywhere in it gives its shortcuts the keyboard.
    if (!this.hasAttribute("tabindex")) this.tabIndex = 0;
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
    this.tour?.end();
    this.pool?.cancel();
    this.worker?.terminate();
    this.worker = null;
    settleAll(this, new Error("hotrow: the playground was removed from the page"));
  }

  attributeChangedCallback() {
    if (!this.worker || this.reflecting) return;
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
    this.pendingFork = rewind.forkFromView(this);
    this.specLink = null;
    if (state.spec) {
      readLinkedSpec(this, state.spec); // starts the run once read
      return;
    }
    this.decoding = null;
    if (this.worker && this.ready) this.start();
  }

  /** The current state, for a shareable link (see state.js toQuery). */
  get state() {
    const f = this.forkInfo;
    if (f) {
      // A fork is its moment and its change: a link replays run A to there and forks again.
      const view = { mode: "live", speed: this.view.speed, forkField: f.field, forkValue: String(f.value), forkAtMs: f.atMs };
      return { config: this.overrides, view };
    }
    const view = { mode: this.view.mode, speed: this.view.speed };
    if (this.view.mode === "compare") Object.assign(view, this.compareSpec());
    if (this.tour?.active) view.tour = this.tour.index + 1;
    return { config: this.overrides, view };
  }

  get query() {
    return toQuery(this.state.config, this.state.view, linkedSpecText(this));
  }

  /** The state as a URL query once a spec of one's own is compressed into it (`query`
   * leaves the spec out until then); `{ query, error }` when the spec is too big for it. */
  async link() {
    linkedSpecText(this); // starts compressing a spec not compressed yet
    await this.encoding;
    return { query: this.query, error: this.specLink?.error };
  }

  // ---- worker protocol (messages.js) -----------------------------------------------------

  onWorker(m) {
    onWorkerMessage(this, m);
  }

  configs() {
    return configsFor(this.overrides, this.view);
  }

  compareSpec() {
    return compareSpec(this.view, this.overrides);
  }

  start() {
    if (!this.worker || !this.ready || this.decoding) return;
    if (this.view.tour && this.view.tour !== this.tour.index + 1) {
      this.tour.start(this.view.tour); // it loads the chapter's settings, which starts the run
      return;
    }
    this.forkInfo = null;
    this.showError(this.errors.join(" "));
    this.errors = [];
    this.applyMode();
    if (this.view.mode === "sweep" || this.view.mode === "strategies") {
      send(this, { type: "start", configs: [this.overrides], speed: this.view.speed, paused: true });
      return;
    }
    send(this, {
      type: "start", configs: this.configs(), speed: this.view.speed, paused: this.paused, pauseAtMs: this.view.pauseAtMs ?? null,
    });
    this.updatePlayButton();
    this.emitState();
  }

  // ---- rewind and fork (rewind.js) -------------------------------------------------------

  /**
   * Shows simulated time `ms` again (clamped to the time already run) and pauses there.
   * Resolves with the figures shown once the charts, heatmap and figures are at that time.
   */
  seek(ms) {
    return rewind.seek(this, ms);
  }

  /**
   * Forks at the moment shown: run B branches from it with `field` = `value` (a live
   * field), run A goes on unchanged, both drawn in compare mode. Resolves once shown.
   */
  fork(field, value) {
    return rewind.fork(this, field, value);
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
    if (live && this.view.mode !== "sweep" && this.view.mode !== "strategies" && !(this.view.mode === "compare" && field === this.compareSpec().compareField)) {
      send(this, { type: "set", field, value });
    } else {
      this.note(`${FIELD_LABELS[field] ?? field} changes the cluster: restarted from time 0.`);
      this.start();
    }
    this.emitState();
  }

  applyMode() {
    const mode = this.view.mode;
    // The `mode` attribute follows the mode shown (without restarting: see reflecting).
    if (this.getAttribute("mode") !== mode && (mode !== "live" || this.hasAttribute("mode"))) {
      this.reflecting = true;
      this.setAttribute("mode", mode);
      this.reflecting = false;
    }
    for (const tab of this.$$("[data-mode]")) tab.setAttribute("aria-pressed", String(tab.dataset.mode === mode));
    this.$(".compare-panel").hidden = mode !== "compare";
    for (const el of this.$$(".compare-only")) el.hidden = mode !== "compare";
    this.$(".sweep-panel").hidden = mode !== "sweep";
    this.$(".strategies-panel").hidden = mode !== "strategies";
    this.$(".live-panels").hidden = mode === "sweep" || mode === "strategies";
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

  // ---- data and charts (render.js) ----------------------------------------------------------

  /** Rebuilds the charts for the running simulations (`this.shape`: data nodes, partitions). */
  setupCharts() {
    setupCharts(this);
  }

  ingest(m) {
    ingest(this, m);
  }

  render() {
    render(this);
  }

  // ---- sweep ------------------------------------------------------------------------------

  runSweep() {
    runSweep(this);
  }

  cancelSweep() {
    this.pool?.cancel();
  }

  /** Runs every id strategy on the current cluster and workload (strategies.js). */
  runStrategies() {
    runStrategies(this);
  }
}

// Every attribute but ATTRIBUTE_ONLY is also a property (camelCase; `network-latency-us` is
// `networkLatencyUs`) that reads and writes it: setting one restarts as the attribute does.
for (const attr of HotrowPlayground.observedAttributes.filter((a) => !ATTRIBUTE_ONLY.includes(a))) {
  const prop = attr.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
  Object.defineProperty(HotrowPlayground.prototype, prop, {
    get() {
      return this.getAttribute(attr);
    },
    set(value) {
      if (value === null || value === undefined) this.removeAttribute(attr);
      else this.setAttribute(attr, String(value));
    },
    configurable: true,
  });
}

if (!customElements.get("hotrow-playground")) customElements.define("hotrow-playground", HotrowPlayground);

// The playground's controller: everything behind <hotrow-playground> (hotrow-playground.js,
// which holds one of these privately): its state, the worker, the render loop, and the
// modules it wires. Modules receive this object (`el` in their signatures), never the
// element; the element's public surface is only what hotrow-playground.js declares.
import { runStrategies } from "./strategies.js";
import { bindKeys } from "./keys.js";
import { setupCharts, ingest, render, makeHeatmaps } from "./render.js";
import { StateReads } from "./state-reads.js";
import { template } from "./template.js";
import { showFallback } from "./fallback.js";
import { STYLE } from "./style.js";
import { css as uplotCss } from "../../dist/vendor/uplot/uplot-css.js";
import {
  COMPARE_FIELDS, DEFAULT_SPEED, DEFAULT_PRESET, parseEntries, setField, toQuery,
} from "./state.js";
import { wireControls, FIELD_LABELS } from "./controls.js";
import { compareSpec, configsFor, SWEEP_FIELDS, sweepLabel } from "./modes.js";
import { runSweep } from "./sweep-view.js";
import { runFit, applyFit, predictFit, cancelFit, showFitInputs } from "./fit-view.js";
import { fitLink } from "./fit-link.js";
import { readLinkedSpec, linkedSpecText } from "./spec-link.js";
import { ClusterDrawing } from "./cluster.js";
import { Tour } from "./tour.js";
import { wireSpecEditor } from "./spec-editor.js";
import { showLinkedSql } from "./sql-editor.js";
import * as rewind from "./rewind.js";
import { initialState, nextState } from "./store.js";
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

export class Playground extends StateReads {
  /** @param {HTMLElement} host the <hotrow-playground> element it serves */
  // Every field of the controller is declared here, once; tests/js/controller.test.mjs
  // fails on a module that writes another. The state is `state` alone; what follows from
  // it is a getter (state-reads.js). The rest is not state: caches of what the worker sent
  // last, handles, and work or gestures in progress.
  constructor(host) {
    super();
    this.host = host;
    this.shadowRoot = host.shadowRoot;
    /** The one state (store.js): changed only through `update`. */
    this.state = initialState();

    // Caches: rebuilt from the worker's next messages, never read as the truth.
    this.series = []; // each run's windows kept for the charts (render.js ingest)
    this.seriesMetrics = []; // the metrics those series keep (render.js setupCharts)
    this.latest = null; // the last tick (render.js ingest)
    this.explained = []; // each run's last explanation (render.js ingest)
    this.figures = null; // the figures shown, as the latest hotrow-snapshot said (render.js)
    this.dirty = false; // a tick came since the last frame drew (render.js)
    this.chartsBehind = false; // the series hold windows the charts and heatmaps have not drawn, or the charts are new (render.js)
    this.whyShown = null; // what "Why this number" shows, so that an unchanged one is not redrawn (why.js)
    this.lastSweep = null; // the last results of each batch mode, for its downloads and links
    this.lastStrategies = null;
    this.lastFit = null; // (fit-view.js, fit-link.js)
    this.fitted = null; // the fit session behind lastFit, to run its curve again (fit-view.js)

    // Handles: the worker and its requests, the sweep pool, what the page draws into.
    this.worker = null;
    this.requests = { last: 0, pending: new Map() }; // requests.js: id -> { type, resolve, reject }
    this.pool = null; // the sweep pool (sweep-view.js, strategies.js)
    this.sweepWorkers = null; // how many workers a batch mode uses (null: one per core; sweep.js)
    this.$ = null; // querySelector and querySelectorAll in the shadow root, once connected
    this.$$ = null;
    this.metricEls = null; // the [data-metric] elements the render loop writes (looked up once)
    this.heatmaps = [];
    this.cluster = null;
    this.tour = null;
    this.throughputChart = null; // live mode's charts (render.js setupCharts)
    this.hotChart = null;
    this.latencyChart = null;
    this.charts = [];
    this.fitChart = null; // fit-view.js
    this.sweepChart = null; // sweep-view.js

    // Work and gestures in progress.
    this.errors = []; // messages to show at the next start
    this.frame = 0; // the render loop's animation frame
    this.attrTimer = 0; // attributes changed: a load on the next turn
    this.reflecting = false; // writing the state back to the attributes: not a change
    this.loaded = false; // the state was loaded once (attributes or a link)
    this.encoding = null; // a spec being compressed into the link, and for which spec (spec-link.js)
    this.encodingKey = null;
    this.decoding = null; // a link's spec being read (spec-link.js)
    this.specLink = null; // the compressed spec, or why it could not be (spec-link.js)
    this.pendingFork = null; // a link's fork, made once its run reaches the moment (rewind.js)
    this.dragging = false; // the time slider is held (controls.js)
    this.noteMode = null; // the mode the status line's note tells of, if one (note())
  }

  connect() {
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
    wireControls(this, FIELD_LABELS);
    showFitInputs(this);
    showLinkedSql(this);
    wireSpecEditor(this);
    bindKeys(this);
    // Focusable, so that a click anywhere in it gives its shortcuts the keyboard.
    if (!this.host.hasAttribute("tabindex")) this.host.tabIndex = 0;
    showFallback(this);
    if (!this.loaded) this.load(parseEntries(this.host.getAttributeNames().map((n) => [n, this.host.getAttribute(n)]), { kebabNames: true }));
    this.worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
    this.worker.onmessage = (e) => onWorkerMessage(this, e.data);
    this.worker.onerror = (e) => this.showError(`The simulation worker failed to load: ${e.message ?? "unknown error"}`);
    const loop = () => {
      this.frame = requestAnimationFrame(loop);
      if (this.dirty) this.render();
    };
    this.frame = requestAnimationFrame(loop);
  }

  disconnect() {
    cancelAnimationFrame(this.frame);
    this.tour?.end();
    this.pool?.cancel();
    this.pool?.stop(); // and its idle workers
    this.worker?.terminate();
    this.worker = null;
    settleAll(this, new Error("hotrow: the playground was removed from the page"));
  }

  attributesChanged() {
    if (!this.worker || this.reflecting) return;
    clearTimeout(this.attrTimer);
    this.attrTimer = setTimeout(() => {
      this.load(parseEntries(this.host.getAttributeNames().map((n) => [n, this.host.getAttribute(n)]), { kebabNames: true }));
      this.start();
    }, 0);
  }

  // ---- the state (store.js; its reads are StateReads' getters) ---------------------------

  /**
   * The one way the state changes (store.js `nextState`), then what follows from it: the
   * mode's tabs and attribute, the play button, the worker told of a pause or resume (unless
   * it paused itself: `fromWorker`) and of a new speed, and the run restarted (`restart`) or the URL told
   * (a `hotrow-statechange` event) when what a link carries changed.
   * @param {{ config?: object, view?: object, run?: object, tables?: object }} change
   * `replaceView`: the view given is the whole view (a load), not a change of it.
   * @param {{ restart?: boolean, fromWorker?: boolean, replaceView?: boolean }} [how]
   */
  update(change, { restart = false, fromWorker = false, replaceView = false } = {}) {
    const before = this.state;
    this.state = nextState(replaceView ? { ...before, view: /** @type {any} */ ({}) } : before, change);
    const now = this.state;
    if (!this.$) return; // not connected yet: connect() draws it all
    if (now.view.mode !== before.view.mode) this.applyMode();
    if (now.run.paused !== before.run.paused) {
      this.updatePlayButton();
      if (!fromWorker) send(this, { type: now.run.paused ? "pause" : "resume" });
    }
    // A new speed goes to the running worker; a (re)start or a load sends its own.
    if (now.view.speed !== before.view.speed && !restart && !replaceView) send(this, { type: "speed", value: now.view.speed });
    if (restart) this.start();
    else if (now.config !== before.config || now.view !== before.view) this.emitState();
  }

  /** Sets the whole state ({ config, view, errors }, as state.js parses it) and restarts. */
  load(state) {
    this.loaded = true;
    const errors = state.errors?.length ? [`Some settings were ignored: ${state.errors.join("; ")}.`] : [];
    const view = { mode: "live", speed: DEFAULT_SPEED, ...state.view };
    this.pendingFork = rewind.forkFromView(view, errors); // takes a link's fork out of the view
    this.update({ config: state.config ?? {}, view, run: { paused: this.host.hasAttribute("paused") } }, { replaceView: true });
    this.errors = errors;
    this.specLink = null;
    if (this.$) showFitInputs(this); // a link's points (the inputs keep edits between loads)
    if (this.$) showLinkedSql(this); // a link's SQL, in the editor's SQL tab
    if (state.spec) {
      readLinkedSpec(this, state.spec); // starts the run once read
      return;
    }
    this.decoding = null;
    if (this.worker && this.ready) this.start();
  }

  /** The state a link carries (see state.js toQuery). */
  get linkState() {
    const f = this.forkInfo;
    if (f) {
      // A fork is its moment and its change: a link replays run A to there and forks again.
      const view = { mode: "live", speed: this.view.speed, forkField: f.field, forkValue: String(f.value), forkAtMs: f.atMs };
      return { config: this.overrides, view };
    }
    const view = { mode: this.view.mode, speed: this.view.speed };
    if (this.view.mode === "compare") Object.assign(view, this.compareSpec());
    if (this.view.mode === "fit") Object.assign(view, fitLink(this.view));
    if (this.view.sql && typeof this.overrides.workload === "object") view.sql = this.view.sql; // the SQL its spec came from
    if (this.tour?.active) view.tour = this.tour.index + 1;
    return { config: this.overrides, view };
  }

  get query() {
    const { config, view } = this.linkState;
    return toQuery(config, view, linkedSpecText(this));
  }

  /** The state as a URL query once a spec of one's own is compressed into it (`query`
   * leaves the spec out until then); `{ query, error }` when the spec is too big for it. */
  async link() {
    linkedSpecText(this); // starts compressing a spec not compressed yet
    await this.encoding;
    return { query: this.query, error: this.specLink?.error };
  }

  configs() {
    return configsFor(this.overrides, this.view, this.baseConfig);
  }

  compareSpec() {
    return compareSpec(this.view, this.overrides, this.baseConfig);
  }

  start() {
    if (!this.worker || !this.ready || this.decoding) return;
    if (this.view.tour && this.view.tour !== this.tour.index + 1) {
      this.tour.start(this.view.tour); // it loads the chapter's settings, which starts the run
      return;
    }
    this.update({ run: { forked: null } });
    this.showError(this.errors.join(" "));
    this.errors = [];
    this.applyMode();
    if (this.batch) {
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
    this.$("#sweepField").replaceChildren(...SWEEP_FIELDS.map(([f]) => new Option(sweepLabel(f, FIELD_LABELS), f)));
  }

  /** The presets, their descriptions and the version come from the package (via the worker). */
  fillPresets(presets, version) {
    // The menu shows the name (a description would be cut); the one chosen is described
    // below it (syncControls, from the option's title).
    this.$("#preset").replaceChildren(...presets.map((p) => Object.assign(new Option(p.name, p.name), { title: p.description })));
    this.$("#preset").value = this.overrides.preset ?? DEFAULT_PRESET;
    this.$("#preset-about").textContent = this.$("#preset").selectedOptions[0]?.title ?? "";
    this.$(".version").textContent = `hotrow ${version}`;
  }

  /** A control changed `field`: live fields go to the running simulation, others restart it. */
  change(field, value) {
    const config = structuredClone(this.overrides);
    setField(config, field, value);
    const live = this.liveFields.includes(field.split(".")[0]);
    if (live && !this.batch && !(this.view.mode === "compare" && field === this.compareSpec().compareField)) {
      this.update({ config });
      send(this, { type: "set", field, value });
    } else {
      this.note(`${FIELD_LABELS[field] ?? field} changes the cluster: restarted from time 0.`);
      this.update({ config }, { restart: true });
    }
  }

  applyMode() {
    const mode = this.view.mode;
    // The `mode` attribute follows the mode shown (without restarting: see reflecting).
    if (this.host.getAttribute("mode") !== mode && (mode !== "live" || this.host.hasAttribute("mode"))) {
      this.reflecting = true;
      this.host.setAttribute("mode", mode);
      this.reflecting = false;
    }
    for (const tab of this.$$("[data-mode]")) tab.setAttribute("aria-pressed", String(tab.dataset.mode === mode));
    if (this.noteMode && this.noteMode !== mode) this.note("");
    this.$(".compare-panel").hidden = mode !== "compare";
    for (const part of this.$$(".compare-only")) part.hidden = mode !== "compare";
    this.$(".sweep-panel").hidden = mode !== "sweep";
    this.$(".strategies-panel").hidden = mode !== "strategies";
    this.$(".fit-panel").hidden = mode !== "fit";
    for (const panels of this.$$(".panels.live-panels")) panels.hidden = this.batch;
  }

  updatePlayButton() {
    const b = this.$(".play");
    b.textContent = this.paused ? "Play" : "Pause";
    b.setAttribute("aria-pressed", String(this.paused));
  }

  /** Says `text` in the status line; `mode`: the mode it tells of, whose leaving clears it. */
  note(text, mode = null) {
    this.$(".notice").textContent = text;
    this.noteMode = mode;
  }

  showError(text) {
    const e = this.$(".error");
    e.textContent = text;
    e.classList.toggle("shown", !!text);
  }

  emitState() {
    this.host.dispatchEvent(new CustomEvent("hotrow-statechange", { detail: { query: this.query }, bubbles: true, composed: true }));
  }

  // ---- data and charts (render.js) ----------------------------------------------------------

  /** Rebuilds the charts for the running simulations (`this.shape`: data nodes, partitions);
   * `keepSeries`: the same runs go on, keep what they drew. */
  setupCharts(options) {
    setupCharts(this, options);
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

  /** Fits the measured points of the Fit panel (fit-view.js). */
  runFit() {
    return runFit(this);
  }

  /** Puts the last fit's values into the running config. */
  predictFit() {
    return predictFit(this);
  }

  /** Cancels the fit or prediction under way, at any point of it. */
  cancelFit() {
    cancelFit(this);
  }

  applyFit() {
    applyFit(this);
  }

  /** A mode of runs on the pool (sweep, strategies, fit): one paused run, no live charts. */
  get batch() {
    return ["sweep", "strategies", "fit"].includes(this.view.mode);
  }
}

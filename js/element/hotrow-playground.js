// <hotrow-playground>: the hotrow playground as a custom element with Shadow DOM.
//
//   <script type="module" src="node_modules/hotrow/js/element/hotrow-playground.js"></script>
//   <hotrow-playground preset="bug39267" cache-size="1" data-nodes="8" compact></hotrow-playground>
//
// Attributes are the config fields in kebab-case (preset, seed, cache-size, data-nodes,
// hinted-refill, network-latency-us, ...) plus display options: `compact` (figures, one
// chart, a few controls), `figure` (the headline figures and the throughput chart alone),
// `mode` (live | compare | sweep | strategies | fit), `speed` (simulated ms per wall
// second), `paused`, `pause-at-ms`, `theme` (light | dark), `static-src` (a static
// figure's HTML, shown until the simulation runs; children do the same). Theme with CSS
// variables (--hotrow-bg, --hotrow-fg, --hotrow-accent, --hotrow-hot, --hotrow-font, ...).
// Live figures carry data-metric="insertsPerSecond" | "tpm" | "hotRowLockUtilization" | ...
// and every update dispatches a `hotrow-snapshot` event with them.
//
// This file is the element's whole public surface: its attributes (and their properties,
// defined below), `load`, `query`, `link`, `seek`, `fork`, `figures`, `effective` and its
// events. Everything else lives in a private `Playground` (playground.js).
import { FIELDS, ATTRIBUTE_VIEW, ATTRIBUTE_ONLY, kebab } from "./state.js";
import { Playground } from "./playground.js";

/** A page's registry of controllers, which only the project's browser tests create (their
 * harness, tests/browser/page.mjs `testHooks`): the element hands its controller to it when
 * it exists and otherwise to nothing. Not an API; the element has no other member than its
 * documented ones. */
const TEST_REGISTRY = Symbol.for("hotrow.testing.controllers");

/**
 * The hotrow playground: a simulated MySQL Cluster whose hidden-key counter row throttles
 * it (Bug #39267), charted live while you turn its knobs.
 *
 * @summary A live, embeddable simulation of a hot counter row in a sharded cluster.
 * @fires {CustomEvent<HotrowSnapshotDetail>} hotrow-snapshot - after every drawn update: `{ tpm, insertsPerSecond, hotRowLockUtilization, refillsPerSecond, nowMs, compareRatio?, compareAtMs? }` (hotRowLockUtilization: the SYSTAB_0 counter row's, the first table's when several take ids, as in the CLI and the JSON; bindingRowLockUtilization, present when a row of the workload's own tables, or another table's counter row, binds the latest window: that row's)
 * @fires {CustomEvent<HotrowStateChangeDetail>} hotrow-statechange - the state changed: `{ query }` reopens it as a URL query
 * @fires {CustomEvent<HotrowSweepResult[]>} hotrow-sweep - a sweep's results so far: one `{ index, value, ...metrics }` per run
 * @fires {CustomEvent<HotrowSweepDoneDetail>} hotrow-sweepdone - a sweep finished: `{ runs, workers, seconds }`, or null when cancelled
 * @fires {CustomEvent<HotrowStrategiesDoneDetail>} hotrow-strategiesdone - every id strategy ran: `{ runs, workers, seconds, results }`
 * @fires {CustomEvent<HotrowFitDoneDetail>} hotrow-fitdone - a fit finished (Fit mode): `{ fit, predictions, seconds, workers }` (`hotrow fit --json`'s fit and predictions)
 * @slot - a static figure (e.g. `hotrow report --fragment`), shown until the simulation runs and kept when WebAssembly cannot run; with JavaScript off the browser shows it as it is
 * @attr {boolean} compact - a small view: the headline figures, the throughput chart, a few controls and the explaining panels
 * @attr {boolean} figure - the headline figures and the throughput chart alone, a few hundred pixels tall (no control)
 * @attr static-src - the URL of a static figure's HTML, fetched and shown until the simulation runs (when the element has no children)
 * @csspart fallback - the static figure shown until the simulation runs
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

  /** @type {Playground} */
  #pg;

  constructor() {
    super();
    this.attachShadow({ mode: "open" });
    this.#pg = new Playground(this);
    globalThis[TEST_REGISTRY]?.set(this, this.#pg);
  }

  connectedCallback() {
    this.#pg.connect();
  }

  disconnectedCallback() {
    this.#pg.disconnect();
  }

  attributeChangedCallback() {
    this.#pg.attributesChanged();
  }

  /** Sets the whole state (`{ config, view, errors }`, as a URL query parses) and restarts. */
  load(state) {
    this.#pg.load(state);
  }

  /** The state as a URL query that reopens it (a spec of one's own once `link()` compressed it). */
  get query() {
    return this.#pg.query;
  }

  /** The state as a URL query once a spec of one's own is compressed into it: `{ query, error }`. */
  link() {
    return this.#pg.link();
  }

  /**
   * Shows simulated time `ms` again (clamped to the time already run) and pauses there.
   * Resolves with the figures shown once the charts, heatmap and figures are at that time.
   */
  seek(ms) {
    return this.#pg.seek(ms);
  }

  /**
   * Forks at the moment shown: run B branches from it with `field` = `value` (a live
   * field), run A goes on unchanged, both drawn in compare mode. Resolves once shown.
   */
  fork(field, value) {
    return this.#pg.fork(field, value);
  }

  /** The figures shown now (the latest `hotrow-snapshot` event's detail), or null before any. */
  get figures() {
    return this.#pg.figures ?? null;
  }

  /** The effective configs of the runs shown (two in compare mode): every field filled in. */
  get effective() {
    return this.#pg.effective;
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

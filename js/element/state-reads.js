// What the playground reads of its one state (store.js) and what follows from it, as
// getters: the controller (playground.js) extends this class, so a module reads
// `el.effective` or `el.open` and cannot write it (a getter without a setter throws).
// Nothing here is stored but `#derived`, a memo of what the getters below derive, kept
// while the state parts it came from are the same objects (they are frozen and replaced
// on change): a name list read twice is the same array, as `why.js` compares by identity.
import { primaryName, runNames } from "./render.js";

export class StateReads {
  /** @type {import("./store.js").State} */
  state;

  /** @type {Map<string, { from: unknown[], value: unknown }>} */
  #derived = new Map();

  /** `compute()`, again only when one of `from` (state parts) is another object than last time. */
  #memo(key, from, compute) {
    const last = this.#derived.get(key);
    if (last && last.from.every((x, i) => x === from[i])) return last.value;
    const value = compute();
    this.#derived.set(key, { from, value });
    return value;
  }

  /** The user's config input ({ preset, ...fields }). */
  get overrides() {
    return this.state.config;
  }

  get view() {
    return this.state.view;
  }

  get paused() {
    return this.state.run.paused;
  }

  /** The effective configs of the runs shown. */
  get effective() {
    return this.state.run.effective;
  }

  /** Runs started so far (the tour waits for its own). */
  get started() {
    return this.state.run.started;
  }

  /** The data node holding the counter row's primary replica, in the run started last. */
  get hotNode() {
    return this.state.run.hotRowNode;
  }

  /** The cluster running: { dataNodes, partitions }. */
  get shape() {
    return this.state.run.shape;
  }

  get nodes() {
    return this.shape.dataNodes;
  }

  /** The worker said ready: its tables are known. */
  get ready() {
    return this.state.tables !== null;
  }

  // The worker's tables (store.js `Tables`), empty until it is ready.
  get fieldTable() {
    return this.state.tables?.fields ?? [];
  }

  get metricTable() {
    return this.state.tables?.metrics ?? [];
  }

  get liveFields() {
    return this.state.tables?.liveFields ?? [];
  }

  get workloadSpecs() {
    return this.state.tables?.workloads ?? [];
  }

  // What the runs shown are, derived from them (render.js draws by these).

  /** One run with open arrivals: offered and achieved are drawn together. */
  get open() {
    return this.effective.length === 1 && this.effective[0].arrivalRatePerApiNode > 0;
  }

  /** Range partitioning: the heatmap shows partitions, not data nodes. */
  get byPartition() {
    return this.effective[0]?.partitioning === "range";
  }

  /** The metric the throughput chart leads with. */
  get primaryName() {
    return this.#memo("primaryName", [this.state.run, this.state.tables], () => primaryName(this));
  }

  /** Runs A and B's names in compare mode, else null. */
  get runNames() {
    const { run, view, config } = this.state;
    return this.#memo("runNames", [run, view, config], () => (this.effective.length === 2 ? runNames(this) : null));
  }

  /** The effective config of the last single run (what run A of a compare keeps). */
  get baseConfig() {
    return this.state.run.base ?? {};
  }

  /** Run B's fork ({ field, value, was, atMs }) while one is shown, else null. */
  get forkInfo() {
    return this.state.run.forked;
  }
}

// The playground's state, declared once. `Playground.state` holds it and
// `Playground.update(change)` is the only way it changes: every part is frozen, so a module
// that writes to it instead throws at once. What the page shows follows from it in
// `update` (the mode's tabs and attribute, the play button, the URL, the worker's pause and
// speed).
import { DEFAULT_SPEED } from "./state.js";

/**
 * @typedef {object} View  How the state is shown (a link carries it).
 * @property {string} mode  live | compare | sweep | strategies | fit
 * @property {number} speed  simulated ms per wall second
 * @property {string} [compareField]  compare mode: the field runs A and B differ in...
 * @property {string} [compareA]  ...and their values, as text
 * @property {string} [compareB]
 * @property {number} [tour]  the tour's chapter shown, 1-based
 * @property {number} [pauseAtMs]  the run pauses itself at this simulated time
 * @property {string} [sql]  the SQL the running spec was imported from, packed (sql-editor.js)
 */

/**
 * @typedef {object} Run  What runs now (the worker reports it).
 * @property {boolean} paused
 * @property {object[]} effective  the effective configs of the runs shown (every field filled in)
 * @property {{ field: string, value: unknown, was: unknown, atMs: number } | null} forked  run B is a fork of run A
 * @property {object | null} base  the effective config of the last single run: the values run A of a compare keeps
 * @property {number} started  runs started so far (the tour waits for its own)
 * @property {number} hotRowNode  the data node holding the counter row's primary replica
 * @property {object[]} facts  each run's facts as the core gave them at its start (`snapshot().facts`: its headline figure, whether the bug report's lines apply)
 * @property {{ dataNodes: number, partitions: number }} shape  the cluster running
 */

/**
 * @typedef {object} Tables  What the worker's package knows, as it said when ready: the
 * tables every label, range and rule of the page comes from (empty until then).
 * @property {object[]} fields  the config fields (`fields()`)
 * @property {object[]} metrics  the metrics (`metrics()`)
 * @property {string[]} liveFields  the fields a running simulation takes (`liveFields()`)
 * @property {object[]} workloads  the shipped workload specs (`workloads()`)
 */

/**
 * @typedef {object} State
 * @property {Readonly<Record<string, any>>} config  the user's config input: `{ preset, ...fields }` (a link carries it)
 * @property {Readonly<View>} view
 * @property {Readonly<Run>} run
 * @property {Readonly<Tables> | null} tables  null until the worker is ready
 */

/** @returns {State} */
export const initialState = () => freeze({
  config: {},
  view: { mode: "live", speed: DEFAULT_SPEED },
  run: { paused: false, effective: [], forked: null, base: null, started: 0, hotRowNode: -1, facts: [], shape: { dataNodes: 0, partitions: 0 } },
  tables: null,
});

/**
 * The state after `change`: `config` replaces the config input (a copy, so the caller's
 * object stays its own), `view` and `run` are merged into theirs (a key set to undefined
 * is removed), `tables` replaces them. Parts not named are the same objects as before.
 * @param {State} before
 * @param {{ config?: object, view?: Partial<View>, run?: Partial<Run>, tables?: Tables }} change
 * @returns {State}
 */
export function nextState(before, { config, view, run, tables }) {
  const merge = (old, patch) => Object.fromEntries(Object.entries({ ...old, ...patch }).filter(([, v]) => v !== undefined));
  return {
    config: config === undefined ? before.config : freeze(structuredClone(config)),
    view: view === undefined ? before.view : /** @type {View} */ (Object.freeze(merge(before.view, view))),
    run: run === undefined ? before.run : /** @type {Run} */ (Object.freeze(merge(before.run, run))),
    tables: tables === undefined ? before.tables : Object.freeze({ ...tables }),
  };
}

/** Freezes `o` and every object in it. */
function freeze(o) {
  if (o && typeof o === "object" && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) freeze(v);
  }
  return o;
}

// Answers that travel, for JavaScript: `report` writes a run as one HTML page with no
// script and no outside resource (inline CSS, its figures as inline SVG beside their
// numbers), the bytes `hotrow report` writes for the same config, through the report's own
// WebAssembly module (crate/report-wasm, built into dist/report). The module is loaded the
// first time a report is asked for, so the main module every embed loads does not grow.
import { lazyModule } from "./lazy-module.js";
import { setField } from "./element/state.js";
import { remedies as remediesOf } from "./remedies.js";
import { Simulation } from "../dist/web/hotrow.js";
import reportInit, * as rep from "../dist/report/hotrow_report.js";

const wasmModule = lazyModule(reportInit, rep);

/** js/node.mjs's hook: instantiate the module with `f(glue)` (the glue's exports) instead. */
export const instantiateReportWith = (f) => wasmModule.instantiateWith(f);

/** Loads the module once (a failed load is tried again next call). */
const load = () => wasmModule.load();

/**
 * A run's report as HTML text. `source` is a config (run to its end here, as `hotrow report`
 * runs it) or a `Simulation` (its run so far, left as it is). `options`: `{ fragment?: true }`
 * for the report's block alone, `{ svg: "throughput" | "nodes" | "heatmap" }` for one figure
 * as an SVG file, `{ remedies: true }` (a config only) for the table of what each standard
 * remedy lifts it to, each run from the start. In a browser, after `init()`. Rejects with the
 * reason when the config or an option is refused.
 */
export async function report(source, options = {}) {
  // A Simulation is known by what the report reads of it; a config makes one (the main
  // module's glue, already instantiated by init() or js/node.mjs).
  const given = typeof source?.summary === "function" && typeof source?.windowsCsv === "function";
  const { remedies = false, ...rest } = options ?? {};
  if (remedies !== false && remedies !== true) throw new Error(`options.remedies = ${JSON.stringify(remedies)}: true or false`);
  if (remedies && given) throw new Error("options.remedies: give report() a config, not a Simulation: each remedy runs that config from the start, changed");
  const sim = given ? source : new Simulation(source);
  try {
    if (!given) sim.runToEnd();
    const runs = remedies ? await runRemedies(Simulation, source, sim) : undefined;
    return await reportOf(sim.summary(), sim.windowsCsv(), runs ? { ...rest, remedies: runs } : rest);
  } finally {
    if (!given) sim.free();
  }
}

/** Each standard remedy for the run's bottleneck, run from the start with `config` changed as
 * it says (`hotrow report --remedies`' runs): `{ label, summary }`, or `{ label, error }`. */
async function runRemedies(Simulation, config, sim) {
  const list = await remediesOf(config, sim.explain());
  return list.map(({ label, set }) => {
    let changed;
    try {
      changed = structuredClone(config);
      for (const [field, value] of Object.entries(set)) setField(changed, field, value);
    } catch (e) {
      return { label, error: `cannot be set: ${e.message}` };
    }
    let run;
    try {
      run = new Simulation(changed);
      run.runToEnd();
      return { label, summary: run.summary() };
    } catch (e) {
      return { label, error: e.message };
    } finally {
      run?.free();
    }
  });
}

/** The report of a run given as its summary (the object `summary()` gives) and its windows
 * (the CSV `windowsCsv()` gives): what the playground's "Report" button saves. */
export async function reportOf(summary, windowsCsv, options = {}) {
  const m = await load();
  const answer = JSON.parse(m.report(JSON.stringify(summary), windowsCsv, JSON.stringify(options ?? {})));
  if (answer.error) throw new Error(answer.error);
  return answer.html;
}

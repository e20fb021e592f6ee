// The bottleneck's standard remedies, for JavaScript: what `hotrow run --remedies` runs,
// through the fit's WebAssembly module (js/fit-module.js), loaded the first time remedies
// are asked for: the full playground's "What would lift it" buttons and
// `report(config, { remedies: true })` ask; a compact embed never does.
import { fitModule } from "./fit-module.js";

/** js/node.mjs's hook: instantiate the module with `f(glue)` (the glue's exports) instead. */
export const instantiateRemediesWith = (f) => fitModule.instantiateWith(f);

/**
 * The standard remedies for a run of `config` (a config as `new Simulation()` takes it, or
 * its effective config, `sim.config()`) whose explanation is `explanation` (what
 * `sim.explain()` gives): `[{ label, set: { field: value }, warning }]`, each a change to
 * try (none when nothing in the run can be relieved). Rejects when either is not what it says.
 */
export async function remedies(config, explanation) {
  const m = await fitModule.load();
  return JSON.parse(m.remedies(JSON.stringify(config), JSON.stringify(explanation)));
}

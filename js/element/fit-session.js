// The fit in the browser: the fit's own WebAssembly module (js/fit-module.js), loaded the
// first time the Fit mode fits, holds the session (the search, the intervals, the USL:
// `hotrow fit`'s one implementation); the runs it asks for go to the sweep pool's workers,
// which run them with the main module. Values cross the fit module as JSON text.
import { fitModule } from "../fit-module.js";

/**
 * A fit session on `base` (a config) for the measured `csv`, fitting `options.fit` (field
 * names); throws the session's error (a bad point, an unknown field) before anything runs.
 */
export async function openFit(base, csv, options) {
  const { FitSession } = await fitModule.load();
  const s = new FitSession(JSON.stringify(base), csv, JSON.stringify(options));
  return {
    /** The measured metric's name in the metric table: what each result's value is. */
    metric: s.metric,
    next: () => JSON.parse(s.next()),
    tell: (sets) => s.tell(JSON.stringify(sets)),
    progress: () => JSON.parse(s.progress()),
    /** Takes back a fit (as `next` gave it) of these points and fields; throws for another's. */
    reopen: (fit) => s.reopen(JSON.stringify(fit)),
    predictionConfigs: (grid) => JSON.parse(s.predictionConfigs(JSON.stringify(grid))),
    predictions: (results) => JSON.parse(s.predictions(JSON.stringify(results))),
    free: () => s.free(),
  };
}

/** What the session hears of a run (a sweep result): the metric's value and the bottleneck. */
export const runResult = (r, metric) => ({ value: Number(r[metric] ?? 0), bottleneck: r.bottleneck?.name ?? null });

/**
 * Drives `session` to its end: each set of configs it asks for goes to `run(configs)`
 * (resolving with one `{ value, bottleneck }` per config, in order, or null when
 * cancelled), `onProgress(progress)` hears each step. Resolves with the fit, or null.
 */
export async function drive(session, run, onProgress) {
  for (;;) {
    const step = session.next();
    if (step.type === "done") return step.fit;
    const results = await run(step.sets.flatMap((s) => s.configs));
    if (!results) return null;
    let k = 0;
    session.tell(step.sets.map((s) => results.slice(k, (k += s.configs.length))));
    onProgress(session.progress());
  }
}

// How long the playground's batch runs are, in one table: the config fields each mode sets on
// top of the user's settings for every run it makes on the sweep pool. A run with a
// `precision` stops as soon as the 95% interval of its `precisionMetric` is that close
// (docs/MODEL.md §5), `durationMs` at most; its figures carry the summary's intervals.

export const RUN_LENGTHS = {
  /** Every strategy at once: each run as long as its inserts/s needs to be within 2%, on
   * 20 ms windows (ten of them are the least a run measures), after 400 ms of warm-up
   * (late in which the API node restart happens: `restartAt`), 1 s at most. */
  strategies: { warmupMs: 400, durationMs: 1000, windowMs: 20, precision: 0.02, precisionMetric: "insertsPerSecond" },
  /** A sweep point: until its plotted figure is known within 2% (the sweep sets which:
   * `precisionMetric`), at least ten windows (1 s at the default 100 ms) and at most 3 s
   * measured after 1 s of warm-up. */
  sweep: { warmupMs: 1000, durationMs: 3000, precision: 0.02 },
  /** A fit's run: 0.75 s measured after 0.25 s of warm-up (the CLI's `--set durationMs=750
   * --set warmupMs=250` on the same settings gives the same fit to the last digit). The bug
   * report's two DBT2 points fit in 2.4 s in the CLI this way (3.6 s with 1 s after 0.5 s),
   * to cpu.scale 1.046 (1.038 with the longer runs; 1.00 at the preset's own lengths, 2 s
   * warm-up and 10 s measured). Runs this short measure DBT2 from cold, before its
   * transient ends at about 2 s (MSER-5): they read about 4% more TPM than long runs, and
   * the fit comes out that much above the preset's calibration. A quick answer; `hotrow fit`
   * at the preset's lengths is the careful one. */
  fit: { warmupMs: 250, durationMs: 750 },
};

/** `overrides` with mode `mode`'s run length. */
export const withRunLength = (overrides, mode) => ({ ...structuredClone(overrides), ...RUN_LENGTHS[mode] });

const sec = (ms) => (ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`);

/** Mode `mode`'s run length in words, as the panels say it. */
export function describeRunLength(mode) {
  const r = RUN_LENGTHS[mode];
  if (!r.precision) return `${sec(r.durationMs)} measured after ${sec(r.warmupMs)} of warm-up`;
  // The least a run with a precision measures: 10 windows (docs/MODEL.md §5).
  const figure = r.precisionMetric === "insertsPerSecond" ? "its inserts/s" : "its figure";
  const least = r.windowMs ? sec(10 * r.windowMs) : "ten windows";
  return `until ${figure} is known within ${r.precision * 100}% (95% interval), at least ${least} and at most ${sec(r.durationMs)} measured after ${sec(r.warmupMs)} of warm-up`;
}

// Runs in a browser's module Web Worker for scripts/bench-js.mjs: the same scenario the
// Node side runs, timed inside the worker, as the playground's worker runs it. With
// `seconds`, it runs as the playground's worker does at top speed instead (runFor in slices
// of its event budget, no end) and times the slices after the first `skipSeconds`: the
// same phase of the run the playground is read in, so that the two compare.
import { init, Simulation } from "../js/index.js";
import { timeRuns } from "./bench-runs.js";

const SLICE_EVENTS = 400_000; // js/element/worker.js's MAX_EVENTS_PER_TICK

onmessage = async ({ data: { config, reps, seconds, skipSeconds } }) => {
  await init();
  if (!seconds) {
    postMessage(timeRuns(Simulation, config, reps));
    return;
  }
  const sim = new Simulation(config);
  const start = performance.now();
  let from = null;
  let events = 0;
  while (performance.now() - start < seconds * 1000) {
    const r = sim.runFor(60_000, SLICE_EVENTS);
    if (from !== null) events += r.events;
    else if (performance.now() - start >= skipSeconds * 1000) from = performance.now();
  }
  postMessage({ eventsPerSecond: (events / (performance.now() - from)) * 1000 });
  sim.free();
};

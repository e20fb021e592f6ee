// Runs in a browser's module Web Worker for scripts/bench-js.mjs: the same scenario the
// Node side runs, timed inside the worker, as the playground's worker runs it.
import { init, Simulation } from "../js/index.js";

onmessage = async ({ data: { config, reps } }) => {
  await init();
  const results = [];
  for (let i = 0; i < reps; i++) {
    const sim = new Simulation(config);
    const t = performance.now();
    const r = sim.runToEnd();
    results.push({ events: r.events, ms: performance.now() - t, digest: sim.summary().digest });
    sim.free();
  }
  postMessage(results);
};

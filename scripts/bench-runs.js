// Times `reps` runs of one scenario to its end with the given `Simulation` class: the one
// measurement scripts/bench-js.mjs makes in Node and, through scripts/bench-worker.js, in
// a browser's Web Worker.
export function timeRuns(Simulation, config, reps) {
  const results = [];
  for (let i = 0; i < reps; i++) {
    const sim = new Simulation(config);
    const t = performance.now();
    const r = sim.runToEnd();
    results.push({ events: r.events, ms: performance.now() - t, digest: sim.summary().digest });
    sim.free();
  }
  return results;
}

// Runs in a browser's module Web Worker for scripts/bench-js.mjs: the same scenario the
// Node side runs, timed inside the worker, as the playground's worker runs it.
import { init, Simulation } from "../js/index.js";
import { timeRuns } from "./bench-runs.js";

onmessage = async ({ data: { config, reps } }) => {
  await init();
  postMessage(timeRuns(Simulation, config, reps));
};

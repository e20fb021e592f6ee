// `npm run bench:js`: WebAssembly speed in Node and in a Chromium Web Worker (where the
// playground runs it), same scenarios, best of a few runs, as events/s and the ratio
// browser / Node. A benchmark, not a test: it prints, it asserts nothing.
import { Simulation } from "hotrow";
import { fileURLToPath } from "node:url";
import { serve } from "../tests/browser/server.mjs";
import { launch } from "../tests/browser/browser.mjs";
import { timeRuns } from "./bench-runs.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const reps = 3;
const scenarios = [
  { preset: "bug39267", durationMs: 2000, warmupMs: 200 },
  { preset: "modern", durationMs: 300, warmupMs: 100 },
];

function best(results) {
  const r = results.reduce((a, b) => (b.ms < a.ms ? b : a));
  return { eventsPerSecond: (r.events / r.ms) * 1000, digest: r.digest };
}

const server = await serve(root);
const browser = await launch();
const page = await browser.newPage();
await page.goto(`${server.origin}/tests/browser/plain.html`);
console.log("scenario              Node M events/s   browser M events/s   browser/Node   same digest");
for (const config of scenarios) {
  const node = timeRuns(Simulation, config, reps);
  const inBrowser = await page.evaluate(({ config, reps }) => new Promise((ok, fail) => {
    const w = new Worker("/scripts/bench-worker.js", { type: "module" });
    w.onmessage = (e) => { ok(e.data); w.terminate(); };
    w.onerror = (e) => fail(new Error(e.message));
    w.postMessage({ config, reps });
  }), { config, reps });
  const n = best(node);
  const b = best(inBrowser);
  console.log(`${config.preset.padEnd(20)} ${(n.eventsPerSecond / 1e6).toFixed(2).padStart(17)} ${(b.eventsPerSecond / 1e6).toFixed(2).padStart(20)} ${(b.eventsPerSecond / n.eventsPerSecond).toFixed(2).padStart(14)}   ${n.digest === b.digest}`);
}
await browser.close();
await server.close();

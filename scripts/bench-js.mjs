// `npm run bench:js`: WebAssembly speed in Node and in a Chromium Web Worker (where the
// playground runs it), same scenarios, best of a few runs, as events/s and the ratio
// browser / Node; the playground at top speed; the Strategies and Fit modes' wall time (issue
// 40: at most 4 s and 5 s on two workers). A benchmark, not a test: it prints, it asserts nothing.
import { Simulation } from "hotrow";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
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
const workerRate = {};
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
  workerRate[config.preset] = b.eventsPerSecond;
  console.log(`${config.preset.padEnd(20)} ${(n.eventsPerSecond / 1e6).toFixed(2).padStart(17)} ${(b.eventsPerSecond / 1e6).toFixed(2).padStart(20)} ${(b.eventsPerSecond / n.eventsPerSecond).toFixed(2).padStart(14)}   ${n.digest === b.digest}`);
}

// The playground itself at its top speed: its own engine meter (events per wall second,
// ticks, drawing and messages included), sampled once a second after a warm-up, against
// the bare worker above. The page shares the machine's cores with the worker.
await page.close();
const site = await serve(join(root, "www/dist"));
const parse = (t) => parseFloat(t) * (t.endsWith("M") ? 1e6 : t.endsWith("k") ? 1e3 : 1);
console.log("\nplayground at top speed   M events/s (median of 8 s)   of the bench worker's   page ms per render   renders/s");
for (const config of scenarios) {
  const p = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  await p.goto(`${site.origin}/?preset=${config.preset}`);
  await p.waitForTimeout(1500);
  const meter = () => p.evaluate(() => document.querySelector("hotrow-playground").shadowRoot.querySelector('[data-metric="eventsPerSecond"]').textContent);
  await p.evaluate(() => {
    const host = document.querySelector("hotrow-playground");
    const s = host.shadowRoot.querySelector("#speed");
    s.value = s.max;
    s.dispatchEvent(new Event("input"));
    // The page's own work per tick shown: its main thread in render (figures, charts,
    // heatmap, bars, the cluster), timed around the element's render.
    const el = host[Symbol.for("hotrow.playground.internals")];
    const render = el.render.bind(el);
    el.render = () => {
      const t = performance.now();
      render();
      window.renderTime = { ms: (window.renderTime?.ms ?? 0) + performance.now() - t, n: (window.renderTime?.n ?? 0) + 1 };
    };
  });
  await p.waitForTimeout(3000);
  await p.evaluate(() => (window.renderTime = { ms: 0, n: 0 }));
  const reads = [];
  for (let i = 0; i < 8; i++) {
    await p.waitForTimeout(1000);
    reads.push(parse(await meter()));
  }
  reads.sort((a, b) => a - b);
  const median = (reads[3] + reads[4]) / 2;
  const r = await p.evaluate(() => window.renderTime);
  console.log(`${config.preset.padEnd(25)} ${(median / 1e6).toFixed(2).padStart(28)} ${(median / workerRate[config.preset]).toFixed(2).padStart(23)} ${(r.ms / r.n).toFixed(1).padStart(20)} ${(r.n / 8).toFixed(1).padStart(11)}`);
  await p.close();
}
// The Strategies mode on a lab preset: every strategy, each run as long as its own figure
// needs (js/element/run-lengths.js), on two workers; wall seconds as the page reports them.
console.log("\nstrategies mode (two workers)   runs   wall s   measured ms per run");
for (const preset of ["ndb-autoincrement", "ndbapi-hidden-pk"]) {
  const p = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  await p.goto(`${site.origin}/?preset=${preset}&mode=strategies`);
  await p.waitForFunction(() => document.querySelector("hotrow-playground")[Symbol.for("hotrow.playground.internals")]?.ready);
  const seconds = [];
  let detail;
  for (let rep = 0; rep < reps; rep++) {
    detail = await p.evaluate(() => new Promise((ok) => {
      const pg = document.querySelector("hotrow-playground");
      pg[Symbol.for("hotrow.playground.internals")].sweepWorkers = 2;
      pg.addEventListener("hotrow-strategiesdone", (e) => ok(e.detail), { once: true });
      pg.shadowRoot.querySelector(".strategies-run").click();
    }));
    seconds.push(detail.seconds);
  }
  const measured = detail.results.map((r) => Math.round(r.simulatedSeconds * 1000));
  console.log(`${preset.padEnd(30)} ${String(detail.runs).padStart(6)} ${Math.min(...seconds).toFixed(2).padStart(8)}   ${measured.join(" ")}`);
  await p.close();
}
// Fit mode on the bug report's two DBT2 points (the panel's example), two workers.
{
  const p = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  await p.goto(`${site.origin}/?mode=fit`);
  await p.waitForFunction(() => document.querySelector("hotrow-playground")[Symbol.for("hotrow.playground.internals")]?.ready);
  const seconds = [];
  for (let rep = 0; rep < reps; rep++) {
    const detail = await p.evaluate(() => new Promise((ok) => {
      const pg = document.querySelector("hotrow-playground");
      pg[Symbol.for("hotrow.playground.internals")].sweepWorkers = 2;
      pg.addEventListener("hotrow-fitdone", (e) => ok(e.detail), { once: true });
      pg.shadowRoot.querySelector(".fit-run").click();
    }));
    seconds.push(detail.seconds);
  }
  console.log(`\nfit mode, the bug report's two points (two workers): ${Math.min(...seconds).toFixed(2)} s (best of ${reps}; runs and curve included)`);
  await p.close();
}
await site.close();
await browser.close();
await server.close();

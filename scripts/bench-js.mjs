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

// The playground itself at its top speed, against a bare worker read in the same phase of
// the run (scripts/bench-worker.js with `seconds`: runFor in the playground's slices, timed
// from the same second on). Pairs alternate, so the machine's drift touches both alike.
// Quieter than either rate: the share of the playground worker's wall time that was the
// engine's own work (engine.spent), and the page's main thread per render.
await page.close();
const site = await serve(join(root, "www/dist"));
const SKIP_S = 4.5;
const READ_S = 8;
async function bare(config) {
  const p = await browser.newPage();
  await p.goto(`${server.origin}/tests/browser/plain.html`);
  const r = await p.evaluate((msg) => new Promise((ok, fail) => {
    const w = new Worker("/scripts/bench-worker.js", { type: "module" });
    w.onmessage = (e) => { ok(e.data); w.terminate(); };
    w.onerror = (e) => fail(new Error(e.message));
    w.postMessage(msg);
  }), { config: { preset: config.preset, durationMs: 86_400_000, warmupMs: config.warmupMs }, seconds: SKIP_S + READ_S, skipSeconds: SKIP_S });
  await p.close();
  return r.eventsPerSecond;
}
async function playground(config) {
  const p = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const started = Date.now();
  await p.goto(`${site.origin}/?preset=${config.preset}`);
  await p.waitForFunction(() => document.querySelector("hotrow-playground")[Symbol.for("hotrow.playground.internals")]?.latest);
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
  await p.waitForTimeout(Math.max(0, SKIP_S * 1000 - (Date.now() - started)));
  const spent = () => p.evaluate(() => document.querySelector("hotrow-playground")[Symbol.for("hotrow.playground.internals")].latest.engine.spent);
  const a = await spent();
  await p.evaluate(() => (window.renderTime = { ms: 0, n: 0 }));
  await p.waitForTimeout(READ_S * 1000);
  const b = await spent();
  const r = await p.evaluate(() => window.renderTime);
  await p.close();
  const d = Object.fromEntries(Object.keys(a).map((k) => [k, b[k] - a[k]]));
  return { eventsPerSecond: (d.events / d.wallMs) * 1000, engine: d.engineMs / d.wallMs, timeline: d.timelineMs / d.wallMs,
    publish: d.publishMs / d.wallMs, renderMs: r.ms / r.n, renders: r.n / READ_S };
}
console.log("\nplayground at top speed   bare worker M ev/s   playground M ev/s   ratio   worker: engine / timeline / message   page ms per render   renders/s");
for (const config of scenarios) {
  for (let pair = 0; pair < reps; pair++) {
    const b = await bare(config);
    const p = await playground(config);
    const share = [p.engine, p.timeline, p.publish].map((x) => x.toFixed(3)).join(" / ");
    console.log(`${config.preset.padEnd(25)} ${(b / 1e6).toFixed(2).padStart(18)} ${(p.eventsPerSecond / 1e6).toFixed(2).padStart(19)} ${(p.eventsPerSecond / b).toFixed(2).padStart(7)}   ${share.padStart(35)} ${p.renderMs.toFixed(1).padStart(20)} ${p.renders.toFixed(1).padStart(11)}`);
  }
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

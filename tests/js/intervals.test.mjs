// summary().intervals: the 95% interval of every figure that is a mean over the measured
// period, by batch means, the same natively and in wasm; its metrics are the metric
// table's `interval` ones (and index.d.ts's IntervalMetric names exactly those).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { Simulation, metrics } from "../../js/node.mjs";
import { hotrowBin } from "../hotrow.mjs";

const bin = hotrowBin;

test("the intervals' metrics are the table's interval metrics, as index.d.ts names them", () => {
  const table = metrics().filter((m) => m.interval).map((m) => m.name).sort();
  const dts = readFileSync(new URL("../../js/summary.d.ts", import.meta.url), "utf8");
  const union = dts.match(/export type IntervalMetric =([^;]+);/)[1].match(/"([a-zA-Z]+)"/g).map((q) => q.slice(1, -1)).sort();
  assert.deepEqual(union, table);
  const sim = new Simulation({ preset: "bug39267", durationMs: 2000, warmupMs: 500 });
  sim.runToEnd();
  const { intervals } = sim.summary();
  sim.free();
  assert.deepEqual(Object.keys(intervals.metrics).sort(), table.filter((n) => !["offeredPerSecond", "waitingMean"].includes(n)), "DBT2, closed loops");
  assert.equal(intervals.batches, 20);
  assert.equal(intervals.windows, intervals.batches * intervals.windowsPerBatch);
});

test("wasm and the CLI give the same intervals for one config; a short run has none", () => {
  const config = { preset: "ndbapi-hidden-pk", durationMs: 1500, warmupMs: 300, seed: 7 };
  const sim = new Simulation(config);
  sim.runToEnd();
  const wasm = sim.summary().intervals;
  sim.free();
  const r = spawnSync(bin, ["run", "--json", "--preset", "ndbapi-hidden-pk", "--set", "durationMs=1500", "--set", "warmupMs=300", "--set", "seed=7"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(wasm, JSON.parse(r.stdout).intervals);
  assert.equal(wasm.batches, 15, "15 measured windows: one batch each");
  const short = new Simulation({ preset: "ndbapi-hidden-pk", durationMs: 900, warmupMs: 0 });
  short.runToEnd();
  assert.equal(short.summary().intervals, null, "9 windows: too few");
  short.free();
});

test("a run with a precision and a detected warm-up stops at the same event in wasm, in any slices, as natively", () => {
  const config = { preset: "bug39267", durationMs: 12000, warmupMs: 1000, precision: 0.03, precisionMetric: "tpm", warmup: "auto" };
  const whole = new Simulation(config);
  assert.equal(whole.runToEnd().reached, true);
  const sliced = new Simulation(config);
  let calls = 0;
  while (!sliced.runToEnd(20_000).reached) calls++;
  const [a, b] = [whole.summary(), sliced.summary()];
  whole.free();
  sliced.free();
  assert.ok(calls > 10, `sliced in ${calls} calls`);
  assert.equal(a.digest, b.digest);
  assert.equal(a.events, b.events);
  const r = spawnSync(bin, ["run", "--json", "--preset", "bug39267", "--set", "durationMs=12000", "--set", "warmupMs=1000", "--precision", "0.03", "--precision-metric", "tpm", "--warmup", "auto"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const native = JSON.parse(r.stdout);
  assert.deepEqual([native.digest, native.events, native.precision, native.warmup], [a.digest, a.events, a.precision, a.warmup]);
  assert.equal(a.warmup.decided, true);
  assert.ok(a.warmup.truncationMs >= 1000 && a.warmup.measuredFromMs >= a.warmup.truncationMs, JSON.stringify(a.warmup));
  assert.equal(a.precision.converged, true);
  assert.ok(a.precision.reached <= 0.03 && a.simulatedSeconds < 12, `stopped after ${a.simulatedSeconds} s at ± ${a.precision.reached}`);
  assert.ok(Math.abs(a.intervals.metrics.tpm.relative - a.precision.reached) < 1e-12, "the summary's interval is the one the stop read");
});

// The worker's checkpoint timeline (js/element/timeline.js) over the real package in Node:
// memory stays within its budget, a seek anywhere equals a fresh run to that time, and a
// change truncates the recorded future.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Simulation, memoryBytes } from "hotrow";
import { Timeline, branch } from "../../js/element/timeline.js";

const config = { preset: "bug39267", durationMs: 3000, warmupMs: 0 };

/** Runs `sims` for `ms` in ticks of 37 ms, recording each tick as the worker does. */
function play(timeline, sims, ms) {
  const end = sims[0].nowMs + ms;
  while (sims[0].nowMs < end) {
    const step = Math.min(37, end - sims[0].nowMs);
    let events = 0;
    for (const s of sims) events += s.runFor(step).events;
    timeline.record(sims, events);
  }
}

const fingerprint = (sim) => {
  const w = sim.windows();
  return JSON.stringify({ now: sim.nowMs, snap: sim.snapshot().insertsPerSecond, ins: [...w.insertsPerSecond], load: [...w.nodeLoad] });
};

test("a seek anywhere shows what a fresh run to that time shows", () => {
  const sim = new Simulation(config);
  const timeline = new Timeline({ intervalEvents: 200_000 });
  timeline.reset([sim]);
  play(timeline, [sim], 1200);
  assert.ok(timeline.count >= 5, `${timeline.count} checkpoints`);
  assert.equal(timeline.frontierMs, sim.nowMs);
  for (const ms of [0, 333, 1100, 250, 1200, 5000, -10]) {
    timeline.seek([sim], ms);
    const target = Math.min(Math.max(ms, 0), 1200);
    const fresh = new Simulation(config);
    fresh.runFor(target);
    assert.equal(fingerprint(sim), fingerprint(fresh), `seek to ${ms}`);
    fresh.free();
  }
  timeline.free();
  sim.free();
});

test("a seek in compare mode brings both runs to the time asked for, even the one that was ahead", () => {
  const other = { ...config, cacheSize: 1000 };
  const sims = [new Simulation(config), new Simulation(other)];
  const timeline = new Timeline({ intervalEvents: 200_000 });
  timeline.reset(sims);
  play(timeline, sims, 600);
  sims[1].runFor(150); // B ran on past A, as the worker's light run may wait for its heavy one
  const at = sims[0].nowMs;
  timeline.seek(sims, at);
  for (const [sim, c] of [[sims[0], config], [sims[1], other]]) {
    const fresh = new Simulation(c);
    fresh.runFor(at);
    assert.equal(fingerprint(sim), fingerprint(fresh), `${c.cacheSize ?? "cache 1"} at ${at} ms`);
    fresh.free();
  }
  timeline.free();
  sims.forEach((s) => s.free());
});

test("checkpoints stay within the memory budget: every other one goes and the interval doubles", () => {
  const sim = new Simulation(config);
  const budget = 3 << 20;
  const timeline = new Timeline({ budgetBytes: budget, intervalEvents: 50_000 });
  timeline.reset([sim]);
  let thinnings = 0;
  while (sim.nowMs < 2500) {
    const before = timeline.entries.map((e) => e.ms);
    const interval = timeline.intervalEvents;
    timeline.record([sim], sim.runFor(Math.min(37, 2500 - sim.nowMs)).events);
    assert.ok(timeline.bytes <= budget, `${timeline.bytes} bytes kept`);
    if (timeline.intervalEvents === interval) continue;
    // The checkpoint just taken overfilled the budget: of the list with it, every other
    // one went (the first always stays), and the interval doubled.
    thinnings += 1;
    assert.equal(timeline.intervalEvents, 2 * interval, "one thinning doubles the interval");
    const offered = [...before, sim.nowMs];
    assert.deepEqual(timeline.entries.map((e) => e.ms), offered.filter((_, i) => i % 2 === 0), `thinning ${thinnings}`);
  }
  assert.ok(thinnings >= 2, `the budget filled ${thinnings} times`);
  const times = timeline.entries.map((e) => e.ms);
  assert.equal(times[0], 0, "the start is always kept");
  assert.deepEqual(times, [...times].sort((a, b) => a - b));
  // Still exact after thinning.
  timeline.seek([sim], 777);
  const fresh = new Simulation(config);
  fresh.runFor(777);
  assert.equal(fingerprint(sim), fingerprint(fresh));
  timeline.free();
  assert.equal(timeline.bytes, 0);
  sim.free();
  fresh.free();
});

test("a change after seeking back truncates the recorded future", () => {
  const sim = new Simulation(config);
  const timeline = new Timeline({ intervalEvents: 200_000 });
  timeline.reset([sim]);
  play(timeline, [sim], 1000);
  timeline.seek([sim], 400);
  sim.set("cacheSize", 1000);
  timeline.truncate([sim]);
  assert.equal(timeline.frontierMs, 400);
  assert.ok(timeline.entries.every((e) => e.ms <= 400));
  play(timeline, [sim], 300);
  // Seeking within the new future replays the new future, not the old one, even just
  // after the change (before any new interval's checkpoint).
  const changed = new Simulation(config);
  changed.runFor(400);
  changed.set("cacheSize", 1000);
  changed.runFor(1);
  timeline.seek([sim], 401);
  assert.equal(sim.config.cacheSize, 1000);
  assert.equal(fingerprint(sim), fingerprint(changed));
  changed.free();
  timeline.free();
  sim.free();
});

test("a fork frees the checkpoint it branched from: memory after 50 forks stays within one checkpoint", () => {
  const sim = new Simulation(config);
  sim.runFor(300);
  const probe = sim.checkpoint();
  const size = probe.memoryBytes;
  probe.free();
  branch(sim).free(); // the allocator's first use of the sizes a branch needs
  const start = memoryBytes();
  for (let i = 0; i < 50; i++) {
    const b = branch(sim);
    b.set("cacheSize", 1000 + i);
    b.runFor(1);
    b.free();
  }
  const grown = memoryBytes() - start;
  assert.ok(grown <= size, `wasm memory grew ${grown} bytes over 50 forks; one checkpoint is ${size}`);
  sim.free();
});

// report(): the report's own WebAssembly module (dist/report) writes the bytes `hotrow report`
// writes for the same config; a Simulation's run so far reports too, and is left as it is;
// bad options are named.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { report, Simulation } from "../../js/node.mjs";
import { hotrowBin } from "../hotrow.mjs";

const bin = hotrowBin;

function cli(...args) {
  const r = spawnSync(bin, ["report", ...args], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test("report(config) is the CLI's report, byte for byte, on DBT2 and on a spec; a fragment and a figure too", async () => {
  for (const [preset, extra] of [["bug39267", {}], ["ndb-autoincrement", { workload: "tpcb" }]]) {
    const config = { preset, durationMs: 1000, warmupMs: 500, ...extra };
    const sets = ["--set", "durationMs=1000", "--set", "warmupMs=500", ...(extra.workload ? ["--workload", extra.workload] : [])];
    assert.equal(await report(config), cli("--preset", preset, ...sets), preset);
    assert.equal(await report(config, { fragment: true }), cli("--preset", preset, ...sets, "--fragment"), `${preset} fragment`);
    assert.equal(await report(config, { svg: "nodes" }), cli("--preset", preset, ...sets, "--svg", "nodes"), `${preset} svg`);
  }
});

test("report(config, { remedies: true }) runs each remedy as hotrow report --remedies does, byte for byte", async () => {
  const config = { preset: "bug39267", durationMs: 600, warmupMs: 200 };
  const page = await report(config, { remedies: true });
  assert.equal(page, cli("--preset", "bug39267", "--set", "durationMs=600", "--set", "warmupMs=200", "--remedies"));
  assert.match(page, /What would lift it/);
  assert.match(page, /a cache of 1000 ids per refill/);
  const sim = new Simulation(config);
  await assert.rejects(report(sim, { remedies: true }), /give report\(\) a config, not a Simulation/);
  sim.free();
  await assert.rejects(report(config, { remedies: "yes" }), /options\.remedies = "yes": true or false/);
});

test("report(simulation) reports the run so far and leaves it running; bad input is named", async () => {
  const sim = new Simulation({ preset: "bug39267", durationMs: 1000, warmupMs: 200 });
  sim.runFor(700);
  const page = await report(sim);
  assert.match(page, /^<!DOCTYPE html>/);
  assert.doesNotMatch(page, /<script/i);
  sim.runFor(100); // still usable
  assert.ok(sim.nowMs >= 800, `${sim.nowMs}`);
  sim.free();
  await assert.rejects(report({ preset: "bug39267" }, { pie: true }), /options\.pie: not an option/);
  await assert.rejects(report({ preset: "bug39267", durationMs: 100 }, { svg: "pie" }), /the figures are throughput, nodes, heatmap/);
  await assert.rejects(report({ preset: "nope" }), /preset/);
});

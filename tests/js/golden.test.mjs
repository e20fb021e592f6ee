// Cross-target determinism, on the module the package ships (dist/web, as js/node.mjs
// loads it): every golden case gives the digest the native build pinned in
// crate/sim/tests/golden/digests.json (`determinism::golden_digests` holds the native side).
// The configs go in as the objects JSON.parse makes of them, as a page's would.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Simulation } from "hotrow";

const golden = JSON.parse(readFileSync(new URL("../../crate/sim/tests/golden/digests.json", import.meta.url), "utf8"));

test("the shipped module gives every native golden digest", () => {
  assert.ok(golden.length >= 80, `the golden file was read: ${golden.length} cases`);
  for (const { config, digest } of golden) {
    const sim = new Simulation(config);
    while (!sim.runToEnd(1_000_000).reached);
    assert.equal(sim.summary().digest, digest, JSON.stringify(config));
    sim.free();
  }
});

test("a config as an object and as the JSON text of the same object run the same", () => {
  const text = '{"preset":"ndbapi-hidden-pk","seed":3,"durationMs":100,"warmupMs":10,"network":{"latencyUs":40}}';
  const a = new Simulation(JSON.parse(text));
  const b = new Simulation({ preset: "ndbapi-hidden-pk", seed: 3, durationMs: 100, warmupMs: 10, network: { latencyUs: 40 } });
  for (const sim of [a, b]) while (!sim.runToEnd(1_000_000).reached);
  assert.equal(a.summary().digest, b.summary().digest);
});

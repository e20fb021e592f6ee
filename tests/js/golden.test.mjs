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

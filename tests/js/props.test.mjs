// Property tests (fast-check) of everything JavaScript can hand the package: any value as a
// config, a live change, a fault or a step count gives a working call or an Error naming
// a field, and never a panic (which would poison the module: the last check proves none).
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { Simulation } from "hotrow";
import { parseQuery, parseEntries } from "../../js/element/state.js";

const FIELDS = ["preset", "seed", "workload", "dataNodes", "replicas", "ldmThreads", "tcThreads", "apiNodes", "apiCores",
  "clientsPerApiNode", "thinkTimeUs", "cacheSize", "hintedRefill", "hintedTransactions", "primaryKey", "warehouses",
  "durationMs", "warmupMs", "windowMs", "network", "cpu", "faults"];

const hostile = fc.oneof(
  fc.constantFrom(NaN, Infinity, -Infinity, -0, -1, 0, 1, 2 ** 53, 2 ** 64, 1e308, 0.5, "", "1000", "bug39267", null, undefined, true, false, [], {}),
  fc.integer(), fc.double(), fc.string({ maxLength: 12 }), fc.bigInt(), fc.constant(() => 1), fc.constant(Symbol("s")),
);
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: "small" }, hostile, fc.array(tie("v"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...FIELDS, "kind", "dataNode", "latencyUs", "x"), tie("v"), { maxKeys: 4 })),
})).v;
const config = fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 8 })), value, { maxKeys: 6 });

function named(e) {
  assert.ok(e instanceof Error, `threw a non-Error: ${String(e)}`);
  assert.ok(typeof e.field === "string" && e.field.length > 0, `no field on: ${e.message}`);
  assert.ok(!/hotrow stopped after an internal error/.test(e.message), `a panic happened: ${e.message}`);
}

test("any config: a simulation that runs, or a named error", () => {
  fc.assert(fc.property(config, (c) => {
    let sim;
    try {
      sim = new Simulation({ ...c, durationMs: 20, warmupMs: 0, clientsPerApiNode: 2, apiNodes: 1 });
    } catch (e) {
      named(e);
      return;
    }
    sim.runFor(5, 20_000);
    sim.free();
  }), { numRuns: 800, seed: 42 });
});

test("any live change, fault or count on a running simulation: works or throws named, changes nothing then", () => {
  const sim = new Simulation({ preset: "ndbapi-hidden-pk", durationMs: 10_000, warmupMs: 0 });
  sim.runFor(5);
  const keys = fc.constantFrom("cacheSize", "hintedRefill", "clientsPerApiNode", "thinkTimeUs", "network.latencyUs",
    "cpu.lqhWriteNs", "dataNodes", "replicas", "seed", "faults", "nope", "cpu", "", "a.b.c");
  fc.assert(fc.property(keys, value, value, value, (key, v, fault, n) => {
    const before = JSON.stringify(sim.config);
    try { sim.set(key, v); } catch (e) { named(e); assert.equal(JSON.stringify(sim.config), before); }
    try { sim.inject(fault); } catch (e) { named(e); }
    // A valid but huge count would only make the test slow (each million events takes
    // a tenth of a second): those are clamped; every invalid value goes through as is.
    try { sim.step(Number.isSafeInteger(n) && n > 100_000 ? 100_000 : n); } catch (e) { named(e); }
    try { sim.runFor(n, 5_000); } catch (e) { named(e); }
    try { sim.windows(n); } catch (e) { named(e); }
    // Keep the run small and the cluster intact for the next case.
    try { sim.set("clientsPerApiNode", 8); } catch {}
  }), { numRuns: 500, seed: 7 });
  const s = sim.summary();
  assert.equal(s.duplicateIds, 0);
  assert.ok(sim.runFor(1).nowMs > 0, "the module still works: no panic happened");
});

test("any URL query: parsed into settings and readable errors, never an exception", () => {
  fc.assert(fc.property(fc.string({ maxLength: 300 }), (q) => {
    const s = parseQuery(q);
    assert.ok(Array.isArray(s.errors));
    for (const e of s.errors) assert.equal(typeof e, "string");
  }), { numRuns: 3000, seed: 1 });
  fc.assert(fc.property(fc.array(fc.tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 80 })), { maxLength: 80 }), (entries) => {
    parseEntries(entries);
    parseEntries(entries, { kebabNames: true });
  }), { numRuns: 2000, seed: 2 });
});

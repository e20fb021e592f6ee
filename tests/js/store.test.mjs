// The playground's state (js/element/store.js): one object, changed only by `nextState`
// (the element's `update`), every part frozen so that a module writing to it throws.
import { test } from "node:test";
import assert from "node:assert/strict";
import { initialState, nextState } from "../../js/element/store.js";

test("nextState merges view and run, replaces the config with a copy, and keeps what it does not name", () => {
  const s0 = initialState();
  const input = { preset: "modern", network: { latencyUs: 20 } };
  const s1 = nextState(s0, { config: input, view: { mode: "compare", compareField: "cacheSize" } });
  assert.deepEqual(s1.config, input);
  assert.notEqual(s1.config, input, "the caller's object stays its own");
  assert.equal(s1.view.mode, "compare");
  assert.equal(s1.view.speed, s0.view.speed, "a view change merges");
  assert.equal(s1.run, s0.run, "a part not named is the same object");
  const s2 = nextState(s1, { view: { compareField: undefined }, run: { paused: true } });
  assert.equal("compareField" in s2.view, false, "undefined removes a key");
  assert.equal(s2.run.paused, true);
  assert.equal(s2.config, s1.config);
});

test("every part of the state is frozen: a write throws instead of changing it behind update", () => {
  const s = nextState(initialState(), { config: { preset: "bug39267", network: { latencyUs: 70 } } });
  assert.throws(() => {
    s.view.mode = "sweep";
  }, TypeError);
  assert.throws(() => {
    s.config.network.latencyUs = 1;
  }, TypeError);
  assert.throws(() => {
    s.run.paused = true;
  }, TypeError);
  assert.equal(s.config.network.latencyUs, 70);
});

test("compare keeps the user's value in run A and changes run B only", async () => {
  const { compareSpec, configsFor } = await import("../../js/element/modes.js");
  const view = { mode: "compare", compareField: "cacheSize" };
  // A cache of 1000 set by the user, or run by the preset: run A keeps it, B is the other listed value.
  assert.deepEqual(compareSpec(view, { cacheSize: 1000 }), { compareField: "cacheSize", compareA: "1000", compareB: "1" });
  assert.deepEqual(compareSpec(view, { preset: "modern" }, { cacheSize: 1000 }), { compareField: "cacheSize", compareA: "1000", compareB: "1" });
  // A value the list does not hold is kept too; the list's first value is run B's.
  assert.deepEqual(compareSpec(view, { cacheSize: 30 }), { compareField: "cacheSize", compareA: "30", compareB: "1" });
  // Values the user chose win.
  assert.deepEqual(compareSpec({ ...view, compareA: "3", compareB: "10" }, { cacheSize: 1000 }).compareA, "3");
  const [a, b] = configsFor({ cacheSize: 1000, dataNodes: 4 }, view);
  assert.deepEqual([a.cacheSize, a.dataNodes, b.cacheSize, b.dataNodes], [1000, 4, 1, 4]);
});

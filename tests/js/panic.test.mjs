// A panic inside the WebAssembly module is a bug; it must not leave a half-dead module
// that answers silently: it is reported and every later call throws a clear error.
// (Its own file: node --test runs each file in a fresh process, so the poison stays here.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { Simulation } from "hotrow";
// The module the package's Node entry instantiated (one instance per process).
import * as wasm from "../../dist/web/hotrow.js";

test("after a panic every call throws a clear error", () => {
  const sim = new Simulation({ preset: "ndbapi-pk", durationMs: 100, warmupMs: 0 });
  sim.runFor(5);
  const errors = [];
  const original = console.error;
  console.error = (...a) => errors.push(a.join(" "));
  try {
    assert.throws(() => wasm._panicForTests());
  } finally {
    console.error = original;
  }
  assert.ok(errors.some((e) => e.includes("deliberate panic")), "the panic was reported on the console");
  for (const call of [() => sim.runFor(5), () => sim.snapshot(), () => sim.summary(), () => new Simulation({})]) {
    assert.throws(call, /stopped after an internal error/);
  }
});

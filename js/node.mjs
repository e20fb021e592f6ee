// hotrow for Node: the same WebAssembly bytes browsers load (dist/web), instantiated from
// disk when this file is imported, so `new Simulation(...)` works at once. `init()` exists
// so that code written for browsers runs unchanged.
import { readFileSync } from "node:fs";
import * as wasm from "../dist/web/hotrow.js";

wasm.initSync({ module: readFileSync(new URL("../dist/web/hotrow_bg.wasm", import.meta.url)) });

export function init() {
  return Promise.resolve();
}

export const Simulation = wasm.Simulation;
export const Checkpoint = wasm.Checkpoint;
export const presets = (...args) => wasm.presets(...args);
export const liveFields = () => wasm.liveFields();
export const fields = () => wasm.fields();
export const metrics = () => wasm.metrics();
export const workloads = () => wasm.workloads();
export const memoryBytes = () => wasm.memoryBytes();
/** The version of the simulation inside: the crates' version, which tests/js/api.test.mjs
 * pins to package.json's. */
export const version = wasm.version();

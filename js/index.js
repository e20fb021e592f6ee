// hotrow for browsers and bundlers. The WebAssembly module is fetched by `init()`:
//
//   import { init, Simulation } from "hotrow";
//   await init();
//   const sim = new Simulation({ preset: "bug39267" });
//
// `init()` may be called many times; it loads the module once. Pass a URL, Response or
// bytes of `hotrow_bg.wasm` to load it from elsewhere.
import wasmInit, * as wasm from "../dist/web/hotrow.js";

let loading = null;

export function init(input) {
  loading ??= wasmInit(input === undefined ? undefined : { module_or_path: input });
  return loading.then(() => undefined);
}

export const Simulation = wasm.Simulation;
export const Checkpoint = wasm.Checkpoint;
export const presets = (...args) => wasm.presets(...args);
export const liveFields = () => wasm.liveFields();
export const fields = () => wasm.fields();
export const metrics = () => wasm.metrics();
export const workloads = () => wasm.workloads();
export const memoryBytes = () => wasm.memoryBytes();
/** The package's version. A literal, as the module is not loaded before `init()`;
 * tests/js/api.test.mjs pins it to package.json and to the WebAssembly's own `version()`. */
export const version = "0.2.0";
/** SQL in (its own WebAssembly module, loaded at the first call): js/sql.js. */
export { importSql, SqlImportError } from "./sql.js";
/** A run as one HTML file with no script (its own WebAssembly module, loaded at the first call): js/report.js. */
export { report } from "./report.js";
/** The bottleneck's standard remedies (a module of their own, loaded at the first call): js/remedies.js. */
export { remedies } from "./remedies.js";

// The fit's WebAssembly module (crate/fit-wasm, built into dist/fit): the fit session and
// the bottleneck's remedies, with what reads a config. One loader for both users (the Fit
// mode's session, js/element/fit-session.js, and js/remedies.js): fetched the first time
// either asks, never before, so the main module every embed loads does not carry it.
import { lazyModule } from "./lazy-module.js";
import fitInit, * as fit from "../dist/fit/hotrow_fit.js";

export const fitModule = lazyModule(fitInit, fit);

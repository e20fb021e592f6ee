// hotrow for Node: the same WebAssembly bytes browsers load (dist/web), instantiated from
// disk when this file is imported, so `new Simulation(...)` works at once. `init()` exists
// so that code written for browsers runs unchanged. Every other export is index.js's (one
// list): its functions call the module instantiated here.
import { readFileSync } from "node:fs";
import * as wasm from "../dist/web/hotrow.js";
import { instantiateSqlWith } from "./sql.js";
import { instantiateReportWith } from "./report.js";
import { instantiateRemediesWith } from "./remedies.js";

wasm.initSync({ module: readFileSync(new URL("../dist/web/hotrow_bg.wasm", import.meta.url)) });
// The SQL import's module, from disk too, at importSql's first call only.
instantiateSqlWith((sql) => sql.initSync({ module: readFileSync(new URL("../dist/sql/hotrow_sql_bg.wasm", import.meta.url)) }));
// The report's, at report()'s first call only.
instantiateReportWith((r) => r.initSync({ module: readFileSync(new URL("../dist/report/hotrow_report_bg.wasm", import.meta.url)) }));
// The remedies' (the fit's module), at remedies()' first call only.
instantiateRemediesWith((f) => f.initSync({ module: readFileSync(new URL("../dist/fit/hotrow_fit_bg.wasm", import.meta.url)) }));

export * from "./index.js";

/** The module is loaded already. */
export function init() {
  return Promise.resolve();
}

/** The version of the simulation inside: the crates' version, which tests/js/api.test.mjs
 * pins to package.json's. */
export const version = wasm.version();

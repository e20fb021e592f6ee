// The npm package as a user gets it: `npm pack` (which builds what it needs through
// `prepack`), install the tarball into an empty project, import it from Node, and
// type-check a TypeScript consumer against its declarations.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { packAndInstall, root } from "./pack.mjs";
import { readFileSync, readdirSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { hotrowBin } from "../hotrow.mjs";

/** The shipped workload specs' JSON, comma-separated (TypeScript object literals). */
const shippedSpecs = () => {
  const dir = join(root, "crate/sim/workloads");
  return readdirSync(dir).filter((f) => f.endsWith(".json")).map((f) => readFileSync(join(dir, f), "utf8")).join(",");
};

const tsc = join(root, "node_modules/.bin/tsc");
const cli = hotrowBin;

test("the packed tarball installs into an empty project and works there", (t) => {
  const { app, files, cleanup } = packAndInstall();
  t.after(cleanup);
  for (const f of ["js/element/hotrow-playground.js", "js/element/worker.js", "dist/vendor/uplot/uPlot.esm.js", "js/index.js", "js/node.mjs", "js/index.d.ts", "dist/web/hotrow.js", "dist/web/hotrow_bg.wasm", "js/element/fit-session.js", "dist/types/hotrow-playground.d.ts", "custom-elements.json", "package.json", "README.md"]) {
    assert.ok(files.includes(f), `tarball lacks ${f}`);
  }
  assert.ok(!files.some((f) => f.startsWith("crate/") || f.startsWith("target/") || f.startsWith("node_modules/")), files.join(" "));
  // One WebAssembly module of the simulation (Node instantiates the bytes browsers load),
  // the fit's, which only the playground's Fit mode loads, the SQL import's, which only SQL
  // loads, and the report's, which only report() loads.
  assert.deepEqual(files.filter((f) => f.endsWith(".wasm")).sort(), [
    "dist/fit/hotrow_fit_bg.wasm",
    "dist/report/hotrow_report_bg.wasm",
    "dist/sql/hotrow_sql_bg.wasm",
    "dist/web/hotrow_bg.wasm",
  ]);
  assert.ok(files.includes("dist/report/hotrow_report.js") && files.includes("js/report.js"), "the report module's loader");
  assert.ok(files.includes("dist/fit/hotrow_fit.js"), "the fit module's loader");
  assert.ok(files.includes("dist/sql/hotrow_sql.js") && files.includes("js/sql.js"), "the SQL module's loader");
  assert.ok(existsSync(join(app, "node_modules/hotrow/dist/web/hotrow_bg.wasm")));

  writeFileSync(join(app, "main.mjs"), `
    import { Simulation, presets, version, init } from "hotrow";
    await init();
    const sim = new Simulation({ preset: "ndbapi-hidden-pk", seed: 5, durationMs: 200, warmupMs: 50 });
    while (!sim.runToEnd().reached);
    const { importSql } = await import("hotrow");
    const sql = await importSql("CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY);\\nINSERT INTO t VALUES (NULL);\\n");
    const { report } = await import("hotrow");
    const page = await report(sim);
    console.log(JSON.stringify({ digest: sim.summary().digest, presets: presets().length, version, sqlTables: sql.spec.tables.length, report: page.length > 1000 && !page.includes("<script") }));
  `);
  const out = JSON.parse(execFileSync("node", ["main.mjs"], { cwd: app, encoding: "utf8" }));
  const nativePresets = JSON.parse(execFileSync(cli, ["presets", "--json"], { encoding: "utf8" }));
  assert.equal(out.presets, nativePresets.length, "the installed package lists the CLI's presets");
  assert.equal(out.sqlTables, 1, "importSql works from the installed package");
  assert.equal(out.report, true, "report works from the installed package");
  const native = JSON.parse(execFileSync(cli, ["run", "--json", "--preset", "ndbapi-hidden-pk", "--set", "seed=5", "--set", "durationMs=200", "--set", "warmupMs=50"], { encoding: "utf8" }));
  assert.equal(out.digest, native.digest, "the installed package gives the native digest");

  writeFileSync(join(app, "check.ts"), `
    import { Simulation, presets, type Config, type Snapshot, type Summary, type HotrowError, type WorkloadSpec } from "hotrow";
    const sim = new Simulation({ preset: "bug39267", cacheSize: 1000, network: { latencyUs: 20 } });
    const c: Config = sim.config;
    const n: number = c.dataNodes + sim.runFor(10).events;
    const s: Snapshot = sim.snapshot();
    const load: Float64Array = s.nodeLoad;
    const sum: Summary = sim.summary();
    const d: string = sum.digest + sum.hotRow.lockUtilization.toFixed(2) + presets()[0].name;
    sim.set("cpu.lqhWriteNs", 9000);
    try { new Simulation({ dataNodes: 7 }); } catch (e) { const f: string = (e as HotrowError).field; }
    // @ts-expect-error cacheSize is a number
    new Simulation({ cacheSize: "1000" });
    // @ts-expect-error unknown preset name
    new Simulation({ preset: "bug" });
    // @ts-expect-error dataNodes cannot change live
    sim.set("dataNodes", 4);
    // @ts-expect-error the snapshot has no such field
    s.throughput;
    // Every shipped spec, as written, is a WorkloadSpec (object literals: no field the type lacks).
    const shipped: WorkloadSpec[] = [${shippedSpecs()}];
    const own = new Simulation({ workload: { name: "log", api: "ndbapi", tables: [{ name: "log", rows: 10, key: "primaryKey", partitioning: "range", keyLayout: "bitReversed" }],
      transactions: [{ name: "append", statements: [{ op: "insert", table: "log", rows: 4, key: { dist: "sequential" } }] }] } });
    // @ts-expect-error a table's partitioning is hash or range
    const bad: WorkloadSpec = { name: "x", api: "mysqld", tables: [{ name: "t", rows: 1, key: "primaryKey", partitioning: "list" }], transactions: [] };
    export { n, load, d, shipped, own, bad };
  `);
  // The custom element: its class, attributes as properties, events with their details.
  writeFileSync(join(app, "element.ts"), `
    import "hotrow/playground";
    import type { HotrowPlayground, HotrowSweepResult } from "hotrow/playground";
    const el = document.createElement("hotrow-playground");
    const typed: HotrowPlayground = el;
    el.cacheSize = "1000";
    el.networkLatencyUs = "20";
    el.mode = "compare";
    const q: string = el.query;
    el.addEventListener("hotrow-snapshot", (e) => { const t: number = e.detail.tpm + e.detail.nowMs; });
    el.addEventListener("hotrow-sweep", (e) => { const r: HotrowSweepResult[] = e.detail; });
    el.seek(1500).then((shown) => shown.insertsPerSecond);
    // @ts-expect-error the snapshot event carries no such figure
    el.addEventListener("hotrow-snapshot", (e) => e.detail.throughput);
    // @ts-expect-error attributes are strings
    el.cacheSize = 1000;
    export { typed, q };
  `);
  const r = spawnSync(tsc, ["--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--lib", "es2022,dom", "check.ts", "element.ts"], { cwd: app, encoding: "utf8" });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  // custom-elements.json (the analyzer's, from the element's JSDoc and attribute list).
  const pkg = JSON.parse(readFileSync(join(app, "node_modules/hotrow/package.json"), "utf8"));
  const cem = JSON.parse(readFileSync(join(app, "node_modules/hotrow", pkg.customElements), "utf8"));
  const decl = cem.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === "hotrow-playground");
  assert.deepEqual(decl.events.map((e) => e.name).sort(), ["hotrow-fitdone", "hotrow-snapshot", "hotrow-statechange", "hotrow-strategiesdone", "hotrow-sweep", "hotrow-sweepdone"]);
  for (const part of ["error", "figures", "controls", "charts", "keys"]) assert.ok(decl.cssParts.some((p) => p.name === part), part);
  for (const attr of ["cache-size", "network-latency-us", "mode", "paused"]) assert.ok(decl.attributes.some((a) => a.name === attr), attr);
});

/** Asserts that the module at `file` is at most `kib` KiB gzipped (level 9), saying its sizes. */
function withinBudget(file, kib) {
  const wasm = readFileSync(join(root, file));
  const gz = gzipSync(wasm, { level: 9 }).length;
  console.log(`${file.split("/").pop()}: ${(wasm.length / 1024).toFixed(0)} KiB raw, ${(gz / 1024).toFixed(0)} KiB gzipped`);
  assert.ok(gz <= kib * 1024, `${gz} bytes gzipped`);
}

// The budget was 150 KiB until the allocator lab (three strategies, range partitioning, 15
// more fields) took the module to 164 KiB, then 180 KiB with the playground issue (177 KiB).
// Workloads as data (the spec's parser and validator with JSON paths in every error, seven
// shipped specs, Zipfian keys, the hot-row tracker) took it to 221 KiB, and per-table
// placement to 226 KiB. Explaining every number (resources, the bottleneck, the next ceiling,
// who waits for whom, the zero-load probe, the remedies and their labels) took it to 259 KiB
// (twiggy: remedies 9 KiB, the wasm explain() 9 KiB, explain 5 KiB, its resources 4 KiB
// before wasm-opt); the budget moved to 280 KiB with it. Grounding it in one's own cluster
// (gamma-distributed service times, cpu.scale) took it to 279 KiB, and open arrivals (the
// waiting lines, the summary's `arrivals`, two window metrics, the offered load as a
// resource) to 284 KiB (measured: 285,289 then 291,023 bytes); the budget moved to 300 KiB.
// What real schemas need in the spec language (several tables taking ids, unique indexes,
// four more key choices, a counter row's table in the reports) took it from 291,881 to
// 301,556 bytes (the Gaussian drawn by the polar method: libm's sine would add 2 KiB more);
// the SQL parser stays in a module of its own. Shared-column partitioning, repeated blocks
// and unique-column updates took it to 310,664 (measured in a clean target directory: an
// earlier 302,554 came from a stale build). Two cuts brought it back: key choices read by
// hand instead of serde's internally tagged enum, which buffers its input (26 KiB before
// wasm-opt), and inject() reading its fault through Config::from_json, so that Fault's
// deserializer is compiled once: 303,260. The allocator traits in the field table and the
// hot path's tidying (a row hashed once, spare lock queues, the lock timeout's one pass) took
// it from 306,581 to 308,745; Fault read flat by hand, as key choices are, instead of serde's
// internally tagged derive (its largest function but the engine's, 17 KiB before wasm-opt),
// brought it to 302,744 (302,296 once a null field is refused again, as the derive did).
// Aborts explained (the lock-order cycles named, the deadlocks' facts, sorted keys, the
// remedies' warnings, the run described in words) took it from 304,623 bytes (as this test
// measures) to about 330,000; the cuts brought it to 302,409, below where it was: no sort of
// a new type (a stable sort's instantiation is 16 KiB before wasm-opt: the busiest
// resources, the wait splits and the hottest rows sort as pairs of u64, as the lock table
// does, and remedies' config maps are built by insertion, since a map collected from an
// iterator sorts its entries first), the summary's per-type figures in a list rather than
// two BTreeMaps (summary/by_name.rs), and the cycles' naming kept out of line. The deadlocks'
// sentence written once in the core (Deadlocks::text), not in each surface: 303,380. The bound's
// and the next ceiling's intervals (buckets of the measured windows' counters, each batch's
// explanation worked out again) took it to 308,851; one copy each of the next ceiling, the
// interval and the moving hot spot's explanation, the buckets' rows kept by field, the
// method's text without a float, and wasm-opt's --converge brought it to 307,158.
// The engines' seam with PostgreSQL (group commit, every waiter woken at a hand-off, the
// server.* fields, a preset and the counter workload) took it from 306,801 to 316,124; the
// bottleneck's remedies moved to a module loaded when a reader asks what would lift it (the
// fit's, js/remedies.js: 8.6 KiB of this one), which brought it to 306,106.
// InnoDB beside it (the hand-over and its pass, CATS, the deadlock searches, four server.*
// fields and two choices) took it to 310,523; fieldless enums read and written through their
// NAMES by hand instead of serde's derive (named.rs: 1 KiB), the field table written
// by hand instead of by Field's derive, and shorter field texts brought it to 308,103. Not
// back to 306,106: the budget moved to 302 KiB, and the next cut is owed (Config's derived
// deserializer is the largest candidate, 15 KiB before wasm-opt). Raft's ranges (a log per
// node, majority rounds, intent resolution, pushes, two fields) took it to 312,050; the
// budget moved to 305 KiB, with 6 KiB of cuts owed to bring it back under 300. Tried and not
// kept: every type through serde_json's serializer alone (+1.1 KiB), Config read without the
// path-tracking deserializer (-9 KiB raw, +0.1 KiB gzipped), serde_json compiled for size
// (+8 KiB). serde_json without `float_roundtrip` here (JavaScript parses the JSON it is given;
// the texts compiled in are held to the digits its fast path reads exactly) brought it to
// 299,086 and the budget to 293 KiB. Measured and not kept: the whole module compiled for
// size, 276 KB at opt-level s and 257 KB at z, cost the playground's engine 14-27% and
// 53-59% of its speed (Node, three presets). The fault table, one-server ids taken in the
// INSERT and the fault kinds in fields() took it to 300,094; four field texts made shorter
// brought it to 300,015, and the budget to 294 KiB (still 12 KB under the session's start).
// digestOf (a test's helper; the golden test now runs the shipped module through its API)
// left: 299,038, the budget 293 KiB. Measured and not kept: Config and specs both read
// without the path-tracking deserializer, -6.6 KB gzipped (a hand reader must first give
// the specs' errors their paths); wasm-opt -Os, +142 bytes.
// Then the cuts the issue asked for (twiggy's list first): Config and workload specs read by
// hand (read.rs) instead of serde's derives and serde_path_to_error, 298,955 -> 276,614;
// numbers printed with ryu's small tables (serde_json held at 1.0.145: 1.0.146 on uses
// zmij's tables of powers) and to_js by serde_json's text, 264,136; no f64 through core's
// float formatter (decimal.rs), 260,747; one serialiser of Config, 257,404; wasm-opt's GUFA
// and --low-memory-unused, 254,371 (the same speed); LLVM's inline threshold at 125 for this
// module (scripts/build-package.sh), 244,749, for 4-6% of its speed (150: 249,798 and 3%).
// The budget: 240 KiB. Measured and not kept: to_js through serde_json's Value (+2.9 KB),
// serde_json or the binding compiled at opt-level s (+1.7 KB), wasm-opt -O4 (+0.8 KB).
test("the WebAssembly module stays within its size budget (240 KiB gzipped)", () => {
  withinBudget("dist/web/hotrow_bg.wasm", 240);
});

// The fit's module (crate/fit-wasm) is loaded only when the Fit mode fits, so an embed never
// pays for it. It holds the fit (argmin's Nelder-Mead, the CSV reader, the USL) and what
// checks a config (the presets, the shipped workload specs and their validator, the metric
// catalog): 249 KiB gzipped when it landed (683,790 bytes raw, built with -Oz). Tried
// first inside the main module: +95 KiB for every page, not landed. What real schemas need in
// the spec language (several tables taking ids, unique indexes, four more key choices) took it
// to 259.3 KiB (265,558 bytes), and the budget to 270 KiB. The engines' fields took it to
// 266,945; the remedies, moved in from the main module (js/remedies.js loads this module for
// them, when the Why panel's reader asks what would lift it), to 285,995: 19 KiB here
// against 8.6 KiB there, as this module had none of the explanation's types or the spec's
// writing. The budget moved to 290 KiB.
test("the fit's WebAssembly module stays within its size budget (290 KiB gzipped)", () => {
  withinBudget("dist/fit/hotrow_fit_bg.wasm", 290);
});

// The SQL import's module (crate/sql-wasm) is loaded only when SQL is given (importSql, the
// playground's SQL tab), so an embed never pays for it. It is mostly the SQL parser
// (sqlparser 0.64, MySQL and PostgreSQL dialects, compiled with opt-level "z"): 660 KiB
// gzipped when it landed (1,867,700 bytes raw, -Oz; 982 KiB gzipped at opt-level 3), 669 KiB
// with the digest CSV's reader (the csv crate). Every idiom a counter is written in (upserts,
// MERGE, WITH, sequences, statements parsed one by one, what each became) took it to 698 KiB
// (715,020 bytes); it borrows the syntax tree, since a clone of it compiles the tree's whole
// Clone in (727,482 bytes). Reading an INSERT without a column list and MySQL's INSERT ...
// SET, and refusing or saying what it cannot read (two sequences in one statement, a MERGE
// from a table, a shared sequence), and annotations read from the tokenizer's comments, took it
// to 718,277 bytes; the budget moved to 720 KiB. wasm-opt -O1 instead of -Oz made it
// 687,837 (sqlparser's code shrinks more at -O1, in a quarter of the time): 680 KiB.
test("the SQL import's WebAssembly module stays within its size budget (680 KiB gzipped)", () => {
  withinBudget("dist/sql/hotrow_sql_bg.wasm", 680);
});

// The report's own module (crate/report-wasm: the HTML and SVG writer, serde_json's reader
// and float formatting): 85 KiB gzipped when it landed (207,328 bytes raw, -Oz).
test("the report's WebAssembly module stays within its size budget (100 KiB gzipped)", () => {
  withinBudget("dist/report/hotrow_report_bg.wasm", 100);
});

// The config field table (`fields()`, from the core) is the one list of fields: the
// TypeScript types, the playground's URL/attribute fields and the preset names are pinned
// to it here, so they cannot drift apart silently.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fields, presets, liveFields, metrics } from "hotrow";
import { FIELDS as PLAYGROUND_FIELDS } from "../../js/element/state.js";
import { CHART_LINES } from "../../js/element/chart-lines.js";

// The package's types: index.d.ts and the files it re-exports (config, summary, explain).
const dts = ["index", "config", "summary", "explain"].map((f) => readFileSync(new URL(`../../js/${f}.d.ts`, import.meta.url), "utf8")).join("\n");

/** Member names of `export interface NAME { ... }` in the package's types. */
function members(name) {
  const body = dts.match(new RegExp(`export interface ${name} \\{([\\s\\S]*?)\\n\\}`))[1];
  return [...body.matchAll(/^ {2}(\w+)\??:/gm)].map((m) => m[1]);
}

test("index.d.ts's Config has exactly the table's fields", () => {
  const typed = members("Config").flatMap((name) => {
    if (name === "network") return members("NetworkConfig").map((m) => `network.${m}`);
    if (name === "cpu") return members("CpuConfig").map((m) => `cpu.${m}`);
    if (name === "server") return members("ServerConfig").map((m) => `server.${m}`);
    return [name];
  });
  assert.deepEqual(typed.sort(), fields().map((f) => f.name).sort());
});

test("config.d.ts's Fault union has exactly the fault table's kinds", () => {
  const union = dts.match(/export type Fault =([\s\S]*?);\n\n/)[1];
  const typed = [...union.matchAll(/kind: "(\w+)"/g)].map((m) => m[1]);
  const table = fields().find((f) => f.name === "faults").kind.kinds;
  assert.ok(table.length >= 4);
  assert.deepEqual(typed, table);
});

test("index.d.ts's LiveField is exactly the table's live fields", () => {
  const union = dts.match(/export type LiveField =([\s\S]*?);/)[1];
  const named = [...union.matchAll(/"([\w.]+)"/g)].map((m) => m[1]);
  if (union.includes("`cpu.${keyof CpuConfig}`")) named.push(...members("CpuConfig").map((m) => `cpu.${m}`));
  assert.deepEqual(named.sort(), fields().filter((f) => f.live).map((f) => f.name).sort());
  for (const top of liveFields()) assert.ok(named.some((n) => n === top || n.startsWith(`${top}.`)), top);
});

test("index.d.ts's PresetName is exactly the package's presets", () => {
  const union = dts.match(/export type PresetName =([^;]*);/)[1];
  const named = [...union.matchAll(/"([\w-]+)"/g)].map((m) => m[1]);
  assert.deepEqual(named, presets().map((p) => p.name));
});

test("every playground URL field is a table field of the same kind", () => {
  const table = new Map(fields().map((f) => [f.name, f.kind.type]));
  const kindOf = { int: "int", number: "number", bool: "bool", choice: "string" };
  for (const [name, kind] of Object.entries(PLAYGROUND_FIELDS)) {
    if (name === "preset") continue; // a name of presets(), not a config field
    assert.ok(table.has(name), `${name} is not a config field`);
    assert.equal(kindOf[table.get(name)], kind, name);
  }
});

test("every table field is a playground URL field, but for the few a URL does not carry", () => {
  // CPU costs are a calibration (their scale and spread are not), faults are injected
  // live, run lengths (and where a run stops) are the page's own.
  const notInUrls = (name) => /^cpu\.\w+Ns$/.test(name) || ["faults", "durationMs", "warmupMs", "warmup", "precision", "precisionMetric"].includes(name);
  for (const f of fields()) {
    if (!notInUrls(f.name)) assert.ok(f.name in PLAYGROUND_FIELDS, `${f.name} cannot be set from a URL (js/element/state.js FIELDS)`);
  }
});

test("the table describes each field for people: unit, range, default", () => {
  for (const f of fields()) {
    assert.ok(f.about.length > 10, f.name);
    if (f.kind.type === "choice") {
      assert.equal(f.kind.labels.length, f.kind.values.length, `${f.name}: a menu label for each choice`);
      for (const l of f.kind.labels) assert.ok(l.length > 2, `${f.name}: label ${l}`);
    }
    if (f.kind.type === "int" || f.kind.type === "number") {
      assert.ok(f.kind.min <= f.default && f.default <= f.kind.max, `${f.name} default in range`);
      if (/(Ms|Us|Ns)$/.test(f.name)) assert.equal(f.unit, f.name.slice(-2).toLowerCase(), f.name);
    }
  }
});

test("index.d.ts's choice unions are exactly the table's choices", () => {
  const unions = {
    workload: "Workload", allocator: "Allocator", idCacheScope: "IdCacheScope", partitioning: "Partitioning", keyLayout: "KeyLayout",
    precisionMetric: "IntervalMetric", warmup: "WarmupMode", engine: "Engine", "server.lockGrant": "LockGrant",
    "server.deadlockSearch": "DeadlockSearch",
  };
  const choices = fields().filter((f) => f.kind.type === "choice");
  assert.deepEqual(choices.map((f) => f.name).sort(), Object.keys(unions).sort(), "every choice field has its union");
  for (const f of choices) {
    const union = dts.match(new RegExp(`export type ${unions[f.name]} =([^;]*);`))[1];
    // precisionMetric also takes "headline", the run's headline figure, which is no metric.
    const values = f.name === "precisionMetric" ? f.kind.values.filter((v) => v !== "headline") : f.kind.values;
    assert.deepEqual([...union.matchAll(/"([\w-]+)"/g)].map((m) => m[1]), values, f.name);
    // The workload may also be a spec object; the precision metric also the headline.
    const type = f.name === "workload" ? "Workload \\| WorkloadSpec" : f.name === "precisionMetric" ? 'IntervalMetric \\| "headline"' : unions[f.name];
    // A nested field (server.lockGrant) is a member of its object's interface.
    assert.match(dts, new RegExp(`\\n  ${f.name.split(".").pop()}\\??: ${type};`), `Config.${f.name} is typed ${type}`);
  }
});

test("index.d.ts's WindowColumns and Snapshot carry exactly the metric table's window metrics", () => {
  const windowed = metrics().filter((m) => m.window).map((m) => m.name);
  const shape = ["first", "count", "dataNodes", "partitions"];
  assert.deepEqual(members("WindowColumns").filter((m) => !shape.includes(m)).sort(), [...windowed].sort());
  const snapshot = members("Snapshot");
  for (const name of windowed) assert.ok(snapshot.includes(name), `Snapshot lacks ${name}`);
  const state = ["nowMs", "events", "finished", "windowsClosed", "dataNodes", "partitions", "activeClients", "hotRowNode", "hottestRows",
    "nodesDown", "aborts", "idsIssued", "idsLost", "duplicateIds", "bottleneckResourceKind", "bindingRow", "facts"];
  assert.deepEqual(snapshot.filter((m) => !windowed.includes(m)).sort(), state.sort(), "Snapshot's other members are state");
});

test("every line of the playground's charts is a scalar window metric of the table", () => {
  const scalar = new Set(metrics().filter((m) => m.window && m.shape === "scalar").map((m) => m.name));
  for (const [chart, lines] of Object.entries(CHART_LINES)) {
    assert.ok(lines.length > 0, chart);
    for (const { metric, color } of lines) {
      assert.ok(scalar.has(metric), `${chart} chart: ${metric} is not a scalar window metric of metrics()`);
      assert.ok(color === "hot" || color === 0 || color === 1, `${chart} chart: ${metric}'s colour ${color}`);
    }
  }
});

// The package's TypeScript unions that restate the core's tables, written from them: each
// choice field's values (`Allocator`, `Workload`, ...), `PresetName` and `LiveField`. The
// hand-written types keep their comments; only the union after `export type NAME =` is
// made anew. `npm run docs` (scripts/docs.mjs) rewrites them from the build's `hotrow
// fields --json` and `hotrow presets --json`, and its check (run by `npm test`) fails
// while one differs, as it does for the documents' tables.

/** Each union: the file it is in, and the names it holds, from the tables. */
export const UNIONS = [
  { file: "js/config.d.ts", type: "Workload", names: (t) => choice(t, "workload") },
  { file: "js/config.d.ts", type: "Allocator", names: (t) => choice(t, "allocator") },
  { file: "js/config.d.ts", type: "IdCacheScope", names: (t) => choice(t, "idCacheScope") },
  { file: "js/config.d.ts", type: "Partitioning", names: (t) => choice(t, "partitioning") },
  { file: "js/config.d.ts", type: "KeyLayout", names: (t) => choice(t, "keyLayout") },
  { file: "js/config.d.ts", type: "WarmupMode", names: (t) => choice(t, "warmup") },
  { file: "js/config.d.ts", type: "Engine", names: (t) => choice(t, "engine") },
  { file: "js/config.d.ts", type: "PresetName", names: (t) => t.presets.map((p) => JSON.stringify(p.name)), multiline: true },
  { file: "js/config.d.ts", type: "LiveField", names: liveFields, multiline: true },
  // precisionMetric's choices less "headline" (the run's headline figure, not a metric).
  { file: "js/summary.d.ts", type: "IntervalMetric", names: (t) => choice(t, "precisionMetric").filter((n) => n !== '"headline"') },
];

function choice(tables, field) {
  const f = tables.fields.find((x) => x.name === field);
  if (f?.kind.type !== "choice") throw new Error(`scripts/types.mjs: ${field} is not a choice field of \`hotrow fields\``);
  return f.kind.values.map((v) => JSON.stringify(v));
}

/** The live fields; the CPU costs as one template type when every one of them is live. */
function liveFields(tables) {
  const live = tables.fields.filter((f) => f.live).map((f) => f.name);
  const cpu = tables.fields.filter((f) => f.name.startsWith("cpu.")).map((f) => f.name);
  const allCpu = cpu.length > 0 && cpu.every((n) => live.includes(n));
  return [...live.filter((n) => !(allCpu && n.startsWith("cpu."))).map((n) => JSON.stringify(n)), ...(allCpu ? ["`cpu.${keyof CpuConfig}`"] : [])];
}

/** `export type NAME = a | b;` on one line when it fits in 120 columns (and the union is
 * not one to read down), else one member a line. */
export function union(type, names, multiline = false) {
  const line = `export type ${type} = ${names.join(" | ")};`;
  if (!multiline && line.length <= 120) return line;
  return `export type ${type} =\n${names.map((n) => `  | ${n}`).join("\n")};`;
}

/** `text` (a .d.ts file) with each of its unions written from `tables` ({ fields, presets }). */
export function rewrite(file, text, tables) {
  let out = text;
  for (const u of UNIONS.filter((x) => x.file === file)) {
    const at = new RegExp(`^export type ${u.type} =[^;]*;`, "m");
    if (!at.test(out)) throw new Error(`${file}: no \`export type ${u.type} = ...;\` to write`);
    out = out.replace(at, union(u.type, u.names(tables), u.multiline));
  }
  return out;
}

/** The files that hold unions. */
export const FILES = [...new Set(UNIONS.map((u) => u.file))];

// Workloads from the CLI: the list, shipped specs by name, a spec written by hand in a
// file, and hostile spec files (each exits 2 naming the JSON path, none panics).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hotrowBin } from "../hotrow.mjs";

const bin = hotrowBin;
const short = ["--preset", "modern", "--set", "durationMs=30", "--set", "warmupMs=10"];
const dir = mkdtempSync(join(tmpdir(), "hotrow-specs-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function hotrow(...args) {
  const r = spawnSync(bin, args, { encoding: "utf8" });
  if (r.error) throw r.error;
  return r;
}

const LIST = JSON.parse(hotrow("workloads", "--json").stdout);

test("hotrow workloads lists DBT2 and every shipped spec, as the field table offers them", () => {
  const fields = JSON.parse(hotrow("fields", "--json").stdout);
  const workload = fields.find((f) => f.name === "workload");
  assert.deepEqual(LIST.map((w) => w.name), workload.kind.values);
  assert.equal(LIST[0].spec, null);
  for (const w of LIST.slice(1)) assert.equal(w.spec.name, w.name);
  const table = hotrow("workloads").stdout;
  for (const w of LIST) assert.ok(table.includes(w.name), w.name);
});

for (const { name } of LIST) {
  test(`--workload ${name} runs and reports its own transactions`, () => {
    const r = hotrow("run", "--json", "--workload", name, ...short);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.config.workload, name);
    assert.ok(out.transactionsPerSecond > 0);
    const spec = LIST.find((w) => w.name === name).spec;
    const kinds = Object.keys(out.committedByType).filter((k) => k !== "refill");
    if (spec) for (const k of kinds) assert.ok(spec.transactions.some((t) => t.name === k), `${k} is one of the spec's`);
  });
}

test("a spec written by hand in a file runs, and its effective config carries it whole", () => {
  const spec = {
    name: "orders", api: "ndbapi",
    tables: [{ name: "orders", rows: 0, key: "autoIncrement" }, { name: "stock", rows: 1000, key: "primaryKey" }],
    transactions: [{ name: "order", statements: [
      { op: "update", table: "stock", rows: 2, key: { dist: "zipfian", theta: 0.9 } },
      { op: "insert", table: "orders" },
    ] }],
  };
  const file = join(dir, "orders.json");
  writeFileSync(file, JSON.stringify(spec));
  const r = hotrow("run", "--json", "--workload", file, ...short);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.config.workload.name, "orders");
  assert.deepEqual(out.config.workload.tables, spec.tables);
  assert.ok(out.committedByType.order > 0 && out.insertsPerSecond > 0);
});

test("twenty hostile spec files each exit 2 and name the JSON path; none panics", () => {
  const { cases } = JSON.parse(readFileSync(new URL("../../crate/sim/tests/hostile-specs.json", import.meta.url), "utf8"));
  assert.equal(cases.length, 20);
  for (const { why, spec, path } of cases) {
    const file = join(dir, "bad.json");
    writeFileSync(file, JSON.stringify(spec));
    const r = hotrow("run", "--workload", file, ...short);
    assert.equal(r.status, 2, `${why}: ${r.stderr}`);
    assert.doesNotMatch(r.stderr, /panicked/);
    assert.ok(r.stderr.includes(`\`${path}\``), `${why}: ${path} in: ${r.stderr}`);
  }
  const missing = hotrow("run", "--workload", join(dir, "none.json"));
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /not a workload name .*tpcb/);
});

test("sweep varies the workload by name", () => {
  const r = hotrow("sweep", "--vary", "workload=tpcb,ycsb-a", "--csv", ...short);
  assert.equal(r.status, 0, r.stderr);
  const rows = r.stdout.trim().split("\n").slice(1).map((l) => l.split(",")[0]);
  assert.deepEqual(rows, ["tpcb", "ycsb-a"]);
});

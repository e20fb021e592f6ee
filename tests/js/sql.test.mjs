// importSql: the SQL import's own WebAssembly module (dist/sql) gives what `hotrow import
// --json` gives, field for field; a refusal is a SqlImportError naming file, line and
// column; bad options and sources are named; the spec it gives runs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { importSql, SqlImportError, Simulation } from "../../js/node.mjs";
import { hotrowBin } from "../hotrow.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const source = (name) => ({ name, text: readFileSync(join(root, name), "utf8") });

function cli(files, extra = []) {
  const r = spawnSync(hotrowBin, ["import", "--json", ...extra, ...files], { cwd: root, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

test("importSql equals hotrow import --json on every example, field for field", async () => {
  const examples = [
    ["examples/sql/pgbench-schema.sql", "examples/sql/tpcb-like.sql"],
    ["examples/sql/orders-schema.sql", "examples/sql/orders.sql"],
    ["examples/sql/orders-schema.sql", "examples/sql/orders-digests.csv"],
    ["examples/sql/dbt2-schema.sql", "examples/sql/dbt2.sql"],
    ["examples/sql/sysbench-schema.sql", "examples/sql/sysbench-insert.sql"],
  ];
  for (const files of examples) {
    const got = await importSql(files.map(source));
    assert.deepEqual(got, cli(files), files.join(","));
  }
  // The idioms a counter is written in (crate/sql/tests/corpus/), PostgreSQL's and MySQL's.
  const corpus = (f) => `crate/sql/tests/corpus/${f}`;
  const idioms = [
    ["postgres", ["counters-schema.sql", "upsert-on-conflict.sql"]],
    ["postgres", ["counters-schema.sql", "merge.sql"]],
    ["postgres", ["counters-schema.sql", "data-modifying-with.sql"]],
    ["postgres", ["sequences-schema.sql", "sequences.sql"]],
    ["postgres", ["advisory-locks.sql"]],
    ["mysql", ["counters-schema.sql", "upsert-mysql.sql"]],
  ];
  for (const [dialect, names] of idioms) {
    const files = names.map(corpus);
    const got = await importSql(files.map(source), { dialect });
    assert.deepEqual(got, cli(files, ["--dialect", dialect]), files.join(","));
    assert.ok(got.statements.length > 0 && got.statements.every((s) => s.became), files.join(","));
  }
  // Options as the CLI's flags: a dialect named, a scale.
  const files = ["examples/sql/pgbench-schema.sql", "examples/sql/tpcb-like.sql"];
  assert.deepEqual(await importSql(files.map(source), { dialect: "postgres", scale: 5 }), cli(files, ["--dialect", "postgres", "--scale", "5"]));
});

test("an imported spec runs; a refusal names its file, line and column", async () => {
  const { spec, assumptions } = await importSql([source("examples/sql/orders-schema.sql"), source("examples/sql/orders.sql")]);
  assert.ok(assumptions.some((a) => a.text.includes("orders.order_ref$unique")), JSON.stringify(assumptions));
  const sim = new Simulation({ preset: "modern", workload: spec, durationMs: 100, warmupMs: 20 });
  sim.runToEnd();
  const s = sim.summary();
  assert.ok(s.transactionsPerSecond > 0);
  sim.free();

  const bad = "CREATE TABLE t (id INT PRIMARY KEY, v INT);\n\nINSERT INTO t SELECT * FROM t;\n";
  await assert.rejects(importSql(bad), (e) => {
    assert.ok(e instanceof SqlImportError);
    assert.deepEqual([e.file, e.line, e.column], ["workload.sql", 3, 1]);
    assert.match(e.reason, /INSERT \.\.\. SELECT/);
    assert.match(e.message, /^workload\.sql:3:1: /);
    return true;
  });
});

test("bad options and sources are named, and nothing is lost for the next call", async () => {
  const cases = [
    [[], {}, /sources: give SQL text/],
    [["x"], {}, /sources\[0\]\.text: the SQL, as a string/],
    [[{ name: "a.sql" }], {}, /sources\[0\]\.text/],
    [[{ name: "a.sql", text: "", weight: 0 }], {}, /sources\[0\]\.weight = 0: must be a whole number from 1 to 1000000/],
    ["SELECT 1;", { dialect: "oracle" }, /dialect oracle: must be mysql or postgres/],
    ["SELECT 1;", { scale: 0 }, /options\.scale = 0: must be a whole number from 1 to 100000/],
    ["SELECT 1;", { colour: "red" }, /options\.colour: unknown/],
  ];
  for (const [input, options, says] of cases) {
    await assert.rejects(importSql(input, options), (e) => e instanceof SqlImportError && says.test(e.message), String(says));
  }
  const ok = await importSql("CREATE TABLE t (id INT PRIMARY KEY, v INT);\nUPDATE t SET v = 1 WHERE id = ?;\n");
  assert.equal(ok.spec.transactions.length, 1);
});

// `hotrow import` and `--workload FILE.sql,...`: SQL in, a spec and its assumptions out;
// the files run as their spec does; a refusal exits 2 naming its file, line and column.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hotrowBin } from "../hotrow.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const bin = hotrowBin;
const files = ["examples/sql/pgbench-schema.sql", "examples/sql/tpcb-like.sql"].map((f) => join(root, f));
const short = ["--preset", "modern", "--set", "durationMs=300", "--set", "warmupMs=100"];

function hotrow(args) {
  const r = spawnSync(bin, args, { encoding: "utf8" });
  if (r.error) throw r.error;
  return r;
}

test("import --json gives the spec and its assumptions; --workload runs the same spec", () => {
  const r = hotrow(["import", "--json", ...files]);
  assert.equal(r.status, 0, r.stderr);
  const { spec, assumptions } = JSON.parse(r.stdout);
  assert.deepEqual(spec.tables.map((t) => [t.name, t.key]), [["pgbench_history", "hidden"], ["pgbench_tellers", "primaryKey"], ["pgbench_accounts", "primaryKey"], ["pgbench_branches", "primaryKey"]]);
  assert.ok(assumptions.every((a) => a.file && a.line >= 1 && a.column >= 1 && a.text), JSON.stringify(assumptions));
  const dir = mkdtempSync(join(tmpdir(), "hotrow-import-"));
  writeFileSync(join(dir, "spec.json"), JSON.stringify(spec));
  const fromSql = JSON.parse(hotrow(["run", "--json", ...short, "--workload", files.join(",")]).stdout);
  const fromSpec = JSON.parse(hotrow(["run", "--json", ...short, "--workload", join(dir, "spec.json")]).stdout);
  assert.equal(fromSql.digest, fromSpec.digest, "the SQL runs as its spec");
  assert.ok(fromSql.transactionsPerSecond > 0);
});

test("a refusal exits 2 with its file, line and column; a bad weight and dialect are named", () => {
  const dir = mkdtempSync(join(tmpdir(), "hotrow-import-"));
  writeFileSync(join(dir, "s.sql"), "CREATE TABLE t (id INT PRIMARY KEY, v INT);\n");
  writeFileSync(join(dir, "x.sql"), "UPDATE t SET v = 1 WHERE id = ?;\nINSERT INTO t SELECT * FROM t;\n");
  const r = hotrow(["import", join(dir, "s.sql"), join(dir, "x.sql")]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /x\.sql:2:1: INSERT \.\.\. SELECT/);
  assert.match(hotrow(["import", `${join(dir, "x.sql")}@0`]).stderr, /weight after @ must be a whole number from 1/);
  assert.match(hotrow(["import", "--dialect", "oracle", join(dir, "s.sql")]).stderr, /--dialect oracle: must be mysql or postgres/);
  assert.match(hotrow(["run", "--workload", `${join(dir, "s.sql")},${join(dir, "x.sql")}`]).stderr, /x\.sql:2:1/);
});

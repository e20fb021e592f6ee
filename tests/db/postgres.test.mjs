// `hotrow measure` against a real PostgreSQL that this test starts and stops: it agrees
// with pgbench on the same server (a timing: checked as a ratio in a loose band), refuses
// what it must refuse, and its points calibrate the `postgres` engine, whose one-hot-row
// curve then has the server's shape: a peak at a few clients, then a fall.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPostgres } from "./postgres.mjs";
import { hotrowBin } from "../hotrow.mjs";

const bin = hotrowBin;
const hotrow = (...args) => spawnSync(bin, args, { encoding: "utf8" });

let pg;
let work;
before(async () => {
  pg = await startPostgres();
  work = mkdtempSync(join(tmpdir(), "hotrow-measure-"));
  writeFileSync(join(work, "setup.sql"), "CREATE TABLE counters (id int PRIMARY KEY, n bigint NOT NULL);\nINSERT INTO counters SELECT g, 0 FROM generate_series(1, 40) g;\n");
  writeFileSync(join(work, "one.sql"), "UPDATE counters SET n = n + 1 WHERE id = 1;\n");
  writeFileSync(join(work, "forty.sql"), "\\set k random(1, 40)\nUPDATE counters SET n = n + 1 WHERE id = :k;\n");
});
after(() => {
  pg?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** `hotrow measure` on the test's server; its points as [{ clients, tps }]. */
function measure(script, clients, seconds, extra = []) {
  const out = join(work, `${script}-${clients}.csv`);
  const r = hotrow("measure", "--postgres", pg.conninfo, "--script", join(work, script), "--own", "counters",
    "--clients", clients, "--seconds", String(seconds), "--warmup-seconds", "0.5", "--out", out, ...extra);
  assert.equal(r.status, 0, r.stderr);
  const [label, header, ...rows] = readFileSync(out, "utf8").trim().split("\n");
  assert.match(label, /^# measured by hotrow measure: /, "the file says it holds measurements");
  assert.equal(header, "clientsPerApiNode,transactionsPerSecond");
  return { stdout: r.stdout, points: rows.map((l) => l.split(",").map(Number)).map(([c, tps]) => ({ clients: c, tps })) };
}

test("measure agrees with pgbench on the same server and script (a ratio of transactions/s)", () => {
  hotrow("measure", "--postgres", pg.conninfo, "--script", join(work, "forty.sql"), "--setup", join(work, "setup.sql"), "--clients", "1", "--seconds", "0.2", "--warmup-seconds", "0");
  const pgbench = pg.pgbench(["-n", "-f", join(work, "forty.sql"), "-c", "4", "-j", "4", "-T", "3"]);
  const theirs = Number(pgbench.match(/^tps = ([\d.]+)/m)[1]);
  const { stdout, points } = measure("forty.sql", "4", 3);
  const ours = points[0].tps;
  console.log(`pgbench ${theirs.toFixed(0)} tps, hotrow measure ${ours.toFixed(0)} tps: ratio ${(ours / theirs).toFixed(2)}`);
  assert.ok(ours / theirs > 0.5 && ours / theirs < 2, `measure ${ours} vs pgbench ${theirs}`);
  assert.match(stdout, /measured/);
  assert.match(stdout, /latency mean/);
});

test("measure refuses a server elsewhere and a write outside the workload's tables", () => {
  const remote = hotrow("measure", "--postgres", "host=192.0.2.1 user=x", "--script", join(work, "one.sql"), "--own", "counters");
  assert.equal(remote.status, 2);
  assert.match(remote.stderr, /not on this machine.*--allow-remote/);
  writeFileSync(join(work, "bad.sql"), "UPDATE counters SET n = 0;\nDELETE FROM pg_stat_statements_info;\n");
  const bad = hotrow("measure", "--postgres", pg.conninfo, "--script", join(work, "bad.sql"), "--own", "counters");
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /writes `pg_stat_statements_info`, which is not the workload's own/);
});

test("a fit of the postgres engine to the server's one-row curve keeps its shape: a peak at a few clients, then a fall", () => {
  const { points } = measure("one.sql", "1,4,16,48", 1.5);
  const csv = join(work, "one-curve.csv");
  writeFileSync(csv, "clientsPerApiNode,transactionsPerSecond\n" + points.map((p) => `${p.clients},${Math.round(p.tps)}`).join("\n") + "\n");
  const fit = hotrow("fit", "--json", "--preset", "postgres", "--measured", csv, "--fit", "server.recheckNs", "--max-iterations", "8",
    "--set", "durationMs=1500", "--set", "warmupMs=300");
  assert.equal(fit.status, 0, fit.stderr);
  // From the JSON: the text prints a rate under 1,000 with a decimal (460.7), which a
  // reading of the table's integers once missed.
  const model = JSON.parse(fit.stdout).fit.points.map((p) => ({ clients: p.values.clientsPerApiNode, measured: p.measured, hotrow: p.simulated }));
  assert.equal(model.length, 4, fit.stdout);
  console.log(model.map((p) => `${p.clients}: measured ${p.measured}, hotrow ${Math.round(p.hotrow)}`).join("; "));
  const peak = model.reduce((a, b) => (b.hotrow > a.hotrow ? b : a));
  assert.ok(peak.clients <= 16, `the model's peak at ${peak.clients} clients`);
  assert.ok(model.at(-1).hotrow < 0.85 * peak.hotrow, `the model at 48 clients keeps ${model.at(-1).hotrow} of ${peak.hotrow}`);
  assert.ok(model.at(-1).measured < model.reduce((a, b) => Math.max(a, b.measured), 0), "the server falls past its peak too");
});

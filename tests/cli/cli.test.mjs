// The CLI's public behaviour: the shape of `hotrow run --json`, exit codes, --set parsing.
// Other programs read this output; these names must not change.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../../target/release/hotrow", import.meta.url));
const short = ["--set", "durationMs=300", "--set", "warmupMs=100"];

function hotrow(...args) {
  const r = spawnSync(bin, args, { encoding: "utf8" });
  if (r.error) throw r.error;
  return r;
}

function runJson(...args) {
  const r = hotrow("run", "--json", ...short, ...args);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

const PRESETS = ["bug39267", "bug39267-fixed", "ndbapi-pk", "ndbapi-hidden-pk", "modern"];

for (const preset of PRESETS) {
  test(`run --json --preset ${preset} has the public shape`, () => {
    const out = runJson("--preset", preset);
    for (const k of ["simulatedSeconds", "events", "insertsPerSecond", "transactionsPerSecond", "tpm",
                     "idsIssued", "idsLost", "duplicateIds"]) {
      assert.equal(typeof out[k], "number", k);
    }
    assert.equal(typeof out.digest, "string");
    assert.match(out.digest, /^[0-9a-f]{16}$/);
    for (const k of ["seed", "workload", "dataNodes", "replicas", "apiNodes", "clientsPerApiNode", "thinkTimeUs",
                     "cacheSize", "hintedRefill", "primaryKey", "warehouses", "durationMs", "warmupMs"]) {
      assert.ok(k in out.config, `config.${k}`);
    }
    assert.equal(out.nodes.length, out.config.dataNodes);
    for (const n of out.nodes) {
      for (const k of ["id", "nodeGroup", "load", "tcTransactions", "messages"]) assert.equal(typeof n[k], "number", k);
      assert.ok(n.load >= 0 && n.load <= 1);
    }
    for (const k of ["refillsPerSecond", "lockUtilization", "lockWaitUsMean", "lockHoldUsMean"]) {
      assert.equal(typeof out.hotRow[k], "number", k);
    }
    for (const k of ["mean", "p50", "p99"]) assert.equal(typeof out.latencyUs[k], "number", k);
    assert.ok(out.transactionsPerSecond > 0, "non-zero throughput");
    assert.equal(out.duplicateIds, 0);
  });
}

test("the same seed gives the same digest, another seed another", () => {
  const a = runJson("--preset", "bug39267");
  const b = runJson("--preset", "bug39267");
  const c = runJson("--preset", "bug39267", "--set", "seed=2");
  assert.equal(a.digest, b.digest);
  assert.notEqual(a.digest, c.digest);
});

test("bad input exits 2 and names the field", () => {
  for (const [args, field] of [
    [["--set", "dataNodes=7"], "dataNodes"],
    [["--set", "cacheSize=0"], "cacheSize"],
    [["--set", "cacheSize=lots"], "cacheSize"],
    [["--set", "network.latencyUs=-5"], "network.latencyUs"],
    [["--set", "nosuchField=1"], "nosuchField"],
    [["--preset", "nope"], "preset"],
    [["--set", "noequals"], "KEY=VALUE"],
    [["--config", "/nonexistent.json"], "/nonexistent.json"],
  ]) {
    const r = hotrow("run", "--preset", "bug39267", ...args);
    assert.equal(r.status, 2, `${args}: ${r.stderr}`);
    assert.ok(r.stderr.includes(field), `${args}: ${r.stderr}`);
  }
});

test("--set reads JSON values and dotted keys", () => {
  const out = runJson("--set", "network.latencyUs=20", "--set", "hintedRefill=true", "--set", "workload=ndbapi-insert");
  assert.equal(out.config.network.latencyUs, 20);
  assert.equal(out.config.hintedRefill, true);
  assert.equal(out.config.workload, "ndbapi-insert");
  assert.equal(out.tpm, 0);
});

test("presets lists every preset and --help explains the commands", () => {
  const p = hotrow("presets");
  assert.equal(p.status, 0);
  for (const name of PRESETS) assert.match(p.stdout, new RegExp(`^${name} `, "m"));
  const h = hotrow("--help");
  assert.equal(h.status, 0);
  for (const word of ["run", "presets", "bench", "cacheSize"]) assert.ok(h.stdout.includes(word), word);
});

test("the readable table shows the headline figures", () => {
  const r = hotrow("run", "--preset", "bug39267", ...short);
  assert.equal(r.status, 0, r.stderr);
  for (const s of ["TPM (New-Order)", "hot row", "lock utilization", "<- hot row", "digest"]) assert.ok(r.stdout.includes(s), s);
});

test("validate reproduces the seed's table and says so", () => {
  const r = hotrow("validate", "--json");
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.pass, true);
  assert.ok(report.cases.length >= 5);
  for (const c of report.cases) {
    assert.equal(typeof c.model, "number", c.name);
    assert.equal(c.pass, true, `${c.name}: model ${c.model} vs ${c.seedFigure}`);
  }
  const table = hotrow("validate");
  assert.equal(table.status, 0);
  assert.match(table.stdout, /106k TPM/);
  assert.match(table.stdout, /every case passes/);
});

test("swarm runs seeds and says how many passed", () => {
  const r = hotrow("swarm", "--seeds", "25", "--start", "500");
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /25 runs, \d+ faults, \d+ events in [\d.]+ s: 25 passed, 0 failed/);
});

test("faults given with --set run, abort and retry, and lose no id twice", () => {
  const faults = JSON.stringify([{ atMs: 150, kind: "dataNodeFailure", dataNode: 1, restartAfterMs: 100 },
                                 { atMs: 200, kind: "apiNodeRestart", apiNode: 0, downMs: 50 }]);
  const out = runJson("--preset", "bug39267-fixed", "--set", `faults=${faults}`);
  assert.equal(out.config.faults.length, 2);
  assert.ok(out.aborts > 0);
  assert.ok(out.idsLost > 0);
  assert.equal(out.duplicateIds, 0);
  const bad = hotrow("run", "--set", 'faults=[{"atMs":1,"kind":"dataNodeFailure","dataNode":99}]');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /faults\[0\]\.dataNode/);
});

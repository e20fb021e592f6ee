// The CLI's public behaviour: the shape of `hotrow run --json`, exit codes, --set parsing.
// Other programs read this output; these names must not change.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { hotrowBin as bin } from "../hotrow.mjs";

const short = ["--set", "durationMs=300", "--set", "warmupMs=100"];

function hotrow(...args) {
  const r = spawnSync(bin, args, { encoding: "utf8" });
  if (r.error) throw r.error;
  return r;
}

/** The metric table, as the CLI prints it. */
const METRICS = JSON.parse(hotrow("metrics", "--json").stdout);

function runJson(...args) {
  const r = hotrow("run", "--json", ...short, ...args);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

/** Every preset, from the CLI's own list (a new preset is covered without editing this file). */
const PRESETS = JSON.parse(hotrow("presets", "--json").stdout).map((p) => p.name);

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
    assert.equal(out.allocator.kind, out.config.allocator);
    for (const k of ["coordinationsPerSecond", "idsLost", "inOrderFraction"]) assert.equal(typeof out.allocator[k], "number", k);
    for (const k of ["insertSkew", "hottestPartition", "partitionsTouched"]) assert.equal(typeof out.keys[k], "number", k);
    assert.equal(out.nodes.length, out.config.dataNodes);
    for (const n of out.nodes) {
      for (const k of ["id", "nodeGroup", "load", "tcTransactions", "messages"]) assert.equal(typeof n[k], "number", k);
      assert.ok(n.load >= 0 && n.load <= 1);
    }
    for (const k of ["refillsPerSecond", "lockUtilization", "lockWaitMeanUs", "lockHoldMeanUs"]) {
      assert.equal(typeof out.hotRow[k], "number", k);
    }
    // The names 0.2.0 renamed, still written through 0.2.x.
    assert.equal(out.hotRow.lockHoldUsMean, out.hotRow.lockHoldMeanUs);
    assert.equal(out.hotRow.lockWaitUsMean, out.hotRow.lockWaitMeanUs);
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

test("--engine starts from the engine's preset, and names the engine in the header", () => {
  const r = hotrow("run", "--engine", "innodb", ...short, "--json");
  assert.equal(r.status, 0, r.stderr);
  const s = JSON.parse(r.stdout);
  assert.equal(s.config.engine, "innodb");
  assert.equal(s.config.dataNodes, 1, "the innodb preset's one server");
  assert.match(hotrow("run", "--engine", "postgres", ...short).stdout, /^hotrow: .* on one PostgreSQL server/);
  // Beside a preset, --engine only sets the field (a cluster preset refuses a one-server engine).
  const clash = hotrow("run", "--preset", "bug39267", "--engine", "innodb", ...short);
  assert.equal(clash.status, 2);
  assert.match(clash.stderr, /dataNodes.*innodb/);
  const bad = hotrow("run", "--engine", "mysql", ...short);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--engine mysql: unknown variant `mysql`, expected one of `ndb`, `postgres`, `innodb`/);
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
  for (const s of ["hot row", "<- hot row", "digest"]) assert.ok(r.stdout.includes(s), s);
  // Every summary metric of the table, by label and name.
  for (const m of METRICS.filter((x) => x.summary)) assert.ok(r.stdout.includes(`${m.label} (${m.name})`), m.name);
  assert.match(r.stdout.split("\n")[0], /fetches one id at a time from the SYSTAB_0 counter row, unhinted/);
  // A strategy without the counter row names its own ids and marks no hot row.
  const t = hotrow("run", "--preset", "timestamp-ids", ...short);
  assert.match(t.stdout.split("\n")[0], /ids are made from the clock \(1000 us ticks\), the node and a 12-bit sequence/);
  // No counter row: the hot row is named (the busiest row lock, if none binds), no id counter row.
  assert.ok(t.stdout.includes("hot row:") && !t.stdout.includes("id counter row") && !t.stdout.includes("cacheSize"), t.stdout.slice(0, 400));
  // Services as calibrated say nothing; scaled or varying ones say so.
  assert.ok(!r.stdout.split("\n")[1].includes("CPU costs"), r.stdout.split("\n")[1]);
  const v = hotrow("run", "--preset", "bug39267", ...short, "--set", "cpu.scale=0.5", "--set", "cpu.serviceCv=1");
  assert.match(v.stdout.split("\n")[1], /, CPU costs x0\.5, service times CV 1 \(gamma\), network 47 us CV 0\.75$/);
});

test("run names what holds it and, with --remedies, what each remedy buys", () => {
  const r = hotrow("run", "--preset", "bug39267", "--set", "durationMs=1500", "--set", "warmupMs=500", "--remedies");
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /What holds it\n {4}bottleneck {4}the counter row of `history` in SYSTAB_0, on data node 1\n/);
  assert.match(r.stdout, /hottest rows[^\n]*who waits for whom\n {2}SYSTAB_0 \(history\) .*refill: update SYSTAB_0 waits for refill: update SYSTAB_0 \(100%\)/);
  // The next ceiling with its 95% interval, and the intervals' method under it.
  assert.match(r.stdout, /next ceiling +[\d,]+ ± [\d,]+ transactions\/s \([\d,]+ ± [\d,]+ TPM\) with the id allocator/);
  assert.match(r.stdout, /±: 95% intervals by batch means/);
  const cache = r.stdout.match(/a cache of 1000 ids per refill +[\d,]+ transactions\/s \([\d,]+ TPM\) +([\d.]+)  the thread of data node/);
  assert.ok(cache && +cache[1] > 1.3, r.stdout);
  const json = JSON.parse(hotrow("run", "--preset", "bug39267", ...short, "--json").stdout);
  assert.equal(json.bottleneck.kind, "counterRow");
  assert.ok(json.nextCeiling.transactionsPerSecond > json.transactionsPerSecond);
  assert.equal(hotrow("run", "--remedies", "--json").status, 2, "--remedies prints a table, not JSON");
});

test("a broken invariant exits 1 naming the seed; a panic would too", () => {
  const r = hotrow("run", "--preset", "ndbapi-pk", "--set", "seed=31", ...short, "--fail-check-for-tests");
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /invariant broken .*seed 31.*deliberate/);
});

test("--config - reads the config from standard input", () => {
  const config = JSON.stringify({ preset: "ndbapi-hidden-pk", seed: 5, durationMs: 200, warmupMs: 50 });
  const piped = spawnSync(bin, ["run", "--json", "--config", "-"], { input: config, encoding: "utf8" });
  assert.equal(piped.status, 0, piped.stderr);
  const direct = hotrow("run", "--json", "--preset", "ndbapi-hidden-pk", "--set", "seed=5", "--set", "durationMs=200", "--set", "warmupMs=50");
  assert.equal(JSON.parse(piped.stdout).digest, JSON.parse(direct.stdout).digest);
  const bad = spawnSync(bin, ["run", "--config", "-"], { input: "[1, 2]", encoding: "utf8" });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--config -: must hold one JSON object/);
});

test("presets --json gives each preset's description and whole config; metrics --json the metric table", () => {
  const list = JSON.parse(hotrow("presets", "--json").stdout);
  assert.ok(list.length >= 12 && list[0].name === "bug39267", "the presets, the default first");
  assert.deepEqual(hotrow("presets").stdout.trim().split("\n").map((l) => l.split(" ")[0]), PRESETS, "the table lists the same");
  for (const p of list) {
    assert.ok(p.description.length > 10 && typeof p.config.dataNodes === "number", p.name);
    assert.equal(JSON.parse(hotrow("run", "--json", "--preset", p.name, "--set", "durationMs=1", "--set", "warmupMs=0").stdout).config.cacheSize, p.config.cacheSize);
  }
  assert.ok(METRICS.some((m) => m.name === "insertsPerSecond" && m.window && m.summary === "insertsPerSecond"));
  assert.ok(METRICS.every((m) => ["scalar", "perNode", "perPartition"].includes(m.shape)));
  assert.match(hotrow("metrics").stdout, /^insertSkew +fraction +scalar/m);
});

test("validate reproduces the bug report's table and says so", () => {
  // The JSON form here; the table is docs/calibration.md's excerpt of `hotrow validate`,
  // every line of it (each case's figures, "pass", "every case passes"), which the docs
  // check holds to the same build's output (tests/cli/docs.test.mjs): each runs every case.
  const r = hotrow("validate", "--json");
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.pass, true);
  assert.equal(report.seed, 1);
  assert.ok(report.cases.length >= 5);
  for (const c of report.cases) {
    assert.equal(typeof c.model, "number", c.name);
    assert.equal(c.pass, true, `${c.name}: model ${c.model} vs ${c.reported}`);
  }
  assert.ok(report.cases.some((c) => /DBT2 8 nodes, cache 1, no hint/.test(c.name) && c.reported === "106k TPM"));
});

test("swarm runs seeds and says how many passed", () => {
  const r = hotrow("swarm", "--seeds", "25", "--start", "500");
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /25 runs, \d+ faults, \d+ events in [\d.]+ s: 25 passed, 0 failed/);
});

test("swarm --json gives every seed's config and digest; --baseline compares them with another build", () => {
  const r = hotrow("swarm", "--seeds", "6", "--start", "40", "--json");
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.runs.length, 6);
  for (const run of out.runs) {
    assert.match(run.digest, /^[0-9a-f]{16}$/);
    const again = spawnSync(bin, ["run", "--json", "--config", "-"], { input: JSON.stringify(run.config), encoding: "utf8" });
    assert.equal(JSON.parse(again.stdout).digest, run.digest, `seed ${run.seed}: the swarm's digest is the run's`);
  }
  const same = hotrow("swarm", "--seeds", "6", "--start", "40", "--baseline", bin);
  assert.equal(same.status, 0, same.stderr);
  assert.match(same.stderr, /6 seeds give the same digest, 0 differ/);
  const broken = hotrow("swarm", "--seeds", "2", "--baseline", "/nonexistent/hotrow");
  assert.equal(broken.status, 2);
  assert.match(broken.stderr, /cannot run it/);
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

test("sweep prints one CSV row per run, the same whatever --jobs, and shards concatenate", () => {
  const args = ["sweep", "--vary", "cacheSize=1,10,100,1000", "--seeds", "2", "--csv", "--set", "durationMs=200", "--set", "warmupMs=50"];
  const one = hotrow(...args, "--jobs", "1");
  assert.equal(one.status, 0, one.stderr);
  const lines = one.stdout.trim().split("\n");
  const columns = METRICS.filter((m) => m.summary).map((m) => m.name);
  // Last, the columns 0.2.0 renamed, under their old names (through 0.2.x).
  const old = ["hotRowLockHoldUsMean", "arrivalWaitUsMean", "arrivalWaitUsP99"];
  assert.equal(lines[0], ["cacheSize", "seed", ...columns, "bottleneck", "digest", ...old].join(","));
  for (const l of lines.slice(1)) {
    assert.equal(l.split(",").at(-3), l.split(",")[2 + columns.indexOf("hotRowLockHoldMeanUs")], "the old column repeats the new");
  }
  assert.equal(lines.length, 1 + 8, "a header and 4 points x 2 seeds");
  assert.deepEqual(lines.slice(1).map((l) => l.split(",").slice(0, 2).join(",")),
    ["1,1", "1,2", "10,1", "10,2", "100,1", "100,2", "1000,1", "1000,2"]);
  const tpm = lines.slice(1).map((l) => +l.split(",")[2 + columns.indexOf("tpm")]);
  assert.ok(tpm[6] > tpm[0] * 1.2, `cache 1000 beats cache 1: ${tpm}`);
  assert.equal(hotrow(...args, "--jobs", "2").stdout, one.stdout, "--jobs changes nothing but speed");
  const shards = [1, 2, 3].map((i) => hotrow(...args, "--shard", `${i}/3`).stdout).join("");
  assert.equal(shards, one.stdout, "shards concatenate into the whole table");
});

test("sweep --json gives per-point means and 95% intervals; bad --vary exits 2 naming the field", () => {
  const r = hotrow("sweep", "--vary", "hintedRefill=false,true", "--seeds", "3", "--json", "--set", "durationMs=200", "--set", "warmupMs=50");
  assert.equal(r.status, 0, r.stderr);
  const points = JSON.parse(r.stdout);
  assert.equal(points.length, 2);
  for (const p of points) {
    assert.deepEqual(p.seeds, [1, 2, 3]);
    const { mean, low, high } = p.metrics.tpm;
    assert.ok(low <= mean && mean <= high, JSON.stringify(p.metrics.tpm));
  }
  for (const [vary, field] of [["cacheSize=0,1", "cacheSize"], ["bogus=1", "bogus"], ["dataNodes=7", "dataNodes"]]) {
    const bad = hotrow("sweep", "--vary", vary);
    assert.equal(bad.status, 2, vary);
    assert.ok(bad.stderr.includes(`\`${field}\``), bad.stderr);
  }
  assert.equal(hotrow("sweep", "--vary", "cacheSize").status, 2);
  assert.equal(hotrow("sweep", "--vary", "cacheSize=1", "--shard", "4/3").status, 2);
});

test("run --csv prints one row per metrics window", () => {
  const r = hotrow("run", "--csv", "--set", "durationMs=300", "--set", "warmupMs=100");
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split("\n");
  const scalars = METRICS.filter((m) => m.window && m.shape === "scalar").map((m) => m.name);
  const header = lines[0].split(",");
  assert.deepEqual(header.slice(0, scalars.length), scalars);
  for (const col of ["nodeLoad[7]", "nodeTcPerSecond[0]", "nodeMessagesPerSecond[7]", "partitionInsertsPerSecond[7]"]) assert.ok(header.includes(col), col);
  assert.equal(header.length, scalars.length + 3 * 8 + 8, "8 data nodes, 8 partitions");
  assert.equal(lines.length, 1 + 4, "400 ms of 100 ms windows");
  assert.deepEqual(lines.slice(1).map((l) => +l.split(",")[0]), [100, 200, 300, 400]);
});

test("fields lists the field table that validation uses", () => {
  const r = hotrow("fields", "--json");
  assert.equal(r.status, 0, r.stderr);
  const fields = JSON.parse(r.stdout);
  const cache = fields.find((f) => f.name === "cacheSize");
  assert.deepEqual(cache.kind, { type: "int", min: 1, max: 1000000 });
  assert.equal(cache.live, true);
  assert.equal(cache.default, 1);
  assert.match(hotrow("fields").stdout, /^cacheSize +1\.\.=1000000 ids +1 +live /m);
});

test("bench prints speed as ratios and compares with a baseline binary", () => {
  const r = hotrow("bench", "--presets", "ndbapi-pk", "--duration-ms", "100", "--reps", "1", "--baseline", bin, "--json");
  assert.equal(r.status, 0, r.stderr);
  const [b] = JSON.parse(r.stdout);
  assert.equal(b.preset, "ndbapi-pk");
  assert.ok(b.eventsPerSecond > 0 && b.realTimeFactor > 0 && b.bareHeapRatio > 0);
  assert.equal(b.baseline.sameOutcome, true, "the same binary gives the same digest");
  assert.ok(b.baseline.speedUp > 0);
});

test("equivalence passes a build against itself and catches a 5% change in one CPU cost", () => {
  const args = ["equivalence", "--baseline", bin, "--presets", "ndbapi-pk", "--seeds", "20", "--duration-ms", "300", "--warmup-ms", "100"];
  const same = hotrow(...args);
  assert.equal(same.status, 0, same.stdout + same.stderr);
  const n = METRICS.filter((m) => m.summary).length;
  assert.match(same.stdout, new RegExp(`${n} of ${n} metrics equal`));
  // The baseline's writes cost 5% more (9.9 us -> 10.395 us): throughput moves about 1%.
  const changed = hotrow(...args, "--baseline-set", "cpu.lqhWriteNs=10395", "--json");
  assert.equal(changed.status, 1, changed.stderr);
  const report = JSON.parse(changed.stdout);
  const row = report.rows.find((r) => r.metric === "insertsPerSecond");
  assert.equal(row.equal, false);
  assert.ok(row.low > 0, `here is faster than the slowed baseline: ${JSON.stringify(row)}`);
  const bad = hotrow("equivalence", "--baseline", bin, "--presets", "ndbapi-pk", "--set", "cacheSize=0");
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /cacheSize/);
});

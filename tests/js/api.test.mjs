// The JavaScript API of the npm package, in Node: construction, the step/run API,
// snapshots, live changes, every kind of bad input, and digests equal to the native CLI's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { readFileSync } from "node:fs";
import { Simulation, Checkpoint, presets, version, init, liveFields, fields, metrics, workloads } from "hotrow";

const short = { durationMs: 300, warmupMs: 100 };
const cli = fileURLToPath(new URL("../../target/release/hotrow", import.meta.url));

test("init is harmless in Node and the module exports what the docs say", async () => {
  await init();
  assert.equal(typeof version, "string");
  const list = presets();
  assert.deepEqual(list.map((p) => p.name), ["bug39267", "bug39267-fixed", "ndbapi-pk", "ndbapi-hidden-pk", "modern", "ndb-autoincrement", "central-allocator", "timestamp-ids", "adaptive-cache", "range-sequential", "range-shard-bits", "range-bit-reversed"]);
  for (const p of list) {
    assert.equal(typeof p.description, "string");
    assert.ok(workloads().some((w) => w.name === p.config.workload), p.name);
  }
});

test("liveFields() names exactly the fields set() takes while running", () => {
  const live = liveFields();
  assert.ok(live.includes("cacheSize") && live.includes("network") && !live.includes("dataNodes"));
  const sim = new Simulation({ preset: "ndbapi-pk", durationMs: 50, warmupMs: 0 });
  const sample = { cacheSize: 10, hintedRefill: true, hintedTransactions: false, clientsPerApiNode: 3, thinkTimeUs: 5,
    durationMs: 60, network: { latencyUs: 40 }, cpu: { lqhWriteNs: 9000 }, dataNodes: 6, replicas: 1, warehouses: 3, seed: 9 };
  for (const [field, value] of Object.entries(sample)) {
    const key = typeof value === "object" ? `${field}.${Object.keys(value)[0]}` : field;
    const v = typeof value === "object" ? Object.values(value)[0] : value;
    let ok = true;
    try { sim.set(key, v); } catch { ok = false; }
    assert.equal(ok, live.includes(field), key);
  }
});

test("construct from a preset with overrides, or from nothing", () => {
  const sim = new Simulation({ preset: "bug39267-fixed", dataNodes: 4, ...short });
  assert.equal(sim.config.dataNodes, 4);
  assert.equal(sim.config.cacheSize, 1000);
  assert.equal(sim.config.warehouses, 32, "DBT2 sizes warehouses to the cluster");
  assert.equal(new Simulation().config.cacheSize, 1, "the default is the bug39267 preset");
  assert.equal(new Simulation({ preset: "ndbapi-pk", network: { latencyUs: 5 } }).config.network.latencyUs, 5);
});

test("runFor reaches the time asked for in one call; a budget is the caller's choice", () => {
  // 12 simulated seconds of bug39267 are about 18 million events: no hidden limit stops it.
  const sim = new Simulation({ preset: "bug39267", durationMs: 12_000, warmupMs: 0 });
  const r = sim.runFor(12_000);
  assert.equal(r.reached, true);
  assert.equal(r.nowMs, 12_000);
  assert.ok(r.events > 10_000_000, `${r.events} events`);
  assert.equal(sim.finished, true);
});

test("the version is the package's and the crate's", () => {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
  const cargo = readFileSync(new URL("../../Cargo.toml", import.meta.url), "utf8");
  assert.equal(version, pkg.version);
  assert.equal(cargo.match(/^version = "(.+)"$/m)[1], pkg.version);
  // The browser entry cannot ask the module before init(): its literal must match.
  assert.match(readFileSync(new URL("../../js/index.js", import.meta.url), "utf8"), new RegExp(`version = "${pkg.version}"`));
});

test("step and runFor do bounded work and report it", () => {
  const sim = new Simulation({ preset: "bug39267", ...short });
  assert.deepEqual(Object.keys(sim.step()), ["events", "nowMs"]);
  assert.equal(sim.step().events, 1);
  assert.equal(sim.step(1000).events, 1000);
  const r = sim.runFor(50, 10_000);
  assert.equal(r.events, 10_000);
  assert.equal(r.reached, false, "the event limit stopped it");
  const r2 = sim.runFor(50);
  assert.equal(r2.reached, true);
  assert.ok(r2.nowMs >= 50 && r2.nowMs === sim.nowMs);
});

test("snapshot and windows have the documented shapes", () => {
  const sim = new Simulation({ preset: "bug39267", ...short });
  const empty = sim.snapshot();
  assert.equal(empty.windowsClosed, 0);
  assert.equal(empty.nodeLoad.length, 8);
  sim.runFor(400);
  const s = sim.snapshot();
  for (const k of ["nowMs", "events", "windowsClosed", "insertsPerSecond", "transactionsPerSecond", "tpm",
                   "refillsPerSecond", "hotRowLockUtilization", "latencyP50Us", "latencyP99Us", "hotRowNode",
                   "idsIssued", "idsLost", "duplicateIds"]) {
    assert.equal(typeof s[k], "number", k);
  }
  assert.ok(s.nodeLoad instanceof Float64Array && s.nodeTcPerSecond instanceof Float64Array);
  assert.equal(s.nodeLoad.length, 8);
  assert.ok(s.tpm > 0 && s.hotRowLockUtilization > 0.9);
  assert.ok(s.hottestRows.length <= 10 && s.hottestRows[0].table === "SYSTAB_0", JSON.stringify(s.hottestRows[0]));
  // The window's bottleneck: the counter row (code 4), saturated, its bound the window's throughput.
  assert.equal(s.bottleneckKind, 4);
  assert.equal(s.bottleneckResourceKind, "counterRow");
  assert.equal(empty.bottleneckResourceKind, null);
  assert.ok(s.bottleneckUtilization > 0.97 && Math.abs(s.boundTransactionsPerSecond / s.transactionsPerSecond - 1) < 0.03);
  const e = sim.explain();
  assert.equal(e.bottleneck.kind, "counterRow");
  assert.match(e.bottleneck.name, /SYSTAB_0/);
  assert.ok(e.nextCeiling.transactionsPerSecond > e.bottleneck.boundTransactionsPerSecond, JSON.stringify(e.nextCeiling));
  assert.ok(s.hottestRows[0].waits[0].waiter === "refill: update SYSTAB_0" && Math.abs(s.hottestRows[0].waits.reduce((a, w) => a + w.share, 0) - 1) < 1e-9);
  const all = sim.windows();
  assert.deepEqual(Object.keys(all).sort(), ["bottleneckKind", "bottleneckUtilization", "boundTransactionsPerSecond",
    "coordinationsPerSecond", "count", "dataNodes", "endMs", "first", "hotRowLockUtilization",
    "hotRowQueueMean", "insertSkew", "insertsPerSecond", "latencyP50Us", "latencyP99Us", "nodeLoad", "nodeMessagesPerSecond",
    "nodeTcPerSecond", "offeredPerSecond", "partitionInsertsPerSecond", "partitions", "refillsPerSecond", "tpm", "transactionsPerSecond",
    "waitingMean"]);
  assert.equal(all.partitionInsertsPerSecond.length, all.count * all.partitions);
  assert.equal(s.partitionInsertsPerSecond.length, s.partitions);
  assert.equal(all.count, s.windowsClosed);
  assert.ok(all.insertSkew[0] > 0 && all.insertSkew[0] <= 1 && all.coordinationsPerSecond[0] > 0);
  assert.equal(all.nodeLoad.length, all.count * 8);
  sim.runFor(200);
  const fresh = sim.windows(s.windowsClosed);
  assert.equal(fresh.first, s.windowsClosed);
  assert.equal(fresh.count, 2);
  assert.ok(fresh.endMs[0] > all.endMs[all.count - 1]);
});

test("snapshot() and windows() carry the table's window metrics by the same names, with the same values", () => {
  const sim = new Simulation({ preset: "ndb-autoincrement", durationMs: 300, warmupMs: 0 });
  sim.runFor(250);
  const table = metrics();
  const windowNames = table.filter((m) => m.window).map((m) => m.name);
  const snap = sim.snapshot();
  const cols = sim.windows();
  const last = cols.count - 1;
  for (const m of table.filter((x) => x.window)) {
    assert.ok(m.name in snap && m.name in cols, m.name);
    if (m.shape === "scalar") {
      assert.equal(snap[m.name], cols[m.name][last], m.name);
    } else {
      const n = m.shape === "perNode" ? cols.dataNodes : cols.partitions;
      assert.deepEqual([...snap[m.name]], [...cols[m.name].subarray(last * n, (last + 1) * n)], m.name);
    }
  }
  // Nothing else in windows() is a metric; every summary metric's path is a number.
  const extra = Object.keys(cols).filter((k) => !windowNames.includes(k));
  assert.deepEqual(extra.sort(), ["count", "dataNodes", "first", "partitions"]);
  sim.runToEnd();
  const s = sim.summary();
  // Open arrivals' part is null in a closed loop: its paths are read from an open run.
  const open = new Simulation({ preset: "ndbapi-pk", arrivalRatePerApiNode: 1000, durationMs: 50, warmupMs: 0 });
  open.runToEnd();
  const o = open.summary();
  assert.equal(s.arrivals, null);
  for (const m of table.filter((x) => x.summary)) {
    const from = m.summary.startsWith("arrivals.") ? o : s;
    assert.equal(typeof m.summary.split(".").reduce((o, k) => o[k], from), "number", m.summary);
  }
  for (const m of table) assert.ok(m.label && m.unit && m.about.length > 10, m.name);
});

test("summary is the CLI's object, with the same digest, over many seeds", async () => {
  const cases = [["bug39267", 1], ["bug39267", 2], ["bug39267-fixed", 3], ["ndbapi-hidden-pk", 4],
    ["ndbapi-pk", 5], ["modern", 6], ["bug39267", 77], ["ndb-autoincrement", 8],
    ["central-allocator", 9], ["timestamp-ids", 10], ["adaptive-cache", 11],
    ["range-sequential", 12], ["range-shard-bits", 13], ["range-bit-reversed", 14]];
  // The native runs go on in other processes while this one runs the same in wasm.
  const natives = cases.map(([preset, seed]) => new Promise((resolve, reject) => {
    execFile(cli, ["run", "--json", "--preset", preset, "--set", `seed=${seed}`, "--set", "durationMs=300", "--set", "warmupMs=100"],
      { encoding: "utf8", maxBuffer: 1 << 26 }, (e, stdout, stderr) => (e ? reject(new Error(`${preset} ${seed}: ${stderr}`)) : resolve(stdout)));
  }));
  for (const [i, [preset, seed]] of cases.entries()) {
    const sim = new Simulation({ preset, seed, ...short });
    while (!sim.runToEnd(200_000).reached);
    const js = sim.summary();
    const native = JSON.parse(await natives[i]);
    assert.equal(js.digest, native.digest, `${preset} seed ${seed}`);
    assert.deepEqual(Object.keys(js).sort(), Object.keys(native).sort());
    assert.equal(js.tpm, native.tpm);
  }
});

test("live changes apply; structural ones are refused with a reason", () => {
  const sim = new Simulation({ preset: "bug39267", durationMs: 3000, warmupMs: 0 });
  sim.runFor(500);
  const before = sim.snapshot().tpm;
  sim.set("cacheSize", 1000);
  sim.set("hintedRefill", true);
  sim.set("thinkTimeUs", 0);
  sim.set("network.latencyUs", 60);
  sim.runFor(800);
  const after = sim.snapshot().tpm;
  assert.ok(after > before * 1.2, `${before} -> ${after}`);
  assert.equal(sim.config.cacheSize, 1000);
  sim.set("clientsPerApiNode", 2);
  sim.runFor(300);
  assert.equal(sim.snapshot().activeClients, 16);
  for (const field of ["dataNodes", "replicas", "seed", "workload", "warehouses"]) {
    assert.throws(() => sim.set(field, field === "workload" ? "ndbapi-insert" : 4),
      (e) => e.field === field && /new Simulation/.test(e.message), field);
  }
  assert.throws(() => sim.set("cacheSize", 0), (e) => e instanceof RangeError && e.field === "cacheSize");
  assert.equal(sim.config.cacheSize, 1000, "a refused change loses nothing");
});

test("every kind of bad config throws an error naming the field and value", () => {
  const cases = [
    [{ cacheSize: NaN }, "cacheSize", /NaN.*finite/],
    [{ cacheSize: Infinity }, "cacheSize", /finite/],
    [{ cacheSize: -1 }, "cacheSize", /-1/],
    [{ cacheSize: 0 }, "cacheSize", /from 1 to 1000000/],
    [{ cacheSize: 1e12 }, "cacheSize", /1000000/],
    [{ cacheSize: 2.5 }, "cacheSize", /2\.5/],
    [{ cacheSize: "1000" }, "cacheSize", /invalid type/],
    [{ cacheSize: null }, "cacheSize", /invalid type/],
    [{ hintedRefill: 1 }, "hintedRefill", /boolean/],
    [{ dataNodes: 7 }, "dataNodes", /multiple of `replicas`/],
    [{ dataNodes: 50 }, "dataNodes", /48/],
    [{ replicas: 5, dataNodes: 10 }, "replicas", /1 to 4/],
    [{ workload: "tpcc" }, "workload", /dbt2/],
    [{ preset: "nope" }, "preset", /bug39267/],
    [{ cacheSise: 10 }, "cacheSise", /unknown field/],
    [{ network: { latencyUs: -5 } }, "network.latencyUs", /-5/],
    [{ network: 5 }, "network", /object/],
    [{ cpu: { lqhWriteNs: [1] } }, "cpu.lqhWriteNs", /invalid type/],
    [{ seed: 2 ** 60 }, "seed", /./],
    [{ clientsPerApiNode: 4096, apiNodes: 256 }, "clientsPerApiNode", /65536/],
    [{ seed: 10n }, "seed", /bigint/],
    [{ seed: () => 1 }, "seed", /function/],
  ];
  for (const [config, field, pattern] of cases) {
    assert.throws(() => new Simulation(config), (e) => {
      assert.ok(e instanceof Error, `${field}: not an Error`);
      assert.equal(e.field, field, `${JSON.stringify(config, (k, v) => typeof v === "bigint" ? `${v}n` : v)}: ${e.message}`);
      assert.match(e.message, pattern);
      return true;
    });
  }
  for (const bad of ["bug39267", 42, true, [1, 2]]) {
    assert.throws(() => new Simulation(bad), /must be a JSON object/);
  }
});

test("bad arguments to step, runFor, windows and set throw named errors", () => {
  const sim = new Simulation({ preset: "ndbapi-pk", ...short });
  for (const n of [0, -1, 1.5, NaN, Infinity, "10", 1e12, null]) {
    assert.throws(() => sim.step(n), (e) => e.field === "maxEvents", `step(${n})`);
  }
  for (const ms of [-1, NaN, Infinity, "5", 1e10, null]) {
    assert.throws(() => sim.runFor(ms), (e) => e.field === "simulatedMs", `runFor(${ms})`);
  }
  assert.throws(() => sim.runFor(10, 0), (e) => e.field === "maxEvents");
  assert.throws(() => sim.windows(-3), (e) => e.field === "since");
  assert.throws(() => sim.set(42, 1), (e) => e.field === "(key)");
  assert.throws(() => sim.set("nope", 1), (e) => e.field === "nope");
  assert.throws(() => sim.set("hintedRefill", "yes"), (e) => e.field === "hintedRefill");
  assert.ok(sim.runFor(10).events > 0, "the simulation still works after all that");
});

test("faults can be injected live and are checked against the cluster's state", () => {
  const sim = new Simulation({ preset: "bug39267-fixed", durationMs: 3000, warmupMs: 0 });
  sim.runFor(300);
  sim.inject({ kind: "dataNodeFailure", dataNode: 3, restartAfterMs: 500 });
  sim.runFor(100);
  const s = sim.snapshot();
  assert.deepEqual(s.nodesDown, [3]);
  assert.ok(s.aborts > 0);
  assert.throws(() => sim.inject({ kind: "dataNodeFailure", dataNode: 2 }), (e) => e.field === "fault.dataNode" && /last live replica/.test(e.message));
  assert.throws(() => sim.inject({ kind: "meteor" }), (e) => e.field === "fault.kind");
  assert.throws(() => sim.inject({ kind: "networkDelay", dataNode: 1 }), (e) => e.field === "fault" && /extraUs/.test(e.message));
  sim.inject({ kind: "apiNodeRestart", apiNode: 0 });
  sim.inject({ kind: "networkDelay", dataNode: 0, extraUs: 1000, durationMs: 100 });
  sim.runFor(600);
  assert.deepEqual(sim.snapshot().nodesDown, [], "node 3 restarted");
  const sum = sim.summary();
  assert.equal(sum.duplicateIds, 0);
  assert.ok(sum.aborts > 0);
});

test("checkpoint, restore and fromCheckpoint: rewinding gives exactly the run that went on", () => {
  const config = { preset: "bug39267", ...short };
  const fresh = new Simulation(config);
  fresh.runToEnd();
  const sim = new Simulation(config);
  sim.runFor(170);
  const cp = sim.checkpoint();
  assert.ok(cp instanceof Checkpoint);
  assert.equal(cp.nowMs, 170);
  assert.ok(cp.memoryBytes > 10_000 && cp.memoryBytes < 4 << 20, `${cp.memoryBytes} bytes`);
  sim.set("cacheSize", 1000);
  sim.runToEnd();
  assert.notEqual(sim.summary().digest, fresh.summary().digest);
  sim.restore(cp);
  assert.equal(sim.nowMs, 170);
  assert.equal(sim.config.cacheSize, 1, "the live change made after the checkpoint is undone");
  assert.equal(sim.windows().count, 1, "windows closed after the checkpoint are gone");
  sim.runToEnd();
  assert.equal(sim.summary().digest, fresh.summary().digest);
  // A branch shares the past; its own future follows its own settings.
  const branch = Simulation.fromCheckpoint(cp);
  assert.equal(branch.nowMs, 170);
  branch.set("cacheSize", 1000);
  branch.runToEnd();
  assert.ok(branch.summary().insertsPerSecond > sim.summary().insertsPerSecond);
  // A checkpoint of another cluster is refused with the field, and nothing changes.
  const other = new Simulation({ ...config, dataNodes: 4 });
  assert.throws(() => other.restore(cp), (e) => e.field === "dataNodes" && /another simulation/.test(e.message));
  assert.equal(other.nowMs, 0);
  assert.throws(() => sim.restore({}), /Checkpoint/);
  for (const x of [cp, branch, other, sim, fresh]) x.free();
});

test("cluster() samples the messages in flight and the counter row's lock queue", () => {
  const sim = new Simulation({ preset: "bug39267", ...short });
  sim.runFor(50.25);
  const all = sim.cluster(1e6);
  const some = sim.cluster(7);
  assert.equal(some.inFlight, all.inFlight);
  assert.equal(some.messages.from.length, 7);
  assert.equal(all.messages.from.length, all.inFlight);
  const hosts = all.dataNodes + all.apiNodes + 1;
  assert.equal(all.serviceHost, hosts - 1);
  for (let i = 0; i < all.inFlight; i++) {
    const m = all.messages;
    assert.ok(m.from[i] < hosts && m.to[i] < hosts && m.from[i] !== m.to[i]);
    assert.ok(m.progress[i] >= 0 && m.progress[i] <= 1);
    assert.equal(typeof m.signal[i], "string");
  }
  assert.equal(all.lockHeld, true, "cache 1: the counter row's lock is held nearly all the time");
  assert.ok(all.lockWaiting > 0, "and refills queue for it");
  assert.throws(() => sim.cluster(-1), (e) => e.field === "maxMessages");
  sim.free();
});

test("workloads(): DBT2 and the shipped specs, runnable by name or as a spec object", () => {
  const list = workloads();
  assert.deepEqual(list.map((w) => w.name), fields().find((f) => f.name === "workload").kind.values);
  const tpcb = list.find((w) => w.name === "tpcb");
  const byName = new Simulation({ preset: "modern", workload: "tpcb", durationMs: 30, warmupMs: 10 });
  byName.runToEnd();
  const own = new Simulation({ preset: "modern", workload: tpcb.spec, durationMs: 30, warmupMs: 10 });
  own.runToEnd();
  assert.equal(own.summary().digest, byName.summary().digest, "the shipped spec as an object is the same workload");
  assert.ok(byName.summary().committedByType.transfer > 0);
  const bigger = { ...tpcb.spec, scale: 4 };
  const scaled = new Simulation({ preset: "modern", workload: bigger, durationMs: 30, warmupMs: 10 });
  assert.equal(scaled.config.workload.scale, 4);
  for (const s of [byName, own, scaled]) s.free();
  const bad = { ...tpcb.spec, transactions: [{ name: "t", statements: [{ op: "read", table: "nope" }] }] };
  assert.throws(() => new Simulation({ workload: bad }),
    (e) => e instanceof Error && e.field === "workload.transactions[0].statements[0].table" && /branches/.test(e.message));
});

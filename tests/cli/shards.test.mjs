// A sweep past one machine: shards run as separate processes with Slurm's or a Kubernetes
// Indexed Job's variables set write keyed result files that `hotrow merge` turns into the
// unsharded sweep's CSV; a shard killed halfway and run again with --resume computes only
// the rest; merge refuses results of another build and a grid with runs missing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hotrowBin } from "../hotrow.mjs";

const bin = hotrowBin;
const GRID = ["--preset", "ndbapi-hidden-pk", "--set", "durationMs=300", "--set", "warmupMs=100", "--vary", "cacheSize=1,10,100", "--seeds", "2"];
const hotrow = (args, env = {}) => spawnSync(bin, args, { encoding: "utf8", env: { ...process.env, ...env } });
const fresh = (t) => {
  const dir = mkdtempSync(join(tmpdir(), "hotrow-shards-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};
const whole = hotrow(["sweep", ...GRID, "--csv"]).stdout;
const lines = (file) => readFileSync(file, "utf8").split("\n").filter(Boolean);

test("four Slurm array tasks, then merge: the unsharded sweep's CSV", (t) => {
  const dir = fresh(t);
  for (const id of [1, 2, 3, 4]) {
    const r = hotrow(["sweep", ...GRID, "--shard", "auto", "--out", dir, "--jobs", "1"],
      { SLURM_ARRAY_TASK_ID: String(id), SLURM_ARRAY_TASK_MIN: "1", SLURM_ARRAY_TASK_COUNT: "4" });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`shard ${id} of 4: computed [12], reused 0`));
  }
  assert.deepEqual(readdirSync(dir).sort(), ["shard-1-of-4.jsonl", "shard-2-of-4.jsonl", "shard-3-of-4.jsonl", "shard-4-of-4.jsonl"]);
  const merged = hotrow(["merge", dir]);
  assert.equal(merged.status, 0, merged.stderr);
  assert.equal(merged.stdout, whole);
});

test("a Kubernetes Indexed Job's four completions, then merge --json: the sweep's estimates", (t) => {
  const dir = fresh(t);
  for (const index of [0, 1, 2, 3]) {
    const r = hotrow(["sweep", ...GRID, "--shard", "auto", "--shards", "4", "--out", dir], { JOB_COMPLETION_INDEX: String(index) });
    assert.equal(r.status, 0, r.stderr);
  }
  assert.deepEqual(JSON.parse(hotrow(["merge", dir, "--json"]).stdout), JSON.parse(hotrow(["sweep", ...GRID, "--json"]).stdout));
});

test("a shard killed halfway, run again with --resume, computes only the rest", async (t) => {
  const dir = fresh(t);
  const file = join(dir, "shard-1-of-1.jsonl");
  const longer = [...GRID.slice(0, -2), "--seeds", "4"]; // 12 runs, written two at a time
  const child = spawn(bin, ["sweep", ...longer, "--out", dir, "--jobs", "1"], { stdio: "ignore" });
  for (;;) {
    await new Promise((ok) => setTimeout(ok, 20));
    let n = 0;
    try { n = lines(file).length; } catch {}
    if (n >= 2) break;
  }
  child.kill("SIGKILL");
  await new Promise((ok) => child.on("exit", ok));
  const kept = lines(file).length;
  assert.ok(kept >= 2 && kept < 12, `killed after ${kept} of 12 runs`);
  const again = hotrow(["sweep", ...longer, "--out", dir]);
  assert.match(again.stderr, /exists: add --resume/, "without --resume a shard's file is not overwritten");
  const resumed = hotrow(["sweep", ...longer, "--out", dir, "--resume"]);
  assert.equal(resumed.status, 0, resumed.stderr);
  assert.match(resumed.stderr, new RegExp(`computed ${12 - kept}, reused ${kept}`));
  assert.equal(hotrow(["merge", dir]).stdout, hotrow(["sweep", ...longer, "--csv"]).stdout);
});

test("merge refuses results of another build, and a grid with runs missing", (t) => {
  const dir = fresh(t);
  for (const s of ["1/2", "2/2"]) assert.equal(hotrow(["sweep", ...GRID, "--shard", s, "--out", dir]).status, 0);
  const file = join(dir, "shard-2-of-2.jsonl");
  const [first, ...rest] = lines(file);
  writeFileSync(file, [first.replace(/"build":"[^"]+"/, '"build":"0.0.9+0000000000000000"'), ...rest].join("\n") + "\n");
  const mixed = hotrow(["merge", dir]);
  assert.equal(mixed.status, 1);
  assert.match(mixed.stderr, /results of 2 builds, not merged: 0\.0\.9\+0000000000000000 \(1 lines, first at .*shard-2-of-2\.jsonl:1\)/);
  rmSync(file);
  const missing = hotrow(["merge", dir]);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /3 of 6 runs missing \(the first, run 3\): run the shards that lack them with --resume/);
});

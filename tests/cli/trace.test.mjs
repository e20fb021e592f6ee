// `hotrow trace`: one line per event in the order processed, a hash per window, and the
// first event where another build's trace differs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { hotrowBin } from "../hotrow.mjs";

const bin = hotrowBin;
const hotrow = (...args) => spawnSync(bin, args, { encoding: "utf8", maxBuffer: 1 << 28 });
const scenario = ["--preset", "ndbapi-pk", "--set", "durationMs=30", "--set", "warmupMs=0", "--set", "windowMs=10"];

test("trace prints every event once, in order, with a hash per window", () => {
  const r = hotrow("trace", ...scenario);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split("\n");
  assert.match(lines[1], /^# index\ttime_ns\tevent\tstation\tsubject\tsignal\ttxn\top\treplica\tgeneration\tremote\tcost\talloc$/);
  const events = lines.filter((l) => !l.startsWith("#") && !l.startsWith("window\t"));
  const windows = lines.filter((l) => l.startsWith("window\t"));
  assert.equal(events.length, JSON.parse(hotrow("run", "--json", ...scenario).stdout).events, "the events the run counts");
  assert.deepEqual(events.map((l) => +l.split("\t")[0]), events.map((_, i) => i + 1), "numbered in order");
  const times = events.map((l) => +l.split("\t")[1]);
  assert.ok(times.every((t, i) => i === 0 || t >= times[i - 1]), "time never runs backwards");
  assert.ok(events.every((l) => l.split("\t").length === 13));
  assert.deepEqual(windows.map((l) => l.split("\t")[1]), ["1", "2", "3"]);
  assert.ok(windows.every((l) => /^window\t\d+\t[0-9a-f]{16}$/.test(l)));
  assert.ok(events.some((l) => l.includes("\tdone\t") && l.includes("\tLQHKEYREQ\t")));
});

test("against itself a trace has no difference; a changed CPU cost is caught at its first event", () => {
  const same = hotrow("trace", ...scenario, "--baseline", bin);
  assert.equal(same.status, 0, same.stdout + same.stderr);
  assert.match(same.stdout, /^no difference: \d+ events and 3 windows alike, in the same order$/m);
  const changed = hotrow("trace", ...scenario, "--baseline", bin, "--baseline-set", "cpu.lqhWriteNs=10395");
  assert.equal(changed.status, 1, changed.stdout + changed.stderr);
  assert.match(changed.stdout, /^first difference after \d+ events and 0 windows alike:\n {2}this build: \d+\t.*\n {2}baseline: {3}\d+\t/m);
  assert.equal(hotrow("trace", "--baseline-set", "cacheSize=2").status, 2, "--baseline-set needs --baseline");
});

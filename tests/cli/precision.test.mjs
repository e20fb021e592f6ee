// `hotrow run --precision`: a run stops once its figure is known within the fraction asked
// (or says it was not, when durationMs ran out); the table shows each figure's interval;
// a bad precision or metric is named with what is allowed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { hotrowBin } from "../hotrow.mjs";

const bin = hotrowBin;
const hotrow = (...args) => spawnSync(bin, args, { encoding: "utf8" });

test("--precision stops the run where it is met, and says so; the table shows ± half-widths", () => {
  const r = hotrow("run", "--preset", "bug39267", "--precision", "0.02");
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /precision: met, ± [12]\.\d\d% of tpm \(asked ± 2\.00%\): the run stopped there/);
  const measured = Number(r.stdout.match(/measured ([\d.]+) simulated s/)[1]);
  assert.ok(measured < 10, `stopped before the 10 s duration: ${measured} s`);
  assert.match(r.stdout, /transactions\/s \(transactionsPerSecond\) +[\d,]+ ± [\d,]+ +1\/s/);
  assert.match(r.stdout, /±: the 95% interval, by batch means \(\d+ batches of \d windows?\)/);
});

test("a precision not met by durationMs says so; bad values are named", () => {
  const r = hotrow("run", "--preset", "range-shard-bits", "--precision", "0.02", "--set", "durationMs=1500");
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /precision: not met, ± [\d.]+% of insertsPerSecond \(asked ± 2\.00%\) when durationMs ran out: run longer/);
  const big = hotrow("run", "--precision", "0.9");
  assert.equal(big.status, 2);
  assert.match(big.stderr, /`precision` = 0.9: must be a number from 0 to 0.5/);
  const metric = hotrow("run", "--precision", "0.1", "--precision-metric", "latencyP99Us");
  assert.equal(metric.status, 2);
  assert.match(metric.stderr, /`precisionMetric` = "latencyP99Us": must be one of headline, insertsPerSecond, transactionsPerSecond, tpm, .*latencyMeanUs/);
});

test("with a detected warm-up, a run stops at its precision only once the cut is in its first fifth", () => {
  for (const preset of ["ndbapi-pk", "range-sequential"]) {
    const r = hotrow("run", "--preset", preset, "--warmup", "auto", "--precision", "0.02", "--set", "durationMs=30000", "--json");
    assert.equal(r.status, 0, r.stderr);
    const s = JSON.parse(r.stdout);
    assert.equal(s.precision.converged, true, `${preset}: ${JSON.stringify(s.precision)}`);
    assert.ok(s.precision.reached <= 0.02);
    const end = s.warmup.measuredFromMs + s.simulatedSeconds * 1000;
    assert.ok(s.warmup.decided && s.warmup.truncationMs <= 0.2 * end + 1e-9, `${preset}: cut ${s.warmup.truncationMs} ms of ${end} ms`);
  }
});

// The strategies table's best marks: a difference of inserts/s within the runs' 95%
// intervals (they overlap) never makes a best.
import { test } from "node:test";
import assert from "node:assert/strict";
import { best, compareInserts, twin } from "../../js/element/pareto.js";
import { T975, meanHalfWidth } from "../../js/element/intervals.js";
import { readFileSync } from "node:fs";

/** A result whose inserts/s has a 95% interval of ± `relative` of it (as the summary gives it). */
const run = (insertsPerSecond, idsLost, inOrderFraction, relative = 0.01) =>
  ({ insertsPerSecond, idsLost, inOrderFraction, intervals: { metrics: { insertsPerSecond: { halfWidth: insertsPerSecond * relative } } } });

test("two strategies equal by construction but for noise: neither is marked over the other", () => {
  // The same strategy twice: 35.8k and 35.7k inserts/s with 1% noise each are one figure.
  assert.equal(compareInserts(run(35_800, 0, 0), run(35_700, 0, 0)), 0);
  // Equal on every figure: neither is starred, and each names the other as its twin.
  assert.deepEqual(best([run(35_800, 0, 0), run(35_700, 0, 0)]), []);
  assert.deepEqual([twin([run(35_800, 0, 0), run(35_700, 0, 0)], 0), twin([run(35_800, 0, 0), run(35_700, 0, 0)], 1)], [1, 0]);
  // The three range layouts of a run too short to split, and one strategy better than them.
  const layouts = [run(31_200, 590, 0.57), run(31_200, 590, 0.57), run(31_200, 590, 0.57), run(20_000, 0, 1)];
  assert.deepEqual(best(layouts), [3]);
  // Without noise the 0.3% would decide: the faster one alone is starred.
  assert.deepEqual(best([run(35_800, 0, 0, 0), run(35_700, 0, 0, 0)]), [0]);
});

test("the share in order counts as the table shows it: 96.1% and 95.7% are both 96%", () => {
  // The case tried as a new user would: 34.8k ± 4% and 34.9k ± 3%, no ids lost, in order
  // 0.9614 and 0.9570. The table shows 96% twice: twins, neither starred.
  const rows = [run(34_800, 0, 0.9614, 0.04), run(34_900, 0, 0.957, 0.03)];
  assert.deepEqual(best(rows), []);
  assert.deepEqual([twin(rows, 0), twin(rows, 1)], [1, 0]);
  // A whole percent apart, the one more in order is starred.
  assert.deepEqual(best([run(34_800, 0, 0.97, 0.04), run(34_900, 0, 0.957, 0.03)]), [0]);
});

test("a strategy losing ids is not starred for inserts/s within noise", () => {
  // The case tried as a new user would: 57,900 ids lost per restart for 0.3% more inserts/s.
  assert.deepEqual(best([run(35_800, 57_900, 0), run(35_700, 0, 0)]), [1]);
  // Beyond noise, more inserts/s is a trade-off worth a star of its own.
  assert.deepEqual(best([run(45_000, 57_900, 0), run(35_700, 0, 0)]), [0, 1]);
});

test("intervals decide by overlap; a run without one differs by any amount", () => {
  // 100 ± 3 and 105 ± 3 overlap (97..103 and 102..108); 100 ± 2 and 105 ± 2 do not.
  assert.equal(compareInserts(run(100, 0, 0, 0.03), run(105, 0, 0, 3 / 105)), 0);
  assert.equal(compareInserts(run(100, 0, 0, 0.02), run(105, 0, 0, 2 / 105)), -1);
  const bare = { insertsPerSecond: 100, idsLost: 0, inOrderFraction: 0, intervals: null };
  assert.equal(compareInserts(bare, run(100.5, 0, 0, 0.5)), -1);
  assert.equal(compareInserts(bare, { ...bare }), 0);
});

test("the page's t quantiles are the core's, and a second of windows gets its 95% half-width", () => {
  const rust = readFileSync(new URL("../../crate/sim/src/batch_means.rs", import.meta.url), "utf8");
  const core = rust.match(/const T975: \[f64; 11\] = \[([^\]]+)\]/)[1].split(",").map(Number);
  assert.deepEqual(T975.slice(8, 19), core, "df 9..19");
  // Ten windows of 1 and 3 alternating: mean 2, sd 1.054, half-width 2.262 x 1.054 / sqrt(10).
  assert.ok(Math.abs(meanHalfWidth([1, 3, 1, 3, 1, 3, 1, 3, 1, 3]) - 2.262 * Math.sqrt(10 / 9) / Math.sqrt(10)) < 1e-9);
  assert.equal(meanHalfWidth([5]), null);
});

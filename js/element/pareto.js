// The best choices of a strategies table, fairly: a result is marked unless another is at
// least as good on inserts/s, ids lost and order at once, and better on one of them. Two
// inserts/s figures differ only beyond noise (their 95% intervals do not overlap:
// intervals.js), so a strategy is never starred for a difference the next seed could
// reverse; and one whose figures all equal another's (within that noise) is starred no
// more than its twin is: neither is (`twin` names the other, for the table to say so). The
// share of ids in order counts as the table shows it, to the whole percent: a ★ is never
// decided by a figure the table does not show.

import { compare } from "./intervals.js";

/** Whether inserts/s of `a` and `b` differ beyond noise, and how. */
export const compareInserts = (a, b) => compare(a, b, "insertsPerSecond");

/** The share of ids in order as the table shows it: whole percent. */
const order = (r) => Math.round(100 * r.inOrderFraction);

/** The index of the first other result whose figures all equal `results[i]`'s (inserts/s
 * within noise, the same ids lost, the same order as shown), or -1. */
export function twin(results, i) {
  const a = results[i];
  return results.findIndex((b, j) => j !== i && compareInserts(a, b) === 0 && a.idsLost === b.idsLost && order(a) === order(b));
}

/** Indexes of the results no other result beats on inserts/s, ids lost and order at once,
 * and that no other equals on all three. */
export function best(results) {
  const better = (a, b) => {
    const ins = compareInserts(a, b);
    const atLeast = ins >= 0 && a.idsLost <= b.idsLost && order(a) >= order(b);
    return atLeast && (ins > 0 || a.idsLost < b.idsLost || order(a) > order(b));
  };
  return results.map((r, i) => (results.some((o) => better(o, r)) || twin(results, i) >= 0 ? -1 : i)).filter((i) => i >= 0);
}

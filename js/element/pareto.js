// The best choices of a strategies table, fairly: a result is marked unless another is at
// least as good on inserts/s, ids lost and order at once, and better on one of them. Two
// inserts/s figures differ only beyond noise (their 95% intervals do not overlap:
// intervals.js), so a strategy is never starred for a difference the next seed could
// reverse; and one whose figures all equal another's (within that noise) is starred no
// more than its twin is: neither is (`twin` names the other, for the table to say so).

import { compare } from "./intervals.js";

/** Whether inserts/s of `a` and `b` differ beyond noise, and how. */
export const compareInserts = (a, b) => compare(a, b, "insertsPerSecond");

/** The index of the first other result whose figures all equal `results[i]`'s (inserts/s
 * within noise, the same ids lost, order within 0.1%), or -1. */
export function twin(results, i) {
  const a = results[i];
  return results.findIndex((b, j) => j !== i && compareInserts(a, b) === 0 && a.idsLost === b.idsLost
    && Math.abs(a.inOrderFraction - b.inOrderFraction) <= 1e-3);
}

/** Indexes of the results no other result beats on inserts/s, ids lost and order at once,
 * and that no other equals on all three. */
export function best(results) {
  const better = (a, b) => {
    const ins = compareInserts(a, b);
    const atLeast = ins >= 0 && a.idsLost <= b.idsLost && a.inOrderFraction >= b.inOrderFraction;
    return atLeast && (ins > 0 || a.idsLost < b.idsLost || a.inOrderFraction > b.inOrderFraction);
  };
  return results.map((r, i) => (results.some((o) => better(o, r)) || twin(results, i) >= 0 ? -1 : i)).filter((i) => i >= 0);
}

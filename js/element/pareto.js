// The best choices of a strategies table, fairly: a result is marked unless another is at
// least as good on inserts/s, ids lost and order at once, and better on one of them. Two
// inserts/s figures differ only beyond the runs' own noise (twice the standard error of
// their difference, from each run's windows: `noise` is a fraction of its mean), so a
// strategy is never starred for a difference the next seed could reverse; and one whose
// figures all equal another's (within that noise) is starred no more than its twin is:
// neither is (`twin` names the other, for the table to say so).

/** Whether inserts/s `a` and `b` (with relative standard errors) differ beyond noise, and how. */
export function compareInserts(a, b) {
  const margin = 2 * Math.hypot(a.insertsPerSecond * (a.noise ?? 0), b.insertsPerSecond * (b.noise ?? 0));
  const d = a.insertsPerSecond - b.insertsPerSecond;
  return Math.abs(d) <= margin ? 0 : Math.sign(d);
}

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

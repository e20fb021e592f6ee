// The best choices of a strategies table, fairly: a result is marked unless another is at
// least as good on inserts/s, ids lost and order at once, and better on one of them. Two
// inserts/s figures differ only beyond the runs' own noise (twice the standard error of
// their difference, from each run's windows: `noise` is a fraction of its mean), so a
// strategy is never starred for a difference the next seed could reverse.

/** Whether inserts/s `a` and `b` (with relative standard errors) differ beyond noise, and how. */
export function compareInserts(a, b) {
  const margin = 2 * Math.hypot(a.insertsPerSecond * (a.noise ?? 0), b.insertsPerSecond * (b.noise ?? 0));
  const d = a.insertsPerSecond - b.insertsPerSecond;
  return Math.abs(d) <= margin ? 0 : Math.sign(d);
}

/** Indexes of the results no other result beats on inserts/s, ids lost and order at once. */
export function best(results) {
  const better = (a, b) => {
    const ins = compareInserts(a, b);
    const atLeast = ins >= 0 && a.idsLost <= b.idsLost && a.inOrderFraction >= b.inOrderFraction;
    return atLeast && (ins > 0 || a.idsLost < b.idsLost || a.inOrderFraction > b.inOrderFraction);
  };
  return results.map((r, i) => (results.some((o) => better(o, r)) ? -1 : i)).filter((i) => i >= 0);
}

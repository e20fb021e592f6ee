// Chart data: named columns of Float64Array with room to append. When a column is full it
// keeps its last `max` points with one copyWithin, so appending never allocates, and the
// charts get subarrays (views, not copies) of the last `max` points, as uPlot takes them.
export class Series {
  constructor(names, max = 600) {
    this.max = max;
    this.len = 0;
    this.cols = Object.fromEntries(names.map((n) => [n, new Float64Array(2 * max)]));
  }

  /** Appends one point: `values` has a number for every column. */
  push(values) {
    if (this.len === 2 * this.max) {
      for (const c of Object.values(this.cols)) c.copyWithin(0, this.max);
      this.len = this.max;
    }
    for (const [name, v] of Object.entries(values)) this.cols[name][this.len] = v;
    this.len += 1;
  }

  /** The last `max` points of a column (or the last `n`); with `untilX`, the last of those
   * whose `x` is at most `untilX` (two runs drawn at one simulated time). */
  get(name, n = this.max, untilX = Infinity) {
    const end = this.endAt(untilX);
    return this.cols[name].subarray(Math.max(0, end - Math.min(n, this.max)), end);
  }

  /** How many points have `x` at most `untilX` (capped at the `max` kept). */
  countUntil(untilX) {
    return Math.max(0, Math.min(this.endAt(untilX) - Math.max(0, this.len - this.max), this.max));
  }

  /** One past the last point whose `x` is at most `untilX`. */
  endAt(untilX) {
    let end = this.len;
    const xs = this.cols.x;
    while (end > 0 && xs[end - 1] > untilX) end -= 1;
    return end;
  }

  /** The `x` of the latest point (-Infinity when empty). */
  get lastX() {
    return this.len ? this.cols.x[this.len - 1] : -Infinity;
  }

  get length() {
    return Math.min(this.len, this.max);
  }

  /** Mean of the last `n` points of a column (up to `untilX`: see `get`); 0 when empty. */
  mean(name, n, untilX = Infinity) {
    const a = this.get(name, n, untilX);
    let sum = 0;
    for (const v of a) sum += v;
    return a.length ? sum / a.length : 0;
  }
}

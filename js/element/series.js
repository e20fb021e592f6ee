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

  /** The last `max` points of a column (or the last `n`). */
  get(name, n = this.max) {
    return this.cols[name].subarray(Math.max(0, this.len - Math.min(n, this.max)), this.len);
  }

  get length() {
    return Math.min(this.len, this.max);
  }

  /** Mean of the last `n` points of a column (0 when empty). */
  mean(name, n) {
    const a = this.get(name, n);
    let sum = 0;
    for (const v of a) sum += v;
    return a.length ? sum / a.length : 0;
  }
}

// The summary's 95% intervals as the page reads them (`summary.intervals`, by batch means),
// and the one rule for "within noise" (docs/MODEL.md §5): two figures differ when their
// intervals do not overlap.

import { fmtPct } from "./format.js";

/** The half-width of `metric`'s 95% interval in a run's result (its `intervals`, as the
 * summary gives them), or null when the run measured too few windows for one. */
export const halfWidth = (r, metric) => r.intervals?.metrics?.[metric]?.halfWidth ?? null;

/** Whether `metric` of results `a` and `b` differs beyond noise, and how: 0 when their
 * intervals overlap (or either has none), else the sign of a - b. */
export function compare(a, b, metric) {
  const [ha, hb] = [halfWidth(a, metric), halfWidth(b, metric)];
  const d = a[metric] - b[metric];
  if (ha === null || hb === null) return d === 0 ? 0 : Math.sign(d);
  return Math.abs(d) <= ha + hb ? 0 : Math.sign(d);
}

/** " ±x%": `metric`'s interval as a share of the figure, or "" without one. */
export function plusMinus(r, metric) {
  const h = halfWidth(r, metric);
  return h === null || !(r[metric] > 0) ? "" : ` ±${h / r[metric] < 0.01 ? (100 * h / r[metric]).toFixed(1) + "%" : fmtPct(h / r[metric])}`;
}

// The summary's 95% intervals as the page reads them (`summary.intervals`, by batch means),
// and the one rule for "within noise" (docs/MODEL.md §5): two figures differ when their
// intervals do not overlap.

import { fmtPct } from "./format.js";

/** The half-width of `metric`'s 95% interval in a run's result (its `intervals`, as the
 * summary gives them), or null when the run measured too few windows for one. */
const halfWidth = (r, metric) => r.intervals?.metrics?.[metric]?.halfWidth ?? null;

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

/** t(0.975, df) for df 1..30 (Student's t, two-sided 95%); 1.96 beyond. The core's batch
 * means use the rows from 9 to 19 (crate/sim/src/intervals.rs), pinned by a test. */
export const T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145,
  2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

/** The 95% half-width of the mean of `values` (each window one observation, as the core
 * takes batches when a run has fewer than 20 windows), or null below two. */
export function meanHalfWidth(values) {
  const k = values.length;
  if (k < 2) return null;
  const mean = values.reduce((a, b) => a + b, 0) / k;
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / (k - 1);
  return (T975[k - 2] ?? 1.96) * Math.sqrt(variance / k);
}

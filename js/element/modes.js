// Compare and sweep: what runs each mode starts. Compare runs two simulations that differ
// in one field (same seed, same past); sweep runs one short simulation per value of a
// field and plots the measured throughput against it.
import { setField, getField, compareValue, COMPARE_DEFAULTS } from "./state.js";

/** Compare's value for the workload spec of one's own that is running (in a link too). */
export const YOUR_SPEC = "yourSpec";

/** The compared field and the two values (as text) of a view, with defaults filled in;
 * `overrides`: the config input (a run may be the spec of one's own only if there is one);
 * `base`: the config running (resolved from its preset), whose value run A keeps. */
export function compareSpec(view, overrides = {}, base = {}) {
  const field = view.compareField ?? "cacheSize";
  const mine = field === "workload" && typeof overrides.workload === "object";
  // With a spec of one's own running, run A is it by default; else run A keeps the value
  // the user has (compare changes one thing: run B's), and B is a listed other one.
  let defaults = mine ? [YOUR_SPEC, COMPARE_DEFAULTS.workload[1]] : COMPARE_DEFAULTS[field];
  const current = mine ? undefined : getField(overrides, field) ?? getField(base ?? {}, field);
  const text = current === undefined || typeof current === "object" ? undefined : String(current);
  if (text !== undefined && compareValue(field, text) !== undefined) {
    defaults = [text, defaults.find((d) => d !== text)];
  }
  const ok = (t) => t !== undefined && compareValue(field, t) !== undefined && (t !== YOUR_SPEC || mine);
  return {
    compareField: field,
    compareA: ok(view.compareA) ? view.compareA : defaults[0],
    compareB: ok(view.compareB) ? view.compareB : defaults[1],
  };
}

/** The configs the view runs: the user's, or in compare mode the two variants of it. */
export function configsFor(overrides, view, base = {}) {
  if (view.mode !== "compare") return [overrides];
  const { compareField, compareA, compareB } = compareSpec(view, overrides, base);
  return [compareA, compareB].map((text) => {
    const c = structuredClone(overrides);
    // The spec of one's own stays as it is; every other value is set.
    if (text !== YOUR_SPEC) setField(c, compareField, compareValue(compareField, text));
    return c;
  });
}

/** Fields a sweep can vary, each with what its sweep runs. */
export const SWEEP_FIELDS = [
  ["cacheSize", "1 to 1,000,000"], ["dataNodes", ""], ["allocator", "each strategy"],
  ["keyLayout", "each layout"], ["idCacheScope", ""], ["workload", "each shipped, and yours"],
  ["arrivalRatePerApiNode", "100 to 300,000 requests/s: the saturation knee"],
];

/** A sweep field's menu entry and axis title: its label from the field table, and what it runs. */
export const sweepLabel = (field, labels) => {
  const hint = SWEEP_FIELDS.find(([f]) => f === field)?.[1];
  return `${labels[field] ?? field}${hint ? ` (${hint})` : ""}`;
};

/**
 * The values a sweep of `field` runs, for the effective config `c`: a choice field runs
 * every value the package's field table (`table`) lists (a workload sweep, also the
 * running spec of one's own).
 */
export function sweepValues(field, c, table) {
  const f = table.find((x) => x.name === field);
  // Every workload the table names, and the running spec when it is one's own.
  if (field === "workload" && typeof c.workload === "object") return [...f.kind.values, c.workload];
  if (f.kind.type === "choice") return [...f.kind.values];
  if (field === "arrivalRatePerApiNode") return [100, 300, 1000, 3000, 10000, 30000, 100000, 300000].filter((n) => n <= f.kind.max);
  return field === "cacheSize"
    ? [1, 3, 10, 30, 100, 1000, 10000, 1000000].filter((n) => n <= f.kind.max)
    : [1, 2, 4, 6, 8, 12, 16].map((k) => k * c.replicas).filter((n) => n <= f.kind.max);
}

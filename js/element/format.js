// How the playground writes numbers: counts with k/M, fractions as percent, microseconds
// switching to ms, simulation speed as a multiple or fraction of real time.
const GROUPED = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
/** A count: "3,896" (grouped by thousands, as the CLI and the report write it), "107.2k", "1.80M". */
export const fmtInt = (v) => (v >= 1e6 ? `${(v / 1e6).toFixed(2)}M` : v >= 1e4 ? `${(v / 1e3).toFixed(1)}k` : GROUPED.format(Math.round(v)));
/** A figure ± its 95% interval's half-width in the figure's own scale ("3,904 ± 78", "107.2k ± 2.1k"); the figure alone without one. */
export const fmtPm = (v, h) => {
  if (h == null) return fmtInt(v);
  const [div, unit, digits] = v >= 1e6 ? [1e6, "M", 2] : v >= 1e4 ? [1e3, "k", 1] : [1, "", 0];
  return `${fmtInt(v)} ± ${(h / div).toFixed(digits)}${unit}`;
};
export const fmtPct = (v) => `${(100 * v).toFixed(0)}%`;
export const fmtUs = (v) => (v >= 1000 ? `${(v / 1000).toFixed(1)} ms` : `${v.toFixed(0)} us`);
export const fmtSpeed = (ms) => (ms >= 1000 ? `${+(ms / 1000).toFixed(1)}x real time` : `1/${Math.round(1000 / ms)} real time`);
/** A log-scale slider's position for `value`, clamped to `min..max`. */
export const logSlider = (value, min, max) => Math.log10(Math.min(max, Math.max(min, value)));
/** A name from the core, where `backticks` mark code (a table's name), as plain words. */
export const plainName = (text) => text.replaceAll("`", "");
/** The same as nodes: what is between backticks as <code>, the rest as text. */
export const withCode = (text) => text.split("`").map((part, i) => (i % 2 ? Object.assign(document.createElement("code"), { textContent: part }) : document.createTextNode(part)));

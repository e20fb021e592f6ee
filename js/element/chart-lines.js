// The charts' metric lines, as data: render.js draws them, a test reads them.
import { fmtPct, fmtUs } from "./format.js";

/**
 * The hot-row and latency charts' lines, each a window metric of the core's table (its
 * legend the table's label): the one list both the legend and the data, in one-run and
 * compare mode, are drawn from, so a line is added here alone (tests/js/fields.test.mjs
 * holds every name to the table). `color`: "hot" or the index of an accent colour.
 */
export const CHART_LINES = {
  hot: [{ metric: "hotRowLockUtilization", color: "hot", fmt: fmtPct }, { metric: "refillsPerSecond", color: 0, scale: "y2" }],
  latency: [{ metric: "latencyP50Us", color: 0, fmt: fmtUs }, { metric: "latencyP99Us", color: "hot", fmt: fmtUs }],
};

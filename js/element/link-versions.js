// Links that outlive versions. A link says which version of the state it was written in
// (`v`); one written by an earlier version is brought to this one a step per version before
// it is read, so a link made by 0.1 or 0.2 opens in every later version. A step is history:
// it keeps the names of its time literally and is never changed once released. Links
// without `v` (written by hand, element attributes) are read as this version's.

/** The version of the state this page writes. */
export const LINK_VERSION = 2;

/** 0.2.0's renames of summary metrics (their names end in their unit): the old name of each
 * and its new one. They reach a link as the Fit mode's measured column (`fitPoints`). */
export const METRIC_NAMES_0_2 = {
  hotRowLockHoldUsMean: "hotRowLockHoldMeanUs",
  arrivalWaitUsMean: "arrivalWaitMeanUs",
  arrivalWaitUsP99: "arrivalWaitP99Us",
  "hotRow.lockWaitUsMean": "hotRow.lockWaitMeanUs",
  "hotRow.lockHoldUsMean": "hotRow.lockHoldMeanUs",
  "nodes[].threadServiceUsMean": "nodes[].threadServiceMeanUs",
  "bottleneck.holdUsMean": "bottleneck.holdMeanUs",
  "resources[].holdUsMean": "resources[].holdMeanUs",
};

/** Renames the columns of a CSV's header line (its first line that is not a `#` comment). */
function renameColumns(csv, names) {
  const lines = String(csv).split("\n");
  const h = lines.findIndex((l) => l.trim() && !l.trimStart().startsWith("#"));
  if (h >= 0) lines[h] = lines[h].split(",").map((c) => names[c.trim()] ?? c).join(",");
  return lines.join("\n");
}

/** STEPS[n] brings the `[name, value]` entries of a version-n link to version n + 1. */
const STEPS = {
  1: (entries) => entries.map(([k, v]) => [k, k === "fitPoints" ? renameColumns(v, METRIC_NAMES_0_2) : v]),
};

/**
 * Brings a link's `[name, value]` entries to this version: `{ entries, error }`, the entries
 * unchanged when they are this version's (or say none), and an error for a later version's.
 */
export function migrate(entries) {
  const given = entries.findLast(([k]) => k === "v")?.[1];
  if (given === undefined) return { entries };
  const from = Number(given);
  if (!Number.isInteger(from) || from < 1 || from > LINK_VERSION) {
    return { entries, error: `link version ${String(given).slice(0, 12)} is not known (this page reads versions 1 to ${LINK_VERSION})` };
  }
  let out = entries;
  for (let n = from; n < LINK_VERSION; n++) out = STEPS[n](out);
  return { entries: out.map(([k, v]) => [k, k === "v" ? String(LINK_VERSION) : v]) };
}

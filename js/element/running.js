// Text that follows the run: the sentences whose truth depends on the config running (the
// note under the TC bars, the "Running now" line of "What you are looking at"), written
// from the effective configs the worker reported and the core's facts (`facts.described`,
// the run in words as `hotrow run` and the report say it), never for one preset.
import { traitsOf } from "./traits.js";

/** Run `c` refills from the SYSTAB_0 counter row (the node holding it is marked); `table`
 * is the field table, whose traits say which strategies have a counter row. */
export const usesCounterRow = (c, table) => Boolean(c) && !c.primaryKey && traitsOf(table, c.allocator).counterRow;

/** The note under the TC bars: where run `c`'s transactions and refills are coordinated. */
function tcNote(c, table) {
  const users = c.hintedTransactions ? "on the node of their first row (hinted)" : "round robin (no hint)";
  let refills = "";
  if (usesCounterRow(c, table)) {
    refills = c.hintedRefill
      ? " Refills are hinted: coordinated on the counter row's node (●)."
      : ` Refills are not hinted: round robin, so they land TC work on every node, even idle ones${c.cacheSize === 1 ? " (one refill per insert at cache 1)" : ""}.`;
  }
  return `Transactions are coordinated ${users}.${refills}`;
}

/** Writes the run-dependent texts of element `el` for its effective configs, the "Running
 * now" line from run A's facts (the worker's, as the run started or a field was set). */
export function describeRun(el) {
  const facts = el.state.run.facts;
  const [a, b] = el.effective;
  if (!a) return;
  const t = el.fieldTable;
  const tc = b ? `A: ${tcNote(a, t)} B: ${tcNote(b, t)}` : tcNote(a, t);
  const now = facts?.[0]?.described;
  const other = b ? ` Run ${el.runNames?.[1] ?? "B"} differs only in that knob.` : "";
  const running = now ? `Running now${b ? `, run ${el.runNames?.[0] ?? "A"}` : ""}: ${now}.${other}` : "";
  for (const [selector, text] of [[".tc-note", tc], [".running-now", running]]) {
    const node = el.$(selector);
    if (node.textContent !== text) node.textContent = text;
  }
}

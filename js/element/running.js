// Text that follows the run: the sentences whose truth depends on the config running (the
// note under the TC bars, the "Running now" line of "What you are looking at"), written
// from the effective configs the worker reported, never for one preset.
import { fmtInt, fmtUs } from "./format.js";
import { labelOf, traitsOf } from "./traits.js";

const workloadName = (c) => (typeof c.workload === "object" ? `the workload spec "${c.workload.name ?? "of your own"}"` : c.workload === "dbt2" ? "DBT2" : `the ${c.workload} workload`);

/** Run `c` refills from the SYSTAB_0 counter row (the node holding it is marked); `table`
 * is the field table, whose traits say which strategies have a counter row. */
export const usesCounterRow = (c, table) => Boolean(c) && !c.primaryKey && traitsOf(table, c.allocator).counterRow;

/** Where run `c`'s ids come from, in words (`table`: the field table). */
export function idsOf(c, table) {
  if (c.primaryKey) return "the table has a primary key of its own: no hidden-key ids are drawn";
  const traits = traitsOf(table, c.allocator);
  if (traits.tick) return "ids are made from the clock, the node and a sequence: nobody is asked";
  const cache = c.cacheGrowth > 1
    ? `ranges that start at ${c.cacheSize === 1 ? "1 id" : `${fmtInt(c.cacheSize)} ids`} and grow ${c.cacheGrowth}x per range up to ${fmtInt(c.cacheSizeMax)} ids`
    : c.cacheSize === 1 ? "one id at a time" : `ranges of ${fmtInt(c.cacheSize)} ids`;
  const owner = c.idCacheScope === "client" ? "each client" : "each API node";
  if (traits.service) return `${owner} fetches ${cache} from one allocator service`;
  if (traits.counterRow) return `${owner} fetches ${cache} from the SYSTAB_0 counter row, ${c.hintedRefill ? "hinted (coordinated on the row's node)" : "unhinted (coordinated round robin)"}`;
  if (!traits.cache) return `ids come from ${labelOf(table, c.allocator)}`;
  return `${owner} takes ${cache} from ${labelOf(table, c.allocator)}`;
}

/** One sentence on what run `c` is (`table`: the field table). */
function describe(c, table) {
  const cluster = `${c.dataNodes} data nodes (${c.replicas} replicas), ${c.apiNodes} API nodes with ${c.clientsPerApiNode} clients each`;
  return `${workloadName(c)} on ${cluster}; ${arrivalsOf(c)}; ${idsOf(c, table)}; rows placed by ${c.partitioning === "range" ? "key range" : "hash"}.`;
}

/** Where run `c`'s requests come from, in words: closed loops or an offered rate. */
function arrivalsOf(c) {
  if (!(c.arrivalRatePerApiNode > 0)) {
    return c.thinkTimeUs > 0 ? `each client runs a closed loop, thinking ${fmtUs(c.thinkTimeUs)} between transactions` : "each client runs a closed loop, no think time";
  }
  const spread = c.arrivalCv === 1 ? "Poisson" : c.arrivalCv === 0 ? "evenly spaced" : `gaps with CV ${c.arrivalCv}`;
  return `open arrivals: ${fmtInt(c.arrivalRatePerApiNode)} requests/s offered to each API node (${spread}), each taking a free client thread or waiting for one`;
}

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

/** Writes the run-dependent texts of element `el` for its effective configs. */
export function describeRun(el) {
  const [a, b] = el.effective;
  if (!a) return;
  const t = el.fieldTable;
  el.$(".tc-note").textContent = b ? `A: ${tcNote(a, t)} B: ${tcNote(b, t)}` : tcNote(a, t);
  const other = b ? ` Run ${el.runNames?.[1] ?? "B"} differs only in that knob.` : "";
  el.$(".running-now").textContent = `Running now${b ? `, run ${el.runNames?.[0] ?? "A"}` : ""}: ${describe(a, t)}${other}`;
}

// What holds the throughput: the types of `summary().bottleneck`, `nextCeiling`,
// `resources`, a hot row's `waits`, and `Simulation.explain()`.

import type { Interval } from "./summary.js";

/** What kind of resource holds the throughput (`bottleneckKind` codes 1..9 in this order; a
 * window's bottleneck is never the clients, whose bound needs the run's zero-load probe). */
export type ResourceKind = "thread" | "apiCpu" | "service" | "counterRow" | "row" | "idCache" | "timestamp" | "clients" | "offered";

/** One resource, by the operational laws over the measured span. */
export interface Resource {
  /** In words: "LDM thread 3 of data node 5", "the counter row of `history` in SYSTAB_0, on data node 1". */
  name: string;
  kind: ResourceKind;
  /** The data node (threads, rows) or API node (API CPU, id cache, timestamp) it is on, or null. */
  node: number | null;
  servers: number;
  /** Busy fraction per server, 0..1. */
  utilization: number;
  /** Of its busy time, the share its holders waited for other locks or ids (locks only). */
  blockedFraction: number;
  /** Of its busy time, the share its holders waited for busy threads (locks only). */
  queuedFraction: number;
  /** Of its busy time, the share that was the id allocator's work (threads only). */
  allocatorFraction: number;
  /** Busy time per committed user transaction, us. */
  demandUs: number;
  /** The most user transactions per second it lets through: servers / demand. */
  boundTransactionsPerSecond: number;
  /** A lock: grants per second, mean hold (us) and its own ceiling 1 / hold; null otherwise. */
  grantsPerSecond: number | null;
  holdMeanUs: number | null;
  /** @deprecated Renamed `holdMeanUs` in 0.2.0; this name goes in 0.3.0. */
  holdUsMean: number | null;
  ceilingGrantsPerSecond: number | null;
}

/** The throughput if the bottleneck were relieved, and what would hold it then. */
export interface NextCeiling {
  transactionsPerSecond: number;
  heldBy: string;
  kind: ResourceKind;
  /** What was assumed relieved. */
  relieved: string;
}

/** `Simulation.explain()`: the summary's explanation alone. */
export interface Explanation {
  /** True while nothing was measured yet (in or at the end of the warm-up): the explanation is then of the last window closed, warm-up time. */
  warmUp: boolean;
  /** The lowest bound of a resource that is not a convoy's victim; null while nothing committed. */
  bottleneck: Resource | null;
  nextCeiling: NextCeiling | null;
  /** The busiest resources, by utilization (at most eight). */
  resources: Resource[];
  /** When aborted lock waits cost the clients a material share (5%) of their time; null otherwise. */
  deadlocks: Deadlocks | null;
  /** The 95% intervals of the bound and the next ceiling, by batch means over the measured run; null before 10 batches' worth was measured. */
  boundIntervals: BoundIntervals | null;
}

/** The explanation's derived figures' intervals: the bound and the next ceiling worked out again over each batch of the measured run. */
export interface BoundIntervals {
  /** Of the bottleneck's `boundTransactionsPerSecond`; null when none could be taken (`method` says why). */
  bound: Interval | null;
  /** Of the next ceiling's `transactionsPerSecond`; null when there is none. */
  nextCeiling: Interval | null;
  /** The method (how many batches, how long), or why there are no intervals, as every surface prints it. */
  method: string;
}

/** What aborted lock waits cost, and the lock-order cycles the run saw (NDB ends a deadlock only by the timeout). */
export interface Deadlocks {
  lockTimeoutsPerSecond: number;
  /** Time waited by the attempts timed out, per committed transaction, us. */
  lostPerCommitUs: number;
  /** The same as a share of the clients' time, 0..1. */
  lostFraction: number;
  /** Of the timeouts, the share whose wait led to a lock-order cycle (the one timed out in it, or queued behind it). */
  inCyclesFraction: number;
  /** The tables whose rows the named cycles wait for. */
  tables: string[];
  /** The most frequent cycles (at most three). */
  cycles: Cycle[];
  /** All of it in one sentence, as every surface prints it. */
  text: string;
}

/** A lock-order cycle: each transaction waits for a row the next one holds, the last for one the first holds. */
export interface Cycle {
  /** Of the timeouts, the share whose wait led to this cycle. */
  share: number;
  steps: CycleStep[];
  /** The cycle in one sentence. */
  text: string;
}

export interface CycleStep {
  transaction: string;
  /** "statement 3, update `inventory`" (a spec's statements counted from 1), or "its 2nd `stock` row". */
  holds: string;
  waitsAt: string;
  /** The table of the row it waits for. */
  waitsTable: string;
}

/** One part of a hot row's wait: requests of `waiter` waiting for holders of `holder`. */
export interface WaitPart {
  /** The transaction and what it does to the row: "transfer: update branches". */
  waiter: string;
  holder: string;
  /** Microseconds waited in all over the span. */
  waitUs: number;
  /** Of the row's whole wait, 0..1; the parts sum to 1. */
  share: number;
}

/** A standard remedy for the bottleneck: what it is, and the config fields it sets. */
export interface Remedy {
  /** "a cache of 1000 ids per refill", "`daily` spread over 32 slots (...)". */
  label: string;
  /** Dotted config field names and their new values (`workload` holds a whole spec). */
  set: Record<string, unknown>;
  /** What it costs that no number shows ("it creates a lock-order cycle: ...", "the numbers it hands out stop being unique and sequential"); null when nothing. */
  warning: string | null;
}

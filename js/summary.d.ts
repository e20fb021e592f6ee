// Types of what a run reports: the snapshot, the windows as columns, the summary (the
// object `hotrow run --json` prints) and its parts.

import type { Allocator, Config } from "./config.js";
import type { BoundIntervals, Deadlocks, NextCeiling, Resource, ResourceKind, WaitPart } from "./explain.js";

/** The latest closed metrics window; zeros before the first one closes. */
/**
 * What every surface says of a run, decided once in the core (`crate/sim/src/facts/`):
 * the CLI's table, `hotrow report` and the playground format these and derive none.
 */
export interface Facts {
  /** The metric the run is about: TPM for DBT2, inserts/s for a workload that only inserts, transactions/s otherwise. */
  headline: "tpm" | "insertsPerSecond" | "transactionsPerSecond";
  /** The row that binds (`binds` true), or the busiest row lock while something else binds; null while no row lock was held twice. */
  hotRow: FactsHotRow | null;
  /** The SYSTAB_0 counter row the principal table's ids come from; null when none is in use. */
  counterRow: { of: string; node: number; /** It is the hot row too. */ isHotRow: boolean } | null;
  /** The bug report's two TPM figures compare with this run (DBT2, closed loop, 8 data nodes x 2 replicas). */
  referenceLines: boolean;
  /** The run in one sentence (what runs, on which cluster, how requests arrive, where ids come from, how rows are placed), as `hotrow run`'s first line, the report's header and the playground's "Running now" say it. */
  described: string;
  /** The figures a surface shows first, in order: metric names, and `hotRow` for the hot row's lock busy. */
  cards: string[];
}

export interface FactsHotRow {
  /** In the user's words: "row 0 of `counters`", "the counter row of `history` in SYSTAB_0". */
  name: string;
  table: string;
  key: number;
  counterOf?: string;
  /** The data node of its primary replica. */
  node: number;
  lockBusyFraction: number;
  /** True: its lock is the bottleneck; false: the busiest row lock while something else binds. */
  binds: boolean;
}

export interface Snapshot {
  nowMs: number;
  events: number;
  finished: boolean;
  /** Windows closed so far; pass it to `windows(since)` to fetch only new ones. */
  windowsClosed: number;
  /** The latest window's bottleneck by kind (`bottleneckKind` as its name), or null before one. */
  bottleneckResourceKind: import("./explain.js").ResourceKind | null;
  /** The row of the workload's own tables that bound the latest window (kind `row`), or null. */
  bindingRow: HotRow | null;
  /** What every surface says of the latest window (before the first, of the config alone). */
  facts: Facts;
  dataNodes: number;
  /** Partitions of the cluster (data nodes x LDM threads). */
  partitions: number;
  activeClients: number;
  /** End of the latest window (0 before the first closes). */
  endMs: number;
  insertsPerSecond: number;
  transactionsPerSecond: number;
  /** New-Order transactions per minute (DBT2). */
  tpm: number;
  refillsPerSecond: number;
  /** Fraction of the window the SYSTAB_0 counter row's lock was held, 0..1. */
  hotRowLockUtilization: number;
  hotRowQueueMean: number;
  /** Ranges that reached an id cache per second (refills or service requests). */
  coordinationsPerSecond: number;
  /** The busiest partition's share of the window's inserted rows (0 when none). */
  insertSkew: number;
  /** Open arrivals: transactions offered per second (0 in closed loops). */
  offeredPerSecond: number;
  /** Open arrivals: mean requests waiting for a free client thread. */
  waitingMean: number;
  /** Transaction attempts aborted per second (aborted lock waits, failures), and of those the aborted lock waits (timeouts, deadlocks). */
  abortsPerSecond: number;
  lockTimeoutsPerSecond: number;
  latencyP50Us: number;
  latencyP99Us: number;
  /** The bound the window's bottleneck sets on user transactions per second (the clients left out). */
  boundTransactionsPerSecond: number;
  /** The window's bottleneck's busy fraction, 0..1. */
  bottleneckUtilization: number;
  /** Its kind: 0 none, else 1 + the index of its `ResourceKind` in `thread, apiCpu, service, counterRow, row, idCache, timestamp, clients, offered` (never the clients in a window). */
  bottleneckKind: number;
  /** Busy fraction per data node, 0..1. */
  nodeLoad: Float64Array;
  nodeTcPerSecond: Float64Array;
  nodeMessagesPerSecond: Float64Array;
  /** Rows of the inserted table placed per partition per second. */
  partitionInsertsPerSecond: Float64Array;
  /** The data node holding the counter row's primary replica. */
  hotRowNode: number;
  /** Data nodes that are down now. */
  nodesDown: number[];
  /** Transaction attempts aborted by faults so far. */
  aborts: number;
  idsIssued: number;
  idsLost: number;
  duplicateIds: number;
  /** The latest window's hottest rows (at most ten), busiest first. */
  hottestRows: HotRow[];
}

/** Windows as columns, named as `metrics()` names them: one value per window, per-node
 * and per-partition columns window by window. */
export interface WindowColumns {
  /** Number of the first window returned. */
  first: number;
  count: number;
  endMs: Float64Array;
  insertsPerSecond: Float64Array;
  transactionsPerSecond: Float64Array;
  tpm: Float64Array;
  refillsPerSecond: Float64Array;
  hotRowLockUtilization: Float64Array;
  hotRowQueueMean: Float64Array;
  /** Ranges that reached an id cache per second (refills or service requests). */
  coordinationsPerSecond: Float64Array;
  /** The busiest partition's share of the window's inserted rows (0 when none). */
  insertSkew: Float64Array;
  /** Open arrivals: transactions offered per second (0 in closed loops). */
  offeredPerSecond: Float64Array;
  /** Open arrivals: mean requests waiting for a free client thread. */
  waitingMean: Float64Array;
  abortsPerSecond: Float64Array;
  lockTimeoutsPerSecond: Float64Array;
  latencyP50Us: Float64Array;
  latencyP99Us: Float64Array;
  /** The bound the window's bottleneck sets on user transactions per second (the clients left out). */
  boundTransactionsPerSecond: Float64Array;
  /** The window's bottleneck's busy fraction, 0..1. */
  bottleneckUtilization: Float64Array;
  /** Its kind: 0 none, else 1 + the index of its `ResourceKind` in `thread, apiCpu, service, counterRow, row, idCache, timestamp, clients, offered` (never the clients in a window). */
  bottleneckKind: Float64Array;
  /** `count x dataNodes` values. */
  nodeLoad: Float64Array;
  nodeTcPerSecond: Float64Array;
  nodeMessagesPerSecond: Float64Array;
  dataNodes: number;
  /** Partitions of the cluster (data nodes x LDM threads). */
  partitions: number;
  /** `count x partitions` values: rows of the inserted table placed per partition per second. */
  partitionInsertsPerSecond: Float64Array;
}

export interface Latency {
  mean: number;
  p50: number;
  p99: number;
  count: number;
}

export interface NodeSummary {
  id: number;
  nodeGroup: number;
  /** Busy fraction, 0..1. */
  load: number;
  threadLoad: number[];
  threadServicesPerSecond: number[];
  /** Mean CPU cost of one message served, per thread, us. */
  threadServiceMeanUs: number[];
  /** @deprecated Renamed `threadServiceMeanUs` in 0.2.0; this name goes in 0.3.0. */
  threadServiceUsMean: number[];
  /** Transactions coordinated per second. */
  tcTransactions: number;
  /** Messages received per second. */
  messages: number;
  holdsHotRow: boolean;
}

export interface HotRowSummary {
  node: number;
  refillsPerSecond: number;
  lockUtilization: number;
  /** Mean wait for the counter row's lock and mean hold of it, us. */
  lockWaitMeanUs: number;
  lockHoldMeanUs: number;
  /** @deprecated Renamed `lockWaitMeanUs` in 0.2.0; this name goes in 0.3.0. */
  lockWaitUsMean: number;
  /** @deprecated Renamed `lockHoldMeanUs` in 0.2.0; this name goes in 0.3.0. */
  lockHoldUsMean: number;
  queueLengthMean: number;
  refills: number;
}

/** DBT2's transaction kinds and the refill; a workload spec's transactions go by their own names. */
export type TxnKind = "newOrder" | "payment" | "orderStatus" | "delivery" | "stockLevel" | "insert" | "refill" | (string & {});

/** One hot row: a row whose (primary) lock was among the busiest. Rows are tracked in
 * bounded memory (the 1024 locked most often); a row locked once, with nobody waiting, is
 * not listed. */
export interface HotRow {
  /** Its table: a spec's table name, DBT2's (`district`, ...), or `SYSTAB_0` (the counter rows). */
  table: string;
  /** Its key in the table (a counter row's key is the id of the table it counts for; slot s of a slotted row is key + s x 2^48). */
  key: number;
  /** A SYSTAB_0 counter row's only: the table whose ids it counts. */
  counterOf?: string;
  /** The data node of its primary replica. */
  node: number;
  /** The seconds it was counted: the whole span (the measured period, or the window) for a row tracked from its start; less for a row first tracked after it began, whose figures (over the whole span) are then a lower bound. */
  countedSeconds: number;
  /** Fraction of the time its lock was held, 0..1. */
  lockBusyFraction: number;
  grantsPerSecond: number;
  /** Lock requests that had to wait, per second. */
  waitsPerSecond: number;
  /** Requests waiting on average. */
  meanWaiters: number;
  /** Mean wait of the requests that waited, us. */
  meanWaitUs: number;
  /** Of the time its lock was held, the share its holders waited for other locks or ids (a convoy's victim when most). */
  blockedFraction: number;
  /** Of the time its lock was held, the share its holders waited for busy threads. */
  queuedFraction: number;
  /** Who waits for whom: its wait split by waiting and holding request, largest first. */
  waits: WaitPart[];
}

/** The same object `hotrow run --json` prints. */
export interface Summary {
  config: Config;
  simulatedSeconds: number;
  events: number;
  insertsPerSecond: number;
  transactionsPerSecond: number;
  tpm: number;
  /** What every surface says of the run, decided once by the core. */
  facts: Facts;
  nodes: NodeSummary[];
  hotRow: HotRowSummary;
  idsIssued: number;
  idsLost: number;
  duplicateIds: number;
  latencyUs: Latency;
  latencyByTypeUs: Partial<Record<TxnKind, Latency>>;
  committedByType: Partial<Record<TxnKind, number>>;
  clients: number;
  /** Open arrivals (`arrivalRatePerApiNode` > 0): offered against achieved and the requests
   * that waited; null in closed loops. */
  arrivals: ArrivalsSummary | null;
  aborts: number;
  /** Of the aborts, attempts that waited `lockWaitTimeoutMs` for a row lock. */
  lockTimeouts: number;
  /** The same per second after warm-up. */
  abortsPerSecond: number;
  lockTimeoutsPerSecond: number;
  /** The rows whose locks were busiest after warm-up, busiest first (at most ten). */
  hottestRows: HotRow[];
  /** The resource that holds the throughput (null while nothing committed). */
  bottleneck: Resource | null;
  /** What throughput would be if the bottleneck were relieved, and what would hold it. */
  nextCeiling: NextCeiling | null;
  /** The busiest resources by utilization (at most eight). */
  resources: Resource[];
  /** When aborted lock waits cost the clients a material share (5%) of their time: how much, and the lock-order cycles they ended; null otherwise. */
  deadlocks: Deadlocks | null;
  /** The 95% intervals of the bound and the next ceiling, by batch means over the measured run; null with fewer than 10 measured windows. */
  boundIntervals: BoundIntervals | null;
  /** What the id strategy costs. */
  allocator: AllocatorSummary;
  /** Where the inserted rows landed. */
  keys: KeysSummary;
  /** The 95% interval of every figure that is a mean over the measured period, by batch
   * means over its windows; null with fewer than 10 measured windows. */
  intervals: Intervals | null;
  /** A run asked to stop at a precision: whether it did; null when none was asked. */
  precision: PrecisionSummary | null;
  /** Where the measured period began, and why. */
  warmup: WarmupSummary;
  /** Hex; the same for the same config and seed on every platform. */
  digest: string;
}

/** Where the measured period began: after `warmupMs`, or where a detected warm-up put it. */
export interface WarmupSummary {
  mode: import("./config.js").WarmupMode;
  /** `warmupMs`: the warm-up, or its least when detected. */
  leastMs: number;
  /** Where the measured period began, simulated ms. */
  measuredFromMs: number;
  /** A detected warm-up: where MSER-5 put the transient's end (null while undecided, and when fixed). */
  truncationMs: number | null;
  /** False while a detected warm-up is undecided (too short a run for MSER-5). */
  decided: boolean;
}

/** A run with a precision: the one asked for and the one reached. */
export interface PrecisionSummary {
  metric: IntervalMetric;
  /** `precision`: the relative half-width asked for. */
  asked: number;
  /** The metric interval's relative half-width at the end (null without an interval). */
  reached: number | null;
  /** It was met and the run stopped there, before `durationMs` ran out. */
  converged: boolean;
}

/** How the intervals were taken, and each metric's (by the metric table's names). */
export interface Intervals {
  /** 10 to 20. */
  batches: number;
  windowsPerBatch: number;
  /** Measured windows used: batches x windows per batch (the earliest left over are dropped). */
  windows: number;
  metrics: Partial<Record<IntervalMetric, Interval>>;
}

/** The metrics that get an interval: their summary figure is a mean over the run. */
export type IntervalMetric =
  | "insertsPerSecond"
  | "transactionsPerSecond"
  | "tpm"
  | "refillsPerSecond"
  | "hotRowLockUtilization"
  | "hotRowQueueMean"
  | "coordinationsPerSecond"
  | "insertSkew"
  | "offeredPerSecond"
  | "waitingMean"
  | "abortsPerSecond"
  | "lockTimeoutsPerSecond"
  | "latencyMeanUs";

/** A figure's 95% interval: the figure ± `halfWidth`. */
export interface Interval {
  halfWidth: number;
  /** `halfWidth` over the batch means' mean (0 when that is 0). */
  relative: number;
  /** Lag-1 correlation of the batch means: above 0.5 the batches are too short and the interval too narrow. */
  lag1: number;
}

/** Open arrivals after warm-up; achieved is `transactionsPerSecond`. */
export interface ArrivalsSummary {
  offeredPerSecond: number;
  /** Mean requests waiting for a free client thread. */
  waitingMean: number;
  /** Share of the offered requests that found no free client thread and waited. */
  waitedFraction: number;
  /** How long requests waited before their transaction started, us (0 for those that did not). */
  waitUs: { mean: number; p99: number };
  /** Requests refused: their API node was down (or restarted under them), its waiting line
   * full, or the rate set to 0 while they waited. */
  refused: number;
}

export interface AllocatorSummary {
  kind: Allocator;
  /** Ranges that reached a cache per second: refills or service requests (0 for timestamp). */
  coordinationsPerSecond: number;
  /** Ids that will never be issued (API node restarts, service failovers). */
  idsLost: number;
  /** From asking for a range to its arrival, us. */
  coordinationLatencyUs: { mean: number; p99: number };
  /** Share of ids greater than the id issued just before them anywhere (1 = globally increasing). */
  inOrderFraction: number;
}

export interface KeysSummary {
  /** The busiest partition's share of inserted rows per window: 1/partitions = even, 1 = one partition. */
  insertSkew: number;
  hottestPartition: number;
  partitionsTouched: number;
}

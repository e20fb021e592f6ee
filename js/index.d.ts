// Types of the npm package `hotrow`: the same API in browsers, bundlers and Node.

import type { Explanation, NextCeiling, Remedy, Resource, ResourceKind, WaitPart } from "./explain.js";
export type { Explanation, NextCeiling, Remedy, Resource, ResourceKind, WaitPart };

/** Workloads by name: the DBT2 (TPC-C-like) mix through mysqld (built in), and the shipped
 * workload specs (`workloads()` gives each in full). */
export type Workload = "dbt2" | "ndbapi-insert" | "sql-insert" | "tpcb" | "sysbench-insert" | "bulk-insert" | "event-log" | "ycsb-a";

/** Which key each row of a statement gets. Absent: uniform for reads, updates and
 * deletes, sequential for inserts; an insert into an `autoIncrement` or `hidden` table
 * takes its key from the id allocator and names none. */
export type KeyChoice =
  | { dist: "uniform" }
  | { dist: "zipfian"; /** 0 < theta < 1; YCSB uses 0.99 */ theta: number }
  | { dist: "hotspot"; /** (0, 1]: the first keys, this share of them */ hotFraction: number; /** [0, 1] of the accesses */ hotShare: number }
  | { dist: "sequential" }
  | { dist: "sameAs"; /** an earlier statement of this transaction */ statement: number };

/** A workload as data: tables and a weighted mix of transactions. Errors name the JSON
 * path (`workload.transactions[0].statements[2].rows`). */
export interface WorkloadSpec {
  /** 1 to 64 characters. */
  name: string;
  about?: string;
  /** "mysqld": a round per statement, then the commit (a one-statement transaction
   * commits with it); "ndbapi": one batch, committed with it. */
  api: "mysqld" | "ndbapi";
  /** Multiplies every table's rows (1..=100000; default 1). */
  scale?: number;
  /** 1 to 64 tables; at most one with an "autoIncrement" or "hidden" key. */
  tables: {
    name: string;
    /** Rows it starts with (times `scale`; at most 2^48 in all). */
    rows: number;
    key: "primaryKey" | "autoIncrement" | "hidden";
    /** Absent: the config's `partitioning` for the table taking ids, "hash" for the others.
     * A "range" table starts with its rows cut into ranges of `rangeRows`. */
    partitioning?: Partitioning;
    /** How its keys (ids, or keys the workload chooses) are laid out. Absent: the config's
     * `keyLayout` for the table taking ids, "sequential" for the others. */
    keyLayout?: KeyLayout;
  }[];
  /** 1 to 10 transactions. */
  transactions: {
    name: string;
    /** 1..=1000000, relative to the others (default 1). */
    weight?: number;
    /** 1 to 256 statements, at most 60000 rows in all. */
    statements: {
      op: "read" | "update" | "insert" | "delete";
      table: string;
      /** 1..=10000 (default 1). */
      rows?: number;
      key?: KeyChoice;
      /** A slotted counter, 1..=256 (update and read only): an update picks one of the row's `slots` rows, a read reads them all. */
      slots?: number;
    }[];
  }[];
}

/** Where ids come from: a counter row in the cluster (NDB), one allocator service (TiDB
 * AUTO_ID_CACHE 1), or time + node + sequence (Snowflake, CockroachDB unique_rowid). */
export type Allocator = "counterRow" | "centralService" | "timestamp";
/** Who owns a cached range: the API node behind a mutex (mysqld) or each client (NDB API). */
export type IdCacheScope = "apiNode" | "client";
/** Placement of a table's rows: by hash of the key (NDB) or by key range. */
export type Partitioning = "hash" | "range";
/** How an id becomes a key: as is, with hash bits on top (TiDB AUTO_RANDOM), or bit-reversed (Spanner). */
export type KeyLayout = "sequential" | "shardBits" | "bitReversed";

export type PresetName =
  | "bug39267"
  | "bug39267-fixed"
  | "ndbapi-pk"
  | "ndbapi-hidden-pk"
  | "modern"
  | "ndb-autoincrement"
  | "central-allocator"
  | "timestamp-ids"
  | "adaptive-cache"
  | "range-sequential"
  | "range-shard-bits"
  | "range-bit-reversed";

/** CPU cost of each kind of work, in nanoseconds of one thread (0..=10,000,000 each). */
export interface CpuConfig {
  tcOpNs: number;
  tcReplyNs: number;
  tcCommitNs: number;
  lqhReadNs: number;
  lqhWriteNs: number;
  lqhCommitNs: number;
  lqhCompleteNs: number;
  apiStatementNs: number;
  apiExecuteNs: number;
  apiOpNs: number;
  apiReplyNs: number;
  /** Data node: send + receive work of a signal that crosses hosts (local signals do not pay it). */
  remoteSignalNs: number;
  /** Central allocator service: serving one id request. */
  allocatorRequestNs: number;
}

export interface NetworkConfig {
  /** One-way latency between two hosts, microseconds (0..=100,000). */
  latencyUs: number;
}

/** A fault: scheduled in `Config.faults` (with `atMs`) or injected now with `Simulation.inject`. */
export type Fault =
  | { kind: "dataNodeFailure"; atMs?: number; dataNode: number; /** default 3000 */ restartAfterMs?: number }
  | { kind: "apiNodeRestart"; atMs?: number; apiNode: number; /** default 1000 */ downMs?: number }
  | { kind: "networkDelay"; atMs?: number; dataNode: number; extraUs: number; durationMs: number }
  | { kind: "allocatorFailure"; atMs?: number; /** default 1000 */ takeoverMs?: number };

/** The effective configuration: every field present. */
export interface Config {
  /** Seed of every random choice (0..=2^53-1). */
  seed: number;
  /** A workload's name, or a spec of one's own. */
  workload: Workload | WorkloadSpec;
  /** 1..=48, a multiple of `replicas`. */
  dataNodes: number;
  /** 1..=4. */
  replicas: number;
  /** LDM threads per data node, 1..=32 (1 = NDB 6.3's single-threaded ndbd). */
  ldmThreads: number;
  /** TC threads per data node, 0..=32 (0 = TC runs on the LDM threads). */
  tcThreads: number;
  /** mysqld processes or NDB API programs, 1..=256. */
  apiNodes: number;
  /** CPU cores per API node, 1..=256. */
  apiCores: number;
  /** Client threads per API node, 1..=4096 (at most 65,536 clients in all). */
  clientsPerApiNode: number;
  /** Pause between a client's transactions, microseconds (0..=60,000,000). */
  thinkTimeUs: number;
  /** Ids fetched per refill of a cached range, 1..=1,000,000 (the first range when growing). */
  cacheSize: number;
  /** Each refill multiplies the next range by this, 1..=1000 (1 = fixed). */
  cacheGrowth: number;
  /** Largest range a growing cache fetches, 1..=1,000,000, at least `cacheSize`. */
  cacheSizeMax: number;
  /** Default "apiNode" for dbt2 and sql-insert, "client" for ndbapi-insert. */
  idCacheScope: IdCacheScope;
  allocator: Allocator;
  /** Timestamp ids: clock tick, us (10..=1,000,000). */
  timestampTickUs: number;
  /** Timestamp ids: per-tick sequence bits, 1..=22 (2^bits ids per tick per API node). */
  timestampSequenceBits: number;
  /** Refill transactions start with a hint (TC on the counter row's primary). */
  hintedRefill: boolean;
  /** User transactions start with a hint (TC on their first row's primary). */
  hintedTransactions: boolean;
  /** The inserted table has a primary key (no hidden key, no allocator). */
  primaryKey: boolean;
  partitioning: Partitioning;
  /** Range partitioning: rows after which a range is cut in two, 1..=1,000,000,000. */
  rangeRows: number;
  keyLayout: KeyLayout;
  /** shardBits layout: hash bits at the top of the key, 1..=15. */
  shardBits: number;
  /** DBT2 warehouses, 1..=100,000. */
  warehouses: number;
  /** A transaction waiting this long for a row lock is aborted and retried, ms
   * (1..=3,600,000; NDB's TransactionDeadlockDetectionTimeout, default 1200). Live. */
  lockWaitTimeoutMs: number;
  /** Measured simulated time after warm-up, ms (1..=86,400,000). */
  durationMs: number;
  /** Warm-up not counted in the summary, ms (0..=3,600,000). */
  warmupMs: number;
  /** Metrics window, ms (1..=60,000). */
  windowMs: number;
  network: NetworkConfig;
  cpu: CpuConfig;
  /** Scheduled faults, at most 64. */
  faults: Fault[];
}

/** What `new Simulation()` accepts: a preset name and any fields (nested ones may be partial). */
export type ConfigInput = Partial<Omit<Config, "network" | "cpu">> & {
  preset?: PresetName;
  network?: Partial<NetworkConfig>;
  cpu?: Partial<CpuConfig>;
};

/** Fields `Simulation.set` can change while running. */
export type LiveField =
  | "cacheSize"
  | "cacheGrowth"
  | "cacheSizeMax"
  | "hintedRefill"
  | "hintedTransactions"
  | "clientsPerApiNode"
  | "thinkTimeUs"
  | "lockWaitTimeoutMs"
  | "durationMs"
  | "network.latencyUs"
  | `cpu.${keyof CpuConfig}`;

export interface StepResult {
  /** Events processed by this call. */
  events: number;
  /** Simulated time after the call, ms. */
  nowMs: number;
}

export interface RunResult extends StepResult {
  /** False when the caller's `maxEvents` budget stopped the call before the requested time. */
  reached: boolean;
}

/** The latest closed metrics window; zeros before the first one closes. */
export interface Snapshot {
  nowMs: number;
  events: number;
  finished: boolean;
  /** Windows closed so far; pass it to `windows(since)` to fetch only new ones. */
  windowsClosed: number;
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
  latencyP50Us: number;
  latencyP99Us: number;
  /** The bound the window's bottleneck sets on user transactions per second (the clients left out). */
  boundTransactionsPerSecond: number;
  /** The window's bottleneck's busy fraction, 0..1. */
  bottleneckUtilization: number;
  /** Its kind: 0 none, else 1 + the index of its `ResourceKind` in `thread, apiCpu, service, counterRow, row, idCache, timestamp`. */
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
  latencyP50Us: Float64Array;
  latencyP99Us: Float64Array;
  /** The bound the window's bottleneck sets on user transactions per second (the clients left out). */
  boundTransactionsPerSecond: Float64Array;
  /** The window's bottleneck's busy fraction, 0..1. */
  bottleneckUtilization: Float64Array;
  /** Its kind: 0 none, else 1 + the index of its `ResourceKind` in `thread, apiCpu, service, counterRow, row, idCache, timestamp`. */
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
  lockWaitUsMean: number;
  lockHoldUsMean: number;
  queueLengthMean: number;
  refills: number;
}

/** DBT2's transaction kinds and the refill; a workload spec's transactions go by their own names. */
export type TxnKind = "newOrder" | "payment" | "orderStatus" | "delivery" | "stockLevel" | "insert" | "refill" | (string & {});

/** One hot row: a row whose (primary) lock was among the busiest. Rows are tracked in
 * bounded memory (the 64 locked most often); a row locked once, with nobody waiting, is
 * not listed. */
export interface HotRow {
  /** Its table: a spec's table name, DBT2's (`district`, ...), or `SYSTAB_0` (the counter rows). */
  table: string;
  /** Its key in the table (a counter row's key is the id of the table it counts for; slot s of a slotted row is key + s x 2^48). */
  key: number;
  /** The data node of its primary replica. */
  node: number;
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
  nodes: NodeSummary[];
  hotRow: HotRowSummary;
  idsIssued: number;
  idsLost: number;
  duplicateIds: number;
  latencyUs: Latency;
  latencyByTypeUs: Partial<Record<TxnKind, Latency>>;
  committedByType: Partial<Record<TxnKind, number>>;
  clients: number;
  aborts: number;
  /** Of the aborts, attempts that waited `lockWaitTimeoutMs` for a row lock. */
  lockTimeouts: number;
  /** The rows whose locks were busiest after warm-up, busiest first (at most ten). */
  hottestRows: HotRow[];
  /** The resource that holds the throughput (null while nothing committed). */
  bottleneck: Resource | null;
  /** What throughput would be if the bottleneck were relieved, and what would hold it. */
  nextCeiling: NextCeiling | null;
  /** The busiest resources by utilization (at most eight). */
  resources: Resource[];
  /** What the id strategy costs. */
  allocator: AllocatorSummary;
  /** Where the inserted rows landed. */
  keys: KeysSummary;
  /** Hex; the same for the same config and seed on every platform. */
  digest: string;
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

/** What values a config field takes. */
export type FieldKind =
  | { type: "int"; min: number; max: number }
  | { type: "bool" }
  | { type: "choice"; values: string[] }
  | { type: "faults" };

/** One row of the config field table (`fields()`; `hotrow fields` prints the same). */
export interface FieldInfo {
  /** Dotted camelCase name, as in `Config`, `set()` and playground URLs. */
  name: string;
  kind: FieldKind;
  /** Unit of an integer field: "ms", "us", "ns", "ids", or "" for a count. */
  unit: string;
  /** `Simulation.set` takes it while running. */
  live: boolean;
  about: string;
  /** The value in the default (`bug39267`) configuration. */
  default: number | boolean | string | Fault[];
}

export interface PresetInfo {
  name: PresetName;
  description: string;
  config: Config;
}

/** A config error: `RangeError` for an out-of-range value, else `Error`. */
export interface HotrowError extends Error {
  /** The dotted config field, e.g. "cacheSize" or "network.latencyUs". */
  field: string;
}

export class Simulation {
  /** Throws a `HotrowError` naming the field, the value and what is allowed. */
  constructor(config?: ConfigInput);
  /** Processes at most `maxEvents` (default 1) events. */
  step(maxEvents?: number): StepResult;
  /**
   * Advances by `simulatedMs` (0..=86,400,000). With `maxEvents`, a budget for a render loop,
   * it stops after that many events (`reached` false); without, it reaches the time.
   */
  runFor(simulatedMs: number, maxEvents?: number): RunResult;
  /** Advances to warm-up + duration; with `maxEvents`, at most that many events per call. */
  runToEnd(maxEvents?: number): RunResult;
  snapshot(): Snapshot;
  /** Windows closed since window number `since` (default 0), as far back as kept. */
  windows(since?: number): WindowColumns;
  summary(): Summary;
  /** What holds the throughput so far: the summary's bottleneck, next ceiling and busiest resources. */
  explain(): Explanation & { remedies: Remedy[] };
  /** Changes a field live; throws (changing nothing) for bad values or fields that need a new Simulation. */
  set(field: LiveField, value: number | boolean): void;
  /** Injects a fault now; throws (changing nothing) when it cannot happen now. */
  inject(fault: Fault): void;
  /** What a drawing of the cluster needs now, with at most `maxMessages` (default 2000) messages in flight. */
  cluster(maxMessages?: number): ClusterView;
  /** A copy of the whole state now, to go back to (`restore`) or branch from (`fromCheckpoint`). */
  checkpoint(): Checkpoint;
  /**
   * Brings this simulation back to `checkpoint`: clock, state, metrics windows and the config
   * then (live changes made since are undone). Running on gives exactly what the original run
   * gave. Throws a `HotrowError` (changing nothing) for a checkpoint of another config.
   */
  restore(checkpoint: Checkpoint): void;
  /** A new simulation going on from `checkpoint`: same past; `set` a live field to fork its future. */
  static fromCheckpoint(checkpoint: Checkpoint): Simulation;
  readonly config: Config;
  readonly nowMs: number;
  readonly finished: boolean;
  /** Frees the WebAssembly memory of this simulation. */
  free(): void;
}

/** The cluster now, for a drawing: hosts are data nodes `0..dataNodes-1`, then API nodes, then the allocator service. */
export interface ClusterView {
  nowMs: number;
  dataNodes: number;
  nodeGroups: number;
  /** A data node's node group is `floor(node / replicas)`. */
  replicas: number;
  apiNodes: number;
  /** Host number of the central allocator service (idle unless `allocator` is "centralService"). */
  serviceHost: number;
  hotRowNode: number;
  /** The counter row's lock is held now. */
  lockHeld: boolean;
  /** Refills waiting for the counter row's lock now. */
  lockWaiting: number;
  nodesDown: number[];
  /** Messages crossing the network now (all of them; `messages` holds a sample). */
  inFlight: number;
  messages: {
    from: Float64Array;
    to: Float64Array;
    /** 0 = just sent, 1 = arriving. */
    progress: Float64Array;
    /** 1 for an id refill's signals or an allocator-service request. */
    allocator: Float64Array;
    /** NDB signal names: "TCKEYREQ", "LQHKEYREQ", "COMMIT", ... */
    signal: string[];
  };
}

/** A simulation's whole state at one moment. Opaque; lives in the wasm instance that made it. */
export class Checkpoint {
  private constructor();
  /** The simulated time it was taken at. */
  readonly nowMs: number;
  /** Bytes of wasm memory it holds. */
  readonly memoryBytes: number;
  /** Frees its WebAssembly memory. */
  free(): void;
}

/** Loads the WebAssembly module (browsers fetch it; in Node it is already loaded). */
export function init(input?: string | URL | Request | Response | BufferSource | WebAssembly.Module): Promise<void>;
export function presets(): PresetInfo[];
/** Top-level fields `set` takes while running; nested fields follow their object (`network.latencyUs`). */
export function liveFields(): string[];
/** The config field table: the one list of fields, with ranges, units, defaults and liveness. */
export function fields(): FieldInfo[];
/** One metric of the metric table: every figure windows, snapshots and summaries report. */
export interface MetricInfo {
  name: string;
  /** A short label for legends and headings. */
  label: string;
  /** "1/s", "1/min", "us", "ms", "fraction" (0..1) or "count". */
  unit: string;
  shape: "scalar" | "perNode" | "perPartition";
  about: string;
  /** Carried by `snapshot()` and `windows()` (and `hotrow run --csv`). */
  window: boolean;
  /** Its dotted path in `summary()` (and a `hotrow sweep` column), or null. */
  summary: string | null;
}
/** The metric table, the one list of metrics the CLI, the playground and these types share. */
export function metrics(): MetricInfo[];
/** The workloads: DBT2 (built in: `spec` null), then each shipped spec in full. */
export function workloads(): { name: Workload; about: string; spec: WorkloadSpec | null }[];
/** Bytes of WebAssembly memory the module holds now (grows as needed, never shrinks; freed
 * simulations' and checkpoints' bytes are reused). */
export function memoryBytes(): number;
export const version: string;

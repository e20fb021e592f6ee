// Types of the npm package `hotrow`: the same API in browsers, bundlers and Node.

import type { Cycle, CycleStep, Deadlocks, Explanation, NextCeiling, Remedy, Resource, ResourceKind, WaitPart } from "./explain.js";
export type { Cycle, CycleStep, Deadlocks, Explanation, NextCeiling, Remedy, Resource, ResourceKind, WaitPart };
import type { Workload, KeyChoice, WorkloadSpec, Allocator, IdCacheScope, Partitioning, KeyLayout, PresetName, CpuConfig, NetworkConfig, Engine, LockGrant, DeadlockSearch, ServerConfig, Fault, Config, ConfigInput, LiveField } from "./config.js";
export type { Workload, KeyChoice, WorkloadSpec, Allocator, IdCacheScope, Partitioning, KeyLayout, PresetName, CpuConfig, NetworkConfig, Engine, LockGrant, DeadlockSearch, ServerConfig, Fault, Config, ConfigInput, LiveField };
import type { Snapshot, WindowColumns, Latency, NodeSummary, HotRowSummary, TxnKind, HotRow, Summary, AllocatorSummary, KeysSummary } from "./summary.js";
export type { Snapshot, WindowColumns, Latency, NodeSummary, HotRowSummary, TxnKind, HotRow, Summary, AllocatorSummary, KeysSummary };

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

/** What values a config field takes. */
export type FieldKind =
  | { type: "int"; min: number; max: number }
  | { type: "number"; min: number; max: number }
  | { type: "bool" }
  | { type: "choice"; values: string[]; labels: string[]; traits?: AllocatorTraits[] }
  | { type: "faults" };

/** What an id strategy has (the `allocator` field's `kind.traits`, one per value). */
export interface AllocatorTraits {
  /** Refills update a counter row in the cluster under its lock (SYSTAB_0). */
  counterRow: boolean;
  /** Hands out cached ranges: `cacheSize`, `cacheGrowth` and `idCacheScope` apply. */
  cache: boolean;
  /** Each refill is a request to a service on a host of its own, which can fail (`allocatorFailure`). */
  service: boolean;
  /** Ids come from a clock tick and a per-tick sequence (`timestampTickUs`, `timestampSequenceBits`). */
  tick: boolean;
}

/** One row of the config field table (`fields()`; `hotrow fields` prints the same). */
export interface FieldInfo {
  /** Dotted camelCase name, as in `Config`, `set()` and playground URLs. */
  name: string;
  /** A short label for controls, legends and menus ("cache size"); the unit goes beside it. */
  label: string;
  kind: FieldKind;
  /** Unit of a number field: "ms", "us", "ns", "ids", "x", "CV", or "" for a count. */
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
  /** Every window kept, as the CSV `hotrow run --csv` prints (one row per window). */
  windowsCsv(): string;
  /** What holds the throughput so far: the summary's bottleneck, next ceiling and busiest resources. */
  explain(): Explanation;
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
  /** Its summary figure is a mean over the run and gets a 95% interval (`summary().intervals`). */
  interval: boolean;
}
/** The metric table, the one list of metrics the CLI, the playground and these types share. */
export function metrics(): MetricInfo[];
/** The workloads: DBT2 (built in: `spec` null), then each shipped spec in full. */
export function workloads(): { name: Workload; about: string; spec: WorkloadSpec | null }[];
/** Bytes of WebAssembly memory the module holds now (grows as needed, never shrinks; freed
 * simulations' and checkpoints' bytes are reused). */
export function memoryBytes(): number;
export const version: string;

/** One SQL file given to `importSql`: its name (errors and assumptions name it), its text,
 * and the weight of its transactions in the mix (pgbench's `-f file@weight`) unless an
 * annotation says. */
export interface SqlSource {
  name: string;
  text: string;
  /** 1..=1000000. */
  weight?: number;
}

export interface SqlImportOptions {
  /** Guessed when absent: "postgres" for a pgbench script (a `\set` line), a SERIAL column, `ON CONFLICT`, `nextval(` or a `$1` parameter, else "mysql". */
  dialect?: "mysql" | "postgres";
  /** pgbench's `:scale` (the spec's `scale`), 1..=100000; default 1. */
  scale?: number;
  /** The rows of a table nothing else gives a count (assumed, and said); default 1000000. */
  defaultRows?: number;
  /** The spec's name; absent, the last file's name. */
  name?: string;
}

/** Something the importer assumed, where it did (1-based line and column). */
export interface SqlAssumption {
  file: string;
  line: number;
  column: number;
  text: string;
}

/** What one statement of the input became, where it stands: its row operations ("update
 * counters, insert orders"), "table t", "sequence s", "begin", "commit", or "left out" (an
 * assumption at the same place says why). */
export interface SqlStatement {
  file: string;
  line: number;
  column: number;
  became: string;
}

/** An import refused: the place (line and column 0 when the error names none) and why. */
export class SqlImportError extends Error {
  file: string;
  line: number;
  column: number;
  /** The message without its place. */
  reason: string;
}

/** Imports SQL (a schema and its transactions, or pgbench scripts) as a workload spec, every
 * assumption said. Loads the SQL import's own WebAssembly module (dist/sql) at the first
 * call. Rejects with a `SqlImportError` naming the file, line and column. */
export function importSql(
  input: string | SqlSource[],
  options?: SqlImportOptions,
): Promise<{ spec: WorkloadSpec; assumptions: SqlAssumption[]; statements: SqlStatement[] }>;

/** What `report` writes: the whole page (default), its block alone, or one figure as SVG. */
export interface ReportOptions {
  /** The report's block (its style, figures and tables) without the page around it. */
  fragment?: boolean;
  /** One figure alone, as an SVG file. */
  svg?: "throughput" | "nodes" | "heatmap";
  /** The table of what each standard remedy for the bottleneck lifts the run to, each run
   * from the start with the config changed as it says (`hotrow report --remedies`); a config
   * source only. */
  remedies?: boolean;
}

/** A run as one HTML page with no script and no outside resource, the bytes `hotrow report`
 * writes for the same config: `source` is a config (run to its end) or a `Simulation` (its
 * run so far). Loads the report's own WebAssembly module (dist/report) at the first call;
 * in a browser, after `init()`. */
export function report(source: ConfigInput | Simulation, options?: ReportOptions): Promise<string>;

/**
 * The bottleneck's standard remedies (what `hotrow run --remedies` runs) for a run of
 * `config` whose explanation is `explanation` (`sim.explain()`): each a change to try, none
 * when nothing can be relieved. Loads a module of its own (the fit's) at the first call; in
 * a browser, after `init()`. Rejects when either is not what it says.
 */
export function remedies(config: ConfigInput | Config, explanation: Explanation): Promise<Remedy[]>;

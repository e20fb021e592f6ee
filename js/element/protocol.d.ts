// The messages between the playground element (and its sweep pool) and worker.js: the one
// declaration of the protocol, checked by `tsc --checkJs` over js/ in `npm test`.
//
// One request-id scheme: a request that expects an answer carries `id` (one counter per
// element, requests.js `request`); its answer carries `replyTo` with that id, and a refusal
// is an `error` message with the same `replyTo`.
import type { ClusterView, Config, ConfigInput, Explanation, FieldInfo, Fault, MetricInfo, Snapshot, Summary, WindowColumns, WorkloadSpec } from "../index.js";

/** A config as the element sends it: fields, possibly with a workload spec object. */
type ConfigIn = ConfigInput | Record<string, unknown>;

// ---- page -> worker -------------------------------------------------------------------

export type ToWorker =
  /** Runs `configs` (one, or two in compare mode) from time 0. */
  | { type: "start"; configs: ConfigIn[]; speed: number; paused: boolean; pauseAtMs?: number | null }
  /** Sets a live field in every running simulation. */
  | { type: "set"; field: string; value: unknown }
  | { type: "inject"; fault: Fault }
  /** Simulated ms per wall second. */
  | { type: "speed"; value: number }
  | { type: "pause" }
  | { type: "resume" }
  /** Advances one metrics window while paused. */
  | { type: "step" }
  /** Does a simulation take this config? Answered by `checked`. */
  | { type: "check"; id: number; config: ConfigIn }
  /** Shows simulated time `ms` again; answered by a `tick` with `reset`. */
  | { type: "seek"; id: number; ms: number }
  /** Branches run B from the moment shown; answered by a `tick` with `reset`. */
  | { type: "fork"; id: number; field: string; value: unknown }
  /** The windows as CSV and the summary of every run; answered by `export`. */
  | { type: "export"; id: number }
  /** A sweep pool worker's share of a sweep (sweep.js): `field` null sets each value's fields;
   * with `configs` (the fit's runs), each is run as it is and `values` only name them. */
  | { type: "sweep"; base: ConfigIn; field: string | null; values: unknown[]; configs?: ConfigIn[]; indexes?: number[] };

// ---- worker -> page -------------------------------------------------------------------

/** One simulation's part of a tick. */
export interface TickRun {
  /** The windows closed since the last tick (all kept ones after a reset). */
  windows: WindowColumns;
  snapshot: Snapshot;
  /** Run A's cluster view; null for run B. */
  cluster: ClusterView | null;
  /** `explain()`, a few times a second (null in between). */
  explain: Explanation | null;
}

/** One run of a sweep share, with every summary metric of the metric table by name. */
export interface SweepResult {
  index: number;
  value: unknown;
  /** The core's hot row of the run (`summary.facts.hotRow`): the row that binds, or the busiest row lock, not binding. */
  hotRow: Summary["facts"]["hotRow"];
  bottleneck: { name: string; kind: string } | null;
  /** The summary's 95% intervals (null below 10 measured windows) and, for a run with a
   * precision, whether it was met. */
  intervals: Summary["intervals"];
  precision: Summary["precision"];
  simulatedSeconds: number;
  digest: string;
  config: ConfigIn;
  [metric: string]: unknown;
}

export type FromWorker =
  | {
      type: "ready";
      liveFields: string[];
      presets: { name: string; description: string }[];
      fields: FieldInfo[];
      metrics: MetricInfo[];
      workloads: { name: string; spec: WorkloadSpec | null }[];
      version: string;
    }
  | {
      type: "started";
      configs: Config[];
      /** Each run's facts at its start (the core's: its headline figure, the bug report's lines). */
      facts: Snapshot["facts"][];
      hotRowNode: number;
      dataNodes: number;
      partitions: number;
      /** Set when run B is a fork of run A. */
      forked: { field: string; value: unknown; atMs: number; was: unknown } | null;
    }
  | {
      type: "tick";
      sims: TickRun[];
      /** The worker paused itself at `pauseAtMs`. */
      pausedItself: boolean;
      /** The simulated time every run has reached. */
      nowMs: number;
      timeline: { startMs: number; frontierMs: number; checkpoints: number; bytes: number };
      engine: {
        eventsPerSecond: number;
        simPerWall: number;
        /** Since the worker started, in wall ms: the engine's work (runFor), the timeline's
         * checkpoints, the tick's message (windows, snapshot, cluster, explain), and the
         * wall time of the ticks that ran; with the events run. What the worker adds to the
         * engine's own time, read without timing another run (scripts/bench-js.mjs). */
        spent: { engineMs: number; timelineMs: number; publishMs: number; wallMs: number; events: number };
      };
      /** The windows start again (after a seek or a fork). */
      reset?: boolean;
      /** The seek or fork this tick shows. */
      replyTo?: number;
    }
  | { type: "set"; field: string; value: unknown; /** the runs' configs after the change */ configs: Config[]; /** and their facts (the run described anew) */ facts: Snapshot["facts"][] }
  | { type: "injected"; fault: Fault }
  | { type: "checked"; replyTo: number; ok: boolean; message?: string; field?: string | null }
  | { type: "export"; replyTo: number; runs: { csv: string; summary: Summary }[] }
  | { type: "sweepProgress"; done: number; total: number; results: SweepResult[] }
  | { type: "sweepDone"; results: SweepResult[] }
  | {
      type: "error";
      /** What failed: init, start, run, set, inject, seek, fork, sweep. */
      context: "init" | "start" | "run" | "set" | "inject" | "seek" | "fork" | "sweep";
      message: string;
      field: string | null;
      /** The request refused, when it had an id. */
      replyTo?: number;
    };

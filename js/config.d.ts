// Types of the config: workloads and their specs, the id allocator's choices, presets,
// CPU costs, the network, faults, and what `new Simulation()` and `set` accept.

import type { IntervalMetric } from "./summary.js";

/** Workloads by name: the DBT2 (TPC-C-like) mix through mysqld (built in), and the shipped
 * workload specs (`workloads()` gives each in full). */
export type Workload =
  | "dbt2"
  | "ndbapi-insert"
  | "sql-insert"
  | "tpcb"
  | "sysbench-insert"
  | "bulk-insert"
  | "event-log"
  | "ycsb-a"
  | "counter";

/** Which key each row of a statement gets. Absent: uniform for reads, updates and
 * deletes, sequential for inserts; an insert into an `autoIncrement` or `hidden` table
 * takes its key from the id allocator and names none. */
export type KeyChoice =
  | { dist: "uniform" }
  | { dist: "zipfian"; /** 0 < theta < 1; YCSB uses 0.99 */ theta: number }
  | { dist: "hotspot"; /** (0, 1]: the first keys, this share of them */ hotFraction: number; /** [0, 1] of the accesses */ hotShare: number }
  | { dist: "sequential" }
  | { dist: "sameAs"; /** an earlier statement of this transaction */ statement: number }
  | { dist: "exponential"; /** > 0: pgbench's random_exponential, the first keys most often */ parameter: number }
  | { dist: "gaussian"; /** >= 2: pgbench's random_gaussian, cut at this many standard deviations */ parameter: number }
  | { dist: "fixed"; /** always this key: 0 to rows x scale - 1 */ key: number }
  | { dist: "timeBucket"; /** the current bucket's row: key = time / bucketMs mod rows */ bucketMs: number };

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
  /** 1 to 64 tables; each with an "autoIncrement" or "hidden" key has its own SYSTAB_0 counter row (the first is the one `hotRow` follows). */
  tables: {
    name: string;
    /** Rows it starts with (times `scale`; at most 2^48 in all). */
    rows: number;
    key: "primaryKey" | "autoIncrement" | "hidden";
    /** Absent: the config's `partitioning` for the tables taking ids, "hash" for the others.
     * A "range" table starts with its rows cut into ranges of `rangeRows`. */
    partitioning?: Partitioning;
    /** How its keys (ids, or keys the workload chooses) are laid out. Absent: the config's
     * `keyLayout` for the tables taking ids, "sequential" for the others. */
    keyLayout?: KeyLayout;
    /** Its UNIQUE keys by name: each a hidden index table (`name.index$unique`) whose row an insert or a delete also writes, in the same round. */
    uniqueIndexes?: string[];
    /** Partitioned on a column shared with other tables (`PARTITION BY KEY (w_id)`) that takes this many values (times `scale`; must divide `rows`): rows come in equal runs of keys, one per value, and rows of one value share a partition. `primaryKey` tables only. */
    distributionValues?: number;
    /** A table taking ids: how many ids each fetch takes from its counter row (its sequence's CACHE), 1..=1000000; absent, the config's `cacheSize` and `cacheGrowth`. */
    idCache?: number;
  }[];
  /** 1 to 10 transactions. */
  transactions: {
    name: string;
    /** 1..=1000000, relative to the others (default 1). */
    weight?: number;
    /** Takes the rows it locks in key order: each table's drawn keys handed to its updates and deletes sorted, as an application sorts its ids first (the remedy for a lock-order deadlock). Default false. */
    sortKeys?: boolean;
    /** 1 to 256 statements, at most 60000 rows in all. */
    statements: {
      op: "read" | "update" | "insert" | "delete";
      table: string;
      /** 1..=10000 (default 1). */
      rows?: number;
      key?: KeyChoice;
      /** A slotted counter, 1..=256 (update and read only): an update picks one of the row's `slots` rows, a read reads them all. */
      slots?: number;
      /** On a table with `distributionValues`: its rows take the value of statement `sameAs`'s rows (the same warehouse), a `remote` share (0..=1) of them another; its key is drawn among that value's rows. */
      distribution?: { sameAs: number; remote?: number };
      /** This statement and the `statements - 1` after it (default 1) run as a block min..=max times (0..=1000, drawn uniformly; `max` absent: `min`, default 1), in a `share` (0, 1] of the transactions (default 1). Blocks do not nest. */
      repeat?: { min?: number; max?: number; statements?: number; share?: number };
      /** An update of UNIQUE columns: the table's unique indexes it sets; each row also rewrites a row of each (the old value's index row out, the new one's in). */
      setsUnique?: string[];
      /** SQL's `RETURNING`: the rows' values come back to the transaction (at no extra cost), which uses them; the remedies' warnings weigh it. Default false. */
      returning?: boolean;
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
  | "range-bit-reversed"
  | "postgres"
  | "innodb"
  | "raft";

/** CPU cost of each kind of work, in nanoseconds of one thread (0..=10,000,000 each), and
 * how a service's time varies around its cost. */
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
  /** One multiplier on every cost above (0.01..=100; 0.5: cores twice as fast). */
  scale: number;
  /** An inserted row's TC work and write, this times an update's (0.05..=10): 1 in NDB,
   * below 1 on a one-server engine. */
  insertScale: number;
  /** Coefficient of variation of every service time (0..=4): 0 = each takes exactly its
   * cost, 1 = exponential (gamma-distributed with the cost as its mean). */
  serviceCv: number;
}

/** The database engine: NDB's cluster, one PostgreSQL or InnoDB server, or Raft ranges. */
export type Engine = "ndb" | "postgres" | "innodb" | "raft";

/** Who gets a released row lock under `innodb`: the first waiter, or the one whose
 * transaction blocks the most others (MySQL 8.0's CATS). */
export type LockGrant = "fifo" | "cats";

/** How a new lock wait searches for a deadlock under `innodb`. */
export type DeadlockSearch = "holders" | "graph" | "off";

/** A one-server engine's machine and costs (unused under `ndb`). */
export interface ServerConfig {
  /** CPU cores the server's backends share (1..=1024). */
  cores: number;
  /** One durable flush of the log, microseconds (0..=1,000,000): a commit waits for the
   * flush covering it; commits arriving during a flush share the next. */
  flushUs: number;
  /** postgres: CPU a woken waiter spends re-checking a released row, nanoseconds
   * (0..=10,000,000); every waiter wakes at each hand-off, one wins. */
  recheckNs: number;
  /** How long a woken waiter takes to run again (a semaphore's post and the scheduler),
   * microseconds (0..=1,000,000), before it queues for a core. */
  wakeUs: number;
  /** innodb: CPU the releasing thread spends per waiter still queued when it hands a row
   * over, nanoseconds (0..=10,000,000). */
  grantNs: number;
  /** innodb: CPU a new lock wait's deadlock search spends per transaction it visits,
   * nanoseconds (0..=10,000,000). */
  deadlockNs: number;
  /** innodb: how each new lock wait searches for a deadlock: from holder to holder
   * (MariaDB 10.6+), through the wait-for graph with 200 at most (MySQL 5.7), or not at all. */
  deadlockSearch: DeadlockSearch;
  /** innodb: who gets a released row lock. */
  lockGrant: LockGrant;
  /** innodb: `innodb_autoinc_lock_mode` (0..=2). 0: an INSERT taking an AUTO_INCREMENT id
   * holds its table's AUTO-INC lock to the statement's end; 1 and 2: a light mutex, alike here. */
  autoincLockMode: number;
  /** raft: how long a waiter waits for a row lock before it pushes the holder,
   * microseconds (0..=10,000,000). */
  pushDelayUs: number;
  /** raft: CPU a push and its answer cost the leaseholder, nanoseconds (0..=10,000,000). */
  pushNs: number;
}

export interface NetworkConfig {
  /** Mean one-way latency between two hosts, microseconds (0..=100,000). */
  latencyUs: number;
  /** Coefficient of variation of a message's one-way delay (0..=1): a floor of
   * `latencyUs * (1 - cv)` plus an exponential tail; 0 = every message takes `latencyUs`. */
  latencyCv: number;
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
  /** Open arrivals: transactions per second offered to each API node (0..=10,000,000; 0 =
   * closed loops). Each takes a free client thread or waits for one; think time must be 0. Live. */
  arrivalRatePerApiNode: number;
  /** Spread of the gaps between open arrivals (coefficient of variation, 0..=4): 1 = Poisson,
   * 0 = evenly spaced. Live. */
  arrivalCv: number;
  /** Ids per fetch of a cached range (a refill or a service request), 1..=1,000,000 (the first range when growing). */
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
  /** "fixed": measure after `warmupMs`; "auto": `warmupMs` is the least, and MSER-5 over the
   * precision metric's windows finds where the transient ended (`summary().warmup`). */
  warmup: WarmupMode;
  /** Stop once the 95% interval of `precisionMetric` is within this fraction of it (0..=0.5;
   * 0, the default: run the whole duration); `summary().precision` says whether it was met. */
  precision: number;
  /** The figure whose interval decides the stop (default "transactionsPerSecond"). */
  precisionMetric: IntervalMetric | "headline";
  /** "ndb" (the default), "postgres" or "innodb" (one server: dataNodes, replicas, ldmThreads 1, tcThreads 0), or "raft" (ranges; ldmThreads 1, tcThreads 0). */
  engine: Engine;
  server: ServerConfig;
  network: NetworkConfig;
  cpu: CpuConfig;
  /** Scheduled faults, at most 64. */
  faults: Fault[];
}

/** How a run's warm-up ends: after `warmupMs`, or detected (MSER-5). */
export type WarmupMode = "fixed" | "auto";

/** What `new Simulation()` accepts: a preset name and any fields (nested ones may be partial). */
export type ConfigInput = Partial<Omit<Config, "network" | "cpu" | "server">> & {
  preset?: PresetName;
  server?: Partial<ServerConfig>;
  network?: Partial<NetworkConfig>;
  cpu?: Partial<CpuConfig>;
};

/** Fields `Simulation.set` can change while running. */
export type LiveField =
  | "clientsPerApiNode"
  | "thinkTimeUs"
  | "arrivalRatePerApiNode"
  | "arrivalCv"
  | "cacheSize"
  | "cacheGrowth"
  | "cacheSizeMax"
  | "hintedRefill"
  | "hintedTransactions"
  | "lockWaitTimeoutMs"
  | "durationMs"
  | "server.flushUs"
  | "server.recheckNs"
  | "server.wakeUs"
  | "server.grantNs"
  | "server.deadlockNs"
  | "server.deadlockSearch"
  | "server.lockGrant"
  | "server.pushDelayUs"
  | "server.pushNs"
  | "network.latencyUs"
  | "network.latencyCv"
  | `cpu.${keyof CpuConfig}`;

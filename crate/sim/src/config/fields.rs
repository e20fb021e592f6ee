//! The table of config fields: name, kind and allowed range, unit, whether a running
//! simulation can take it, and what it means. The one list of fields: validation reads
//! its ranges, `Simulation::set` its `live` column, the CLI prints it (`hotrow fields`),
//! and the npm package exports it (`fields()`), against which `index.d.ts` and the
//! playground's field list are pinned by tests. A test checks that it names exactly the
//! fields `Config` serialises.

use super::{
    lookup, Allocator, Config, ConfigError, DeadlockSearch, Engine, IdCacheScope, KeyLayout, LockGrant, Partitioning, Traits,
    WORKLOAD_LABELS, WORKLOAD_NAMES,
};
use crate::decimal::Shortest;
use serde_json::{Map, Value};

/// What values a field takes (`describe` writes it as `{ type, ... }`).
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// A whole number in `min..=max`.
    Int {
        min: u64,
        max: u64,
    },
    /// A number (not only whole) in `min..=max`.
    Number {
        min: f64,
        max: f64,
    },
    Bool,
    /// One of these strings; `labels[i]` is how `values[i]` reads in a menu, and
    /// `traits[i]`, for the id allocator only, what it has.
    Choice {
        values: &'static [&'static str],
        labels: &'static [&'static str],
        traits: &'static [Traits],
    },
    /// The fault schedule: a list of fault objects (see `Fault`).
    Faults,
}

/// One config field.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    /// Dotted camelCase name, as in JSON, `--set` and URLs.
    pub name: &'static str,
    /// A short label for controls, legends and menus ("cache size"); the unit goes beside it.
    pub label: &'static str,
    pub kind: Kind,
    /// Unit of an integer field ("" when it is a count).
    pub unit: &'static str,
    /// A running simulation can take a new value (`Simulation::set`).
    pub live: bool,
    pub about: &'static str,
}

const fn int(name: &'static str, label: &'static str, min: u64, max: u64, unit: &'static str, live: bool, about: &'static str) -> Field {
    Field { name, label, kind: Kind::Int { min, max }, unit, live, about }
}

const fn real(name: &'static str, label: &'static str, min: f64, max: f64, unit: &'static str, about: &'static str) -> Field {
    Field { name, label, kind: Kind::Number { min, max }, unit, live: true, about }
}

const fn flag(name: &'static str, label: &'static str, live: bool, about: &'static str) -> Field {
    Field { name, label, kind: Kind::Bool, unit: "", live, about }
}

const fn choice(name: &'static str, label: &'static str, (values, labels): Choices, about: &'static str) -> Field {
    Field { name, label, kind: Kind::Choice { values, labels, traits: &[] }, unit: "", live: false, about }
}

/// A choice field's values and their menu labels, index by index.
type Choices = (&'static [&'static str], &'static [&'static str]);

const fn cpu(name: &'static str, label: &'static str, about: &'static str) -> Field {
    int(name, label, 0, 10_000_000, "ns", true, about)
}

/// What a run can stop on (`precisionMetric`): `headline`, the figure the run is about
/// (`facts::headline`: TPM, inserts/s or transactions/s), then the metric table's metrics
/// with a 95% interval (a `batch` reading in `catalog.rs`), by name and label, in table
/// order (tested against the table in tests/it/api.rs).
pub const PRECISION_METRICS: &[&str] = &[
    "headline",
    "insertsPerSecond",
    "transactionsPerSecond",
    "tpm",
    "refillsPerSecond",
    "hotRowLockUtilization",
    "hotRowQueueMean",
    "coordinationsPerSecond",
    "insertSkew",
    "offeredPerSecond",
    "waitingMean",
    "abortsPerSecond",
    "lockTimeoutsPerSecond",
    "latencyMeanUs",
];
pub const PRECISION_LABELS: &[&str] = &[
    "the headline figure",
    "inserts/s",
    "transactions/s",
    "TPM",
    "refills/s",
    "lock busy",
    "refills queued",
    "id fetches/s",
    "insert skew",
    "offered/s",
    "waiting",
    "aborts/s",
    "aborted lock waits/s",
    "mean latency",
];

/// Every config field, in the order validation checks them.
pub const FIELDS: &[Field] = &[
    int("seed", "random seed", 0, (1 << 53) - 1, "", false, "seed of every pseudo-random choice (fits a JavaScript number)"),
    Field {
        name: "workload",
        label: "workload",
        kind: Kind::Choice { values: &WORKLOAD_NAMES, labels: &WORKLOAD_LABELS, traits: &[] },
        unit: "",
        live: false,
        about: "DBT2 (TPC-C-like mix through mysqld, built in), a shipped workload spec by name (`hotrow workloads`), or a spec object",
    },
    int("replicas", "replicas", 1, 4, "", false, "replicas of every partition; node groups = dataNodes / replicas"),
    int("dataNodes", "data nodes", 1, 48, "", false, "data nodes, a multiple of replicas"),
    int("ldmThreads", "LDM threads per node", 1, 32, "", false, "LDM threads per data node (1 with tcThreads 0 is NDB 6.3's ndbd)"),
    int("tcThreads", "TC threads per node", 0, 32, "", false, "TC threads per data node; 0 runs TC work on the LDM threads"),
    int("apiNodes", "API nodes", 1, 256, "", false, "API nodes: mysqld processes or NDB API programs"),
    int("apiCores", "cores per API node", 1, 256, "", false, "CPU cores of each API node"),
    int("clientsPerApiNode", "clients per API node", 1, 4096, "", true, "client threads per API node, each a closed loop, or with open arrivals a connection taking requests (at most 65536 in all)"),
    int("thinkTimeUs", "think time", 0, 60_000_000, "us", true, "pause between a client's transactions"),
    int("arrivalRatePerApiNode", "offered load per API node", 0, 10_000_000, "1/s", true, "open arrivals: transactions per second offered to each API node, each taking a free client thread or waiting for one (0 = closed loops with think time)"),
    real("arrivalCv", "arrival spread", 0.0, 4.0, "CV", "coefficient of variation of the gaps between open arrivals: 1 = Poisson, 0 = evenly spaced"),
    int("cacheSize", "cache size", 1, 1_000_000, "ids", true, "ids per fetch of a cached range, by a refill or a service request (the first fetch's size when cacheGrowth > 1)"),
    int("cacheGrowth", "cache growth", 1, 1_000, "x", true, "each fetch multiplies the next range's size by this, up to cacheSizeMax (1 = fixed)"),
    int("cacheSizeMax", "max cache size", 1, 1_000_000, "ids", true, "largest range a growing cache fetches (at least cacheSize)"),
    choice("idCacheScope", "id cache scope", (IdCacheScope::NAMES, IdCacheScope::LABELS), "who owns a cached range: the API node behind a mutex (mysqld's table share) or each client (an NDB API Ndb object, a session); default apiNode for SQL workloads, client for the NDB API's"),
    Field {
        kind: Kind::Choice { values: Allocator::NAMES, labels: Allocator::LABELS, traits: Allocator::TRAITS },
        ..choice("allocator", "id allocator", (&[], &[]), "where the ids of tables that take them come from (a hidden key, an AUTO_INCREMENT column): the id strategy; each choice's label says how it works")
    },
    int("timestampTickUs", "timestamp tick", 10, 1_000_000, "us", false, "timestamp ids: length of a clock tick (Snowflake 1000, CockroachDB 10)"),
    int("timestampSequenceBits", "timestamp sequence bits", 1, 22, "bits", false, "timestamp ids: per-tick sequence bits; an API node issues at most 2^bits ids per tick"),
    flag("hintedRefill", "refill hint", true, "the refill starts with a hint: TC on the counter row's primary"),
    flag("hintedTransactions", "transaction hint", true, "user transactions start with a hint: TC on their first row's primary"),
    flag("primaryKey", "primary key", false, "the inserted table has a primary key (no hidden key, no allocator)"),
    choice("partitioning", "partitioning", (Partitioning::NAMES, Partitioning::LABELS), "how the inserted table's rows are placed: by a hash of the key (NDB) or by key range (TiKV, CockroachDB, Spanner)"),
    int("rangeRows", "rows per range", 1, 1_000_000_000, "rows", false, "range partitioning: rows after which a range is cut in two; the new range goes to the next node group"),
    choice("keyLayout", "key layout", (KeyLayout::NAMES, KeyLayout::LABELS), "how an id becomes a key: as is, with hash bits on top (TiDB AUTO_RANDOM), or bit-reversed (Spanner)"),
    int("shardBits", "shard bits", 1, 15, "bits", false, "shardBits layout: hash bits at the top of the key (spread over 2^bits ranges)"),
    int("warehouses", "warehouses", 1, 100_000, "", false, "DBT2 warehouses; each client has a home warehouse"),
    int("lockWaitTimeoutMs", "lock wait timeout", 1, 3_600_000, "ms", true, "a transaction waiting this long for a row lock is aborted and retried (NDB TransactionDeadlockDetectionTimeout); checked as each metrics window closes"),
    int("durationMs", "duration", 1, 86_400_000, "ms", true, "measured simulated time after warm-up (at most, with a precision; after a detected warm-up the run still ends at warmupMs + durationMs)"),
    int("warmupMs", "warm-up", 0, 3_600_000, "ms", false, "simulated warm-up not counted in the summary"),
    int("windowMs", "window", 1, 60_000, "ms", false, "width of one metrics window"),
    choice("warmup", "warm-up", (&["fixed", "auto"], &["fixed (warmupMs)", "detected (MSER-5)"]), "fixed: measure after warmupMs; auto: at least warmupMs, and MSER-5 over the precision metric's windows finds where the transient ended (the summary's warmup says where)"),
    Field {
        name: "precision",
        label: "precision",
        kind: Kind::Number { min: 0.0, max: 0.5 },
        unit: "",
        live: false,
        about: "stop once the 95% interval of precisionMetric is within this fraction of it (after 10 measured windows with uncorrelated batch means; under warmup auto, once the cut is in the first fifth), durationMs at most; 0: run it all",
    },
    choice("precisionMetric", "precision metric", (PRECISION_METRICS, PRECISION_LABELS), "the figure whose interval a precision stop reads; headline: the run's own (TPM for DBT2, inserts/s if it only inserts, else transactions/s; transactions/s under warmup auto)"),
    choice("engine", "engine", (Engine::NAMES, Engine::LABELS), "the database engine: NDB's cluster, one PostgreSQL or InnoDB server (dataNodes, replicas and ldmThreads 1, tcThreads 0; its CPU is server.cores), or Raft ranges (each node server.cores)"),
    int("server.cores", "server cores", 1, 1_024, "", false, "CPU cores of a server (postgres, innodb: the server; raft: each node), shared by its threads"),
    int("server.flushUs", "log flush", 0, 1_000_000, "us", true, "one durable flush of a server's log (raft: each node's); a commit or append waits for the flush covering it, and those arriving during a flush share the next"),
    int("server.recheckNs", "woken waiter CPU", 0, 10_000_000, "ns", true, "postgres: CPU a woken waiter spends re-checking a released row (every waiter wakes at each hand-off; one wins, the others queue again)"),
    int("server.wakeUs", "waiter wake-up", 0, 1_000_000, "us", true, "one-server engines: how long a woken waiter takes to run again (its semaphore and the scheduler) before it queues for a core"),
    int("server.grantNs", "hand-over CPU per waiter", 0, 10_000_000, "ns", true, "innodb: CPU a row's release spends per waiter left in its queue (the pass that grants the next)"),
    int("server.deadlockNs", "deadlock search CPU", 0, 10_000_000, "ns", true, "innodb: CPU a new wait's deadlock search spends per transaction it visits"),
    Field {
        name: "server.deadlockSearch",
        label: "deadlock search",
        kind: Kind::Choice { values: DeadlockSearch::NAMES, labels: DeadlockSearch::LABELS, traits: &[] },
        unit: "",
        live: true,
        about: "innodb: how a new lock wait searches for a deadlock: holder to holder (MariaDB), the whole queue with past 200 a deadlock (MySQL 5.7), or not (a deadlock ends at lockWaitTimeoutMs)",
    },
    Field {
        name: "server.lockGrant",
        label: "lock grant order",
        kind: Kind::Choice { values: LockGrant::NAMES, labels: LockGrant::LABELS, traits: &[] },
        unit: "",
        live: true,
        about: "innodb: who gets a released row: the first waiter (FIFO) or the one blocking most others (CATS, MySQL 8.0)",
    },
    int("server.autoincLockMode", "AUTO-INC lock mode", 0, 2, "", false, "innodb: innodb_autoinc_lock_mode; 0: an INSERT holds its table's AUTO-INC lock to the statement's end; 1, 2: a light mutex"),
    int("server.pushDelayUs", "push delay", 0, 10_000_000, "us", true, "raft: a waiter that has waited this long pushes the holder, then learns of its release from the holder's record"),
    int("server.pushNs", "push CPU", 0, 10_000_000, "ns", true, "raft: CPU a push and its answer cost the leaseholder"),
    int("network.latencyUs", "network latency", 0, 100_000, "us", true, "mean one-way latency between two hosts (of a lone message: on a busy link a message may wait for the one before it)"),
    real(
        "network.latencyCv",
        "network delay spread",
        0.0,
        1.0,
        "CV",
        "coefficient of variation of a message's one-way delay: a floor of latencyUs x (1 - CV) plus an exponential tail; 0 = every message takes exactly latencyUs",
    ),
    cpu("cpu.tcOpNs", "TC op CPU", "TC: one operation of a TCKEYREQ"),
    cpu("cpu.tcReplyNs", "TC reply CPU", "TC: one reply (LQHKEYCONF, COMMITTED, COMPLETED)"),
    cpu("cpu.tcCommitNs", "TC commit CPU", "TC: starting a commit"),
    cpu("cpu.lqhReadNs", "LQH read CPU", "LQH: a primary-key read"),
    cpu("cpu.lqhWriteNs", "LQH write CPU", "LQH: a write at one replica, with its lock, UNDO and REDO"),
    cpu("cpu.lqhCommitNs", "LQH commit CPU", "LQH: the COMMIT of one operation at one replica"),
    cpu("cpu.lqhCompleteNs", "LQH complete CPU", "LQH: the COMPLETE of one operation at one backup"),
    cpu("cpu.apiStatementNs", "API statement CPU", "API: one SQL statement in mysqld (DBT2)"),
    cpu("cpu.apiExecuteNs", "API execute CPU", "API: one NDB API execute() (NDB API inserts and refills)"),
    cpu("cpu.apiOpNs", "API op CPU", "API: one operation defined within a round"),
    cpu("cpu.apiReplyNs", "API reply CPU", "API: receiving one confirmation"),
    cpu("cpu.remoteSignalNs", "remote signal CPU", "data node: sending and receiving a signal that crosses hosts (local signals do not pay it)"),
    cpu("cpu.allocatorRequestNs", "allocator request CPU", "central allocator service: serving one id request"),
    real("cpu.scale", "CPU scale", 0.01, 100.0, "x", "one multiplier on every CPU cost (the cpu.*Ns fields; 0.5: cores twice as fast)"),
    real("cpu.insertScale", "insert cost", 0.05, 10.0, "x", "an inserted row's TC work and write, this times an update's"),
    real(
        "cpu.serviceCv",
        "service time spread",
        0.0,
        4.0,
        "CV",
        "coefficient of variation of every service time: 0 = each takes exactly its cost, 1 = exponential (a gamma distribution with the cost as its mean)",
    ),
    Field {
        name: "faults",
        label: "faults",
        kind: Kind::Faults,
        unit: "",
        live: false,
        about: "scheduled faults (at most 64): dataNodeFailure, apiNodeRestart, networkDelay, allocatorFailure",
    },
];

/// Most faults a config may schedule.
pub(crate) const MAX_FAULTS: usize = 64;

/// The field named `name`.
/// The largest value an integer field allows (the relief a what-if assumes).
pub(crate) fn max_of(name: &str) -> u64 {
    match field(name).map(|f| &f.kind) {
        Some(Kind::Int { max, .. }) => *max,
        _ => panic!("{name} is not an integer field"),
    }
}

pub fn field(name: &str) -> Option<&'static Field> {
    FIELDS.iter().find(|f| f.name == name)
}

/// Top-level names a running simulation takes: a nested field's object is live when all
/// its fields are (`network`, `cpu`).
pub fn live_top_level() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for f in FIELDS {
        let top = f.name.split('.').next().expect("a name");
        let all_live = FIELDS.iter().filter(|g| g.name.split('.').next() == Some(top)).all(|g| g.live);
        if all_live && !out.contains(&top) {
            out.push(top);
        }
    }
    out
}

/// The first field that is not live and differs between two serialised configs.
pub(crate) fn first_changed_fixed(old: &Value, new: &Value) -> Option<&'static str> {
    FIELDS.iter().find(|f| !f.live && lookup(old, f.name) != lookup(new, f.name)).map(|f| f.name)
}

/// Checks every integer field of a merged config against its range.
pub(super) fn check_ranges(merged: &Value) -> Result<(), ConfigError> {
    for f in FIELDS {
        match f.kind {
            Kind::Int { min, max } => {
                let v = lookup(merged, f.name).and_then(Value::as_u64).expect("a deserialised config has every field");
                if !(min..=max).contains(&v) {
                    return Err(ConfigError::new(f.name, v, format!("must be an integer from {min} to {max}")));
                }
            }
            Kind::Number { min, max } => {
                let v = lookup(merged, f.name).and_then(Value::as_f64).expect("a deserialised config has every field");
                if !(min..=max).contains(&v) {
                    return Err(ConfigError::new(f.name, v, format!("must be a number from {} to {}", Shortest(min), Shortest(max))));
                }
            }
            // The enums refuse what they do not name as they deserialise; a string field
            // (precisionMetric, warmup) is held to its list here.
            Kind::Choice { values, .. } => {
                if let Some(v) = lookup(merged, f.name).filter(|v| v.as_str().is_some_and(|s| !values.contains(&s))) {
                    return Err(ConfigError::new(f.name, v, format!("must be one of {}", values.join(", "))));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The table with each field's default (the `bug39267` preset), for `hotrow fields --json`
/// and the npm package.
pub fn describe() -> Value {
    let defaults = serde_json::to_value(Config::default()).expect("Config serialises");
    // Written by hand, not by a derive: serde's would compile Field's and Kind's
    // serializers into the WebAssembly module for this one table.
    let text = |s: &&str| Value::from(*s);
    let list = FIELDS
        .iter()
        .map(|f| {
            let mut kind = Map::new();
            let ty = match f.kind {
                Kind::Int { min, max } => {
                    kind.insert("min".into(), min.into());
                    kind.insert("max".into(), max.into());
                    "int"
                }
                Kind::Number { min, max } => {
                    kind.insert("min".into(), min.into());
                    kind.insert("max".into(), max.into());
                    "number"
                }
                Kind::Bool => "bool",
                Kind::Choice { values, labels, traits } => {
                    kind.insert("values".into(), Value::Array(values.iter().map(text).collect()));
                    kind.insert("labels".into(), Value::Array(labels.iter().map(text).collect()));
                    if !traits.is_empty() {
                        kind.insert("traits".into(), serde_json::to_value(traits).expect("traits serialise"));
                    }
                    "choice"
                }
                Kind::Faults => {
                    kind.insert("kinds".into(), Value::Array(super::fault::FaultKind::NAMES.iter().map(text).collect()));
                    "faults"
                }
            };
            kind.insert("type".into(), ty.into());
            let mut m = Map::new();
            m.insert("name".into(), f.name.into());
            m.insert("label".into(), f.label.into());
            m.insert("kind".into(), Value::Object(kind));
            m.insert("unit".into(), f.unit.into());
            m.insert("live".into(), f.live.into());
            m.insert("about".into(), f.about.into());
            m.insert("default".into(), lookup(&defaults, f.name).cloned().unwrap_or(Value::Null));
            Value::Object(m)
        })
        .collect();
    Value::Array(list)
}

#[cfg(test)]
mod tests;

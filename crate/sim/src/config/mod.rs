//! The configuration: one documented, validated struct shared by the CLI, the npm API
//! and the playground URL.
//!
//! Every field is camelCase in JSON and carries its unit in its name (`thinkTimeUs`,
//! `lqhWriteNs`). A configuration is built in three layers — the defaults of a preset
//! (`bug39267` when none is named), then the user's fields — and validated once. After
//! [`Config::from_json`] returns `Ok`, the simulation cannot fail on its input.
//!
//! The defaults model 2008 hardware: Gigabit Ethernet and NDB 6.3's single-threaded
//! `ndbd`. Each default says why it has its value; docs/MODEL.md §8 collects them.

use serde::Serialize;
use serde_json::Value;

mod cpu;
mod engine;
mod fault;
pub(crate) mod fault_table;
pub mod fields;
mod ids;
mod json;
mod presets;
mod read;
mod workload;

pub use crate::error::ConfigError;
pub use crate::keys::{KeyLayout, Partitioning};
pub use crate::read::lookup;
pub use cpu::CpuConfig;
pub use engine::{DeadlockSearch, Engine, LockGrant, ServerConfig};
pub use fault::Fault;
pub use ids::{Allocator, IdCacheScope, Traits};
pub use json::set_dotted;
pub use presets::{preset, PRESETS};
pub(crate) use workload::WORKLOAD_LABELS;
pub use workload::{Workload, WORKLOAD_NAMES};

/// Network between hosts.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NetworkConfig {
    /// One-way latency of a message between two different hosts, in microseconds
    /// (0..=100000). A message between threads of one host pays none. 2008 default 70:
    /// Gigabit Ethernet with interrupt coalescing and the kernel TCP stack gave 100–150 us
    /// ping round trips, and ndbd 6.3 held outgoing signals until the end of its
    /// job-buffer loop before sending them. The calibrated free parameter of the network.
    pub latency_us: u64,
    /// Coefficient of variation of a message's one-way delay (0..=1): a floor of
    /// `latencyUs * (1 - cv)` and an exponential tail of mean `latencyUs * cv`; 0 = every
    /// message takes exactly `latencyUs`. Set from published latency spreads
    /// (docs/MODEL.md §2).
    pub latency_cv: f64,
}

/// A whole simulation configuration. See the module docs for how it is built.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Config {
    /// Seed of every pseudo-random choice (0..=2^53-1, so that JavaScript numbers hold it).
    pub seed: u64,
    /// `"dbt2"`, a shipped spec's name (`"ndbapi-insert"`, `"sql-insert"`, `"tpcb"`,
    /// ...) or a workload spec object: see [`crate::spec`].
    pub workload: Workload,
    /// Data nodes (1..=48, a multiple of `replicas`).
    pub data_nodes: u32,
    /// Replicas of every partition (1..=4). Node groups = dataNodes / replicas.
    pub replicas: u32,
    /// LDM threads per data node (1..=32): each owns partitions and runs LQH. 1 with
    /// `tcThreads` 0 is NDB 6.3's single-threaded ndbd.
    pub ldm_threads: u32,
    /// TC threads per data node (0..=32); 0 runs TC work on the LDM threads.
    pub tc_threads: u32,
    /// API nodes: mysqld processes or NDB API programs (1..=256).
    pub api_nodes: u32,
    /// CPU cores of each API node (1..=256).
    pub api_cores: u32,
    /// Client threads per API node, each a closed loop (1..=4096).
    pub clients_per_api_node: u32,
    /// Think time between a client's transactions, in microseconds (0..=60000000).
    pub think_time_us: u64,
    /// Open arrivals: transactions per second offered to each API node (0..=10000000; 0 =
    /// closed loops). Each arrival takes a free client thread (a connection) or waits in
    /// its API node's queue for one; think time must then be 0.
    pub arrival_rate_per_api_node: u64,
    /// Coefficient of variation of the gaps between arrivals (0..=4): 1 = Poisson
    /// (exponential gaps), 0 = evenly spaced, else gamma-distributed.
    pub arrival_cv: f64,
    /// Ids per fetch of a cached range, by a refill or a service request (1..=1000000):
    /// the first fetch's size, and every fetch's when `cacheGrowth` is 1.
    pub cache_size: u64,
    /// Each fetch multiplies the next one's size by this (1..=1000; 1 = fixed size), up
    /// to `cacheSizeMax`: the adaptive cache of HP NonStop SQL/MX (x10 up to 10000).
    pub cache_growth: u64,
    /// Largest range a growing cache fetches (1..=1000000, at least `cacheSize`).
    pub cache_size_max: u64,
    /// Who owns a cached range: `"apiNode"` (mysqld's table share, behind its mutex) or
    /// `"client"` (the NDB API's `Ndb` object, one per thread). Unless set, `"apiNode"`
    /// for `dbt2` and `sql-insert`, `"client"` for `ndbapi-insert`.
    pub id_cache_scope: IdCacheScope,
    /// `"counterRow"`, `"centralService"` or `"timestamp"`: see [`Allocator`].
    pub allocator: Allocator,
    /// `timestamp` ids: length of one clock tick, in microseconds (10..=1000000).
    /// Snowflake ticks in milliseconds (1000), CockroachDB's `unique_rowid` in 10 us.
    pub timestamp_tick_us: u64,
    /// `timestamp` ids: bits of the per-tick sequence (1..=22): an API node issues at most
    /// 2^bits ids per tick. Snowflake has 12 (4096 per millisecond).
    pub timestamp_sequence_bits: u64,
    /// Whether the refill transaction starts with a hint (TC on the counter row's primary).
    pub hinted_refill: bool,
    /// Whether user transactions start with a hint (TC on the first row's primary).
    pub hinted_transactions: bool,
    /// Whether the inserted table (NDB API table, or DBT2's HISTORY) has a primary key.
    /// Without one, every insert takes a hidden key from the id allocator.
    pub primary_key: bool,
    /// `"hash"` (NDB) or `"range"`: how the inserted table's rows are placed.
    pub partitioning: Partitioning,
    /// `range` partitioning: rows after which a range is cut in two (1..=1000000000).
    /// Default 100000: TiKV splits a region at 96 MiB, about 100k rows of 1 KiB.
    pub range_rows: u64,
    /// `"sequential"`, `"shardBits"` or `"bitReversed"`: how an id becomes a key.
    pub key_layout: KeyLayout,
    /// `shardBits` layout: hash bits at the top of the key (1..=15; TiDB's default 5).
    pub shard_bits: u64,
    /// DBT2 warehouses (1..=100000); each client has a home warehouse.
    pub warehouses: u32,
    /// A transaction waiting this long for a row lock is aborted and retried (1..=3600000):
    /// NDB's `TransactionDeadlockDetectionTimeout` (default 1200), which is how NDB ends
    /// deadlocks. Checked when a metrics window closes, as NDB checks every
    /// `TimeBetweenInactiveTransactionAbortCheck`.
    pub lock_wait_timeout_ms: u64,
    /// Measured simulated time after warm-up, in milliseconds (1..=86400000).
    pub duration_ms: u64,
    /// Simulated warm-up not counted in the summary, in milliseconds (0..=3600000).
    pub warmup_ms: u64,
    /// Width of one metrics window, in milliseconds (1..=60000).
    pub window_ms: u64,
    /// `fixed` (measure after `warmup_ms`) or `auto` (`warmup_ms` is the least; MSER-5 finds
    /// where the transient ended: `sim/warmup.rs`).
    pub warmup: String,
    /// Stop once the 95% interval of `precision_metric` is within this fraction of it
    /// (0..=0.5; 0: run the whole duration). See `sim/stepping.rs`.
    pub precision: f64,
    /// The metric whose interval decides the stop, and that a detected warm-up watches (one
    /// of `fields::PRECISION_METRICS`; `headline` is the run's headline figure,
    /// `facts::precision_metric`).
    pub precision_metric: String,
    /// `"ndb"` (the default: the cluster of every field above) or `"postgres"` (one
    /// server): see [`Engine`].
    pub engine: Engine,
    /// The one-server engines' machine and costs (unused under `ndb`): see [`ServerConfig`].
    pub server: ServerConfig,
    pub network: NetworkConfig,
    pub cpu: CpuConfig,
    /// Scheduled faults (at most 64), in any order. See [`Fault`].
    pub faults: Vec<Fault>,
}

impl Default for Config {
    /// The 2008 cluster of Bug #39267, before the fix.
    fn default() -> Config {
        Config {
            seed: 1,
            workload: Workload::Dbt2,
            data_nodes: 8,
            replicas: 2,
            ldm_threads: 1,
            tc_threads: 0,
            api_nodes: 8,
            // A 2008 mysqld host: two quad-core sockets.
            api_cores: 8,
            clients_per_api_node: 16,
            think_time_us: 0,
            arrival_rate_per_api_node: 0,
            arrival_cv: 1.0,
            cache_size: 1,
            cache_growth: 1,
            cache_size_max: 1_000_000,
            id_cache_scope: IdCacheScope::ApiNode,
            allocator: Allocator::CounterRow,
            timestamp_tick_us: 1_000,
            timestamp_sequence_bits: 12,
            hinted_refill: false,
            hinted_transactions: true,
            primary_key: false,
            partitioning: Partitioning::Hash,
            range_rows: 100_000,
            key_layout: KeyLayout::Sequential,
            shard_bits: 5,
            warehouses: 64,
            lock_wait_timeout_ms: 1_200,
            duration_ms: 10_000,
            warmup_ms: 2_000,
            window_ms: 100,
            warmup: "fixed".into(),
            precision: 0.0,
            precision_metric: "headline".into(),
            engine: Engine::Ndb,
            server: ServerConfig::default(),
            network: NetworkConfig { latency_us: 47, latency_cv: 0.75 },
            cpu: CpuConfig::ndbd_2008(),
            faults: Vec::new(),
        }
    }
}

impl Config {
    /// The cluster's numbering for this config: hosts, node groups, partitions, stations.
    /// (Here, not in topology.rs, so that the numbering does not depend on the config.)
    pub fn topology(&self) -> crate::topology::Topology {
        let mut topo = crate::topology::Topology::of(self.data_nodes, self.replicas, self.ldm_threads, self.tc_threads, self.api_nodes);
        if self.engine != Engine::Ndb {
            topo.data_cores = self.server.cores;
        }
        topo
    }
}

impl Config {
    pub fn clients(&self) -> u32 {
        self.api_nodes * self.clients_per_api_node
    }

    /// Total simulated time: warm-up plus measured duration, in nanoseconds.
    pub fn end_ns(&self) -> u64 {
        crate::time::from_ms(self.warmup_ms + self.duration_ms)
    }

    /// Checks every field against the field table's ranges, then what relates fields:
    /// `merged` is the JSON this config was deserialised from.
    fn validate(&self, merged: &Value) -> Result<(), ConfigError> {
        fields::check_ranges(merged)?;
        // A figure that is 0 throughout has no precision to stop on and no transient to see.
        let zero = match self.precision_metric.as_str() {
            "tpm" => self.workload != Workload::Dbt2,
            "offeredPerSecond" | "waitingMean" => self.arrival_rate_per_api_node == 0,
            _ => false,
        };
        if zero && (self.precision > 0.0 || self.warmup == "auto") {
            return Err(ConfigError::new(
                "precisionMetric",
                Value::from(self.precision_metric.as_str()),
                "is 0 in this run (TPM is DBT2's; offeredPerSecond and waitingMean need arrivalRatePerApiNode > 0): name a figure it has, e.g. transactionsPerSecond",
            ));
        }
        if !self.data_nodes.is_multiple_of(self.replicas) {
            return Err(ConfigError::new(
                "dataNodes",
                self.data_nodes,
                format!("must be a multiple of `replicas` ({}), between 1 and 48", self.replicas),
            ));
        }
        if self.clients() > 65_536 {
            return Err(ConfigError::new(
                "clientsPerApiNode",
                self.clients_per_api_node,
                format!("apiNodes x clientsPerApiNode must be at most 65536 (is {})", self.clients()),
            ));
        }
        if self.cache_size_max < self.cache_size {
            return Err(ConfigError::new(
                "cacheSizeMax",
                self.cache_size_max,
                format!("must be at least `cacheSize` ({})", self.cache_size),
            ));
        }
        if self.arrival_rate_per_api_node > 0 && self.think_time_us > 0 {
            return Err(ConfigError::new(
                "thinkTimeUs",
                self.think_time_us,
                format!(
                    "must be 0 when arrivals are open (arrivalRatePerApiNode is {}): a client thread takes the next waiting request as soon as it is free",
                    self.arrival_rate_per_api_node
                ),
            ));
        }
        if self.think_time_us == 0 && self.network.latency_us == 0 && !self.cpu.a_round_takes_time() {
            return Err(ConfigError::new(
                "thinkTimeUs",
                0,
                "must be above 0 when network.latencyUs is 0 and an API round costs no CPU (cpu.apiExecuteNs, cpu.apiStatementNs and cpu.apiOpNs times cpu.scale): a transaction would take no simulated time and the run never advance",
            ));
        }
        self.check_one_server()?;
        if self.faults.len() > fields::MAX_FAULTS {
            return Err(ConfigError::new("faults", format!("{} faults", self.faults.len()), "at most 64 faults"));
        }
        for (i, f) in self.faults.iter().enumerate() {
            f.validate(self, &format!("faults[{i}]"))?;
        }
        self.check_node_groups_survive()
    }

    /// No node group may lose all its replicas at once (the cluster would shut down, which
    /// hotrow does not model), and a node cannot fail again while it is down.
    fn check_node_groups_survive(&self) -> Result<(), ConfigError> {
        let downs: Vec<(usize, (u32, u64, u64))> =
            self.faults.iter().enumerate().filter_map(|(i, f)| f.downtime().map(|d| (i, d))).collect();
        for (i, (node, start, end)) in &downs {
            let group = node / self.replicas;
            let mut overlapping = 0;
            for (j, (other, s2, e2)) in &downs {
                if j != i && other / self.replicas == group && s2 < end && start < e2 {
                    if other == node {
                        return Err(ConfigError::new(
                            &format!("faults[{i}].atMs"),
                            start,
                            format!("data node {node} is still down from faults[{j}] then"),
                        ));
                    }
                    overlapping += 1;
                }
            }
            if overlapping + 1 >= self.replicas as usize {
                return Err(ConfigError::new(
                    &format!("faults[{i}].dataNode"),
                    node,
                    format!("would leave node group {group} with no live replica; stagger the failures"),
                ));
            }
        }
        Ok(())
    }
}

pub(crate) fn range(field: &str, v: u64, lo: u64, hi: u64) -> Result<(), ConfigError> {
    if (lo..=hi).contains(&v) {
        Ok(())
    } else {
        Err(ConfigError::new(field, v, format!("must be an integer from {lo} to {hi}")))
    }
}

#[cfg(test)]
mod tests {
    use super::json::DBT2_WAREHOUSES_PER_DATA_NODE;
    use super::*;
    use serde_json::json;

    #[test]
    fn every_preset_builds() {
        for (name, _) in PRESETS {
            Config::from_preset(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }

    /// The lab presets show each id strategy: a new one without a preset fails here.
    #[test]
    fn every_id_strategy_has_a_preset() {
        let used: Vec<Allocator> = PRESETS.iter().map(|(name, _)| Config::from_preset(name).unwrap().allocator).collect();
        for name in Allocator::NAMES {
            let a: Allocator = serde_json::from_value(json!(name)).unwrap();
            assert!(used.contains(&a), "no preset runs allocator {name}: add one (config/presets.rs)");
        }
    }

    #[test]
    fn user_fields_override_preset_and_scale_dbt2() {
        let c = Config::from_json(&json!({"preset": "bug39267", "dataNodes": 4, "cacheSize": 7})).unwrap();
        assert_eq!((c.data_nodes, c.cache_size, c.api_nodes), (4, 7, 4));
        assert_eq!(c.warehouses, 4 * DBT2_WAREHOUSES_PER_DATA_NODE);
        let c = Config::from_json(&json!({"dataNodes": 4, "warehouses": 3})).unwrap();
        assert_eq!(c.warehouses, 3);
    }

    #[test]
    fn errors_name_field_value_and_range() {
        let e = Config::from_json(&json!({"dataNodes": 7})).unwrap_err();
        assert_eq!(e.field, "dataNodes");
        assert!(e.to_string().contains("multiple of `replicas`"), "{e}");
        let e = Config::from_json(&json!({"cacheSize": 0})).unwrap_err();
        assert_eq!((e.field.as_str(), e.value.as_str()), ("cacheSize", "0"));
        let e = Config::from_json(&json!({"cpu": {"lqhWriteNs": "fast"}})).unwrap_err();
        assert_eq!(e.field, "cpu.lqhWriteNs");
        assert!(e.allowed.contains("invalid type"), "{e}");
        let e = Config::from_json(&json!({"cacheSise": 10})).unwrap_err();
        assert!(e.allowed.contains("unknown field") && e.allowed.contains("cacheSize"), "{e}");
        let e = Config::from_json(&json!({"preset": "nope"})).unwrap_err();
        assert!(e.allowed.contains("bug39267-fixed"), "{e}");
        let e = Config::from_json(&json!({"cacheSize": -1})).unwrap_err();
        assert_eq!(e.field, "cacheSize");
        let e = Config::from_json(&json!({"cacheSize": 1.5})).unwrap_err();
        assert_eq!(e.field, "cacheSize");
        let e = Config::from_json(&json!([1])).unwrap_err();
        assert_eq!(e.field, "(config)");
    }

    #[test]
    fn effective_config_round_trips() {
        let c = Config::from_preset("modern").unwrap();
        let again = Config::from_json(&serde_json::to_value(&c).unwrap()).unwrap();
        assert_eq!(c, again);
    }
}

//! The configuration: one documented, validated struct shared by the CLI, the npm API
//! and the playground URL.
//!
//! Every field is camelCase in JSON and carries its unit in its name (`thinkTimeUs`,
//! `lqhWriteNs`). A configuration is built in three layers — the defaults of a preset
//! (`bug39267` when none is named), then the user's fields — and validated once. After
//! [`Config::from_json`] returns `Ok`, the simulation cannot fail on its input.
//!
//! The defaults model 2008 hardware: Gigabit Ethernet and NDB 6.3's single-threaded
//! `ndbd`. Each default says why it has its value; the README's calibration section
//! collects them.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt;

/// What the clients do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Workload {
    /// TPC-C-like DBT2 mix through mysqld (SQL statements, one NDB round trip each).
    #[serde(rename = "dbt2")]
    Dbt2,
    /// NDB API programs inserting single rows, each insert one committed transaction.
    #[serde(rename = "ndbapi-insert")]
    NdbapiInsert,
}

/// Network between hosts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NetworkConfig {
    /// One-way latency of a message between two different hosts, in microseconds
    /// (0..=100000). A message between threads of one host pays none. 2008 default 70:
    /// Gigabit Ethernet with interrupt coalescing and the kernel TCP stack gave 100–150 us
    /// ping round trips, and ndbd 6.3 held outgoing signals until the end of its
    /// job-buffer loop before sending them. The calibrated free parameter of the network.
    pub latency_us: u64,
}

/// CPU cost of each kind of work, in nanoseconds of one thread (each 0..=10000000).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CpuConfig {
    /// TC: receiving one operation of a TCKEYREQ, seizing its record and sending LQHKEYREQ.
    pub tc_op_ns: u64,
    /// TC: one reply signal (LQHKEYCONF, COMMITTED or COMPLETED) for one operation.
    pub tc_reply_ns: u64,
    /// TC: starting the commit of a transaction (TC_COMMITREQ or a piggy-backed commit).
    pub tc_commit_ns: u64,
    /// LQH: a primary-key read at the primary replica (no lock under READ COMMITTED).
    pub lqh_read_ns: u64,
    /// LQH: a write (insert, update, delete, or read with exclusive lock) at one replica,
    /// including the lock, the UNDO and REDO records.
    pub lqh_write_ns: u64,
    /// LQH: the COMMIT of one operation at one replica.
    pub lqh_commit_ns: u64,
    /// LQH: the COMPLETE of one operation at one backup replica.
    pub lqh_complete_ns: u64,
    /// API node: one SQL statement in mysqld (parse, optimise, handler calls), DBT2 only.
    pub api_statement_ns: u64,
    /// API node: one NDB API `execute()` (prepare, send, wake-up), NDB API and refills.
    pub api_execute_ns: u64,
    /// API node: one operation defined within a round.
    pub api_op_ns: u64,
    /// API node: receiving one TCKEYCONF / commit confirmation.
    pub api_reply_ns: u64,
}

/// A scheduled fault. In JSON: `{"atMs": 2000, "kind": "dataNodeFailure", "dataNode": 1,
/// "restartAfterMs": 3000}`, `{"atMs": 2000, "kind": "apiNodeRestart", "apiNode": 0}` or
/// `{"atMs": 1000, "kind": "networkDelay", "dataNode": 2, "extraUs": 500, "durationMs": 1000}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase", deny_unknown_fields)]
pub enum Fault {
    /// A data node stops; its node group's other replica takes over as primary,
    /// transactions in flight on it abort (clients retry them), and it rejoins as a backup
    /// `restartAfterMs` later (1..=3600000, default 3000).
    DataNodeFailure {
        at_ms: u64,
        data_node: u32,
        #[serde(default = "default_restart_ms")]
        restart_after_ms: u64,
    },
    /// An API node restarts: its cached id range is lost (gaps, counted as `idsLost`), its
    /// transactions in flight abort, and its clients reconnect after `downMs`
    /// (0..=3600000, default 1000).
    ApiNodeRestart {
        at_ms: u64,
        api_node: u32,
        #[serde(default = "default_down_ms")]
        down_ms: u64,
    },
    /// Messages to and from a data node take `extraUs` (0..=1000000) longer for
    /// `durationMs` (1..=3600000).
    NetworkDelay { at_ms: u64, data_node: u32, extra_us: u64, duration_ms: u64 },
}

fn default_restart_ms() -> u64 {
    3_000
}

fn default_down_ms() -> u64 {
    1_000
}

impl Fault {
    pub fn at_ms(&self) -> u64 {
        match self {
            Fault::DataNodeFailure { at_ms, .. } | Fault::ApiNodeRestart { at_ms, .. } | Fault::NetworkDelay { at_ms, .. } => *at_ms,
        }
    }

    /// The same fault at another time (live injection happens "now").
    pub fn at(mut self, ms: u64) -> Fault {
        match &mut self {
            Fault::DataNodeFailure { at_ms, .. } | Fault::ApiNodeRestart { at_ms, .. } | Fault::NetworkDelay { at_ms, .. } => *at_ms = ms,
        }
        self
    }

    /// Checks the fault against the cluster it will hit; `field` is its path (`faults[2]`).
    pub fn validate(&self, c: &Config, field: &str) -> Result<(), ConfigError> {
        range(&format!("{field}.atMs"), self.at_ms(), 0, 86_400_000 + 3_600_000)?;
        match *self {
            Fault::DataNodeFailure { data_node, restart_after_ms, .. } => {
                range(&format!("{field}.dataNode"), data_node as u64, 0, c.data_nodes as u64 - 1)?;
                range(&format!("{field}.restartAfterMs"), restart_after_ms, 1, 3_600_000)?;
                if c.replicas < 2 {
                    return Err(ConfigError::new(
                        &format!("{field}.kind"),
                        "\"dataNodeFailure\"",
                        "needs replicas >= 2: with one replica a failed node takes its data with it",
                    ));
                }
            }
            Fault::ApiNodeRestart { api_node, down_ms, .. } => {
                range(&format!("{field}.apiNode"), api_node as u64, 0, c.api_nodes as u64 - 1)?;
                range(&format!("{field}.downMs"), down_ms, 0, 3_600_000)?;
            }
            Fault::NetworkDelay { data_node, extra_us, duration_ms, .. } => {
                range(&format!("{field}.dataNode"), data_node as u64, 0, c.data_nodes as u64 - 1)?;
                range(&format!("{field}.extraUs"), extra_us, 0, 1_000_000)?;
                range(&format!("{field}.durationMs"), duration_ms, 1, 3_600_000)?;
            }
        }
        Ok(())
    }

    /// The interval a data-node failure keeps its node down, in ms.
    pub fn downtime(&self) -> Option<(u32, u64, u64)> {
        match *self {
            Fault::DataNodeFailure { at_ms, data_node, restart_after_ms } => Some((data_node, at_ms, at_ms + restart_after_ms)),
            _ => None,
        }
    }
}

/// A whole simulation configuration. See the module docs for how it is built.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Config {
    /// Seed of every pseudo-random choice (0..=2^53-1, so that JavaScript numbers hold it).
    pub seed: u64,
    /// `"dbt2"` or `"ndbapi-insert"`.
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
    /// Hidden-key ids fetched per refill of an API node's range (1..=1000000).
    pub cache_size: u64,
    /// Whether the refill transaction starts with a hint (TC on the counter row's primary).
    pub hinted_refill: bool,
    /// Whether user transactions start with a hint (TC on the first row's primary).
    pub hinted_transactions: bool,
    /// Whether the inserted table (NDB API table, or DBT2's HISTORY) has a primary key.
    /// Without one, every insert takes a hidden key from the id allocator.
    pub primary_key: bool,
    /// DBT2 warehouses (1..=100000); each client has a home warehouse.
    pub warehouses: u32,
    /// Measured simulated time after warm-up, in milliseconds (1..=86400000).
    pub duration_ms: u64,
    /// Simulated warm-up not counted in the summary, in milliseconds (0..=3600000).
    pub warmup_ms: u64,
    /// Width of one metrics window, in milliseconds (1..=60000).
    pub window_ms: u64,
    pub network: NetworkConfig,
    pub cpu: CpuConfig,
    /// Scheduled faults (at most 64), in any order. See [`Fault`].
    pub faults: Vec<Fault>,
}

/// Top-level config fields a running simulation can take (`Simulation::set`); a nested
/// field is live when its top-level object is (`network.latencyUs`, `cpu.lqhWriteNs`). The
/// others shape the cluster or the data and need a new simulation. The playground asks the
/// package for this list rather than keeping its own.
pub const LIVE_FIELDS: [&str; 8] =
    ["cacheSize", "hintedRefill", "hintedTransactions", "clientsPerApiNode", "thinkTimeUs", "durationMs", "network", "cpu"];

/// Names of the presets, in the order `hotrow presets` lists them.
pub const PRESETS: [(&str, &str); 5] = [
    ("bug39267", "DBT2 on 8 data nodes, hidden-key cache 1, refill without hint: the 2008 bug"),
    ("bug39267-fixed", "the same with cache 1000, as in MySQL Cluster 6.3.18"),
    ("ndbapi-pk", "NDB API single-row inserts into a table with a primary key"),
    ("ndbapi-hidden-pk", "the same table without a primary key (hidden key), cache 1"),
    ("modern", "a present-day cluster: 4 LDM + 2 TC threads, 20 us network, cache 1000, hinted"),
];

/// DBT2 sizes a run to its cluster: these fields follow `dataNodes` unless set explicitly.
const DBT2_WAREHOUSES_PER_DATA_NODE: u32 = 8;
const DBT2_API_NODES_PER_DATA_NODE: u32 = 1;

/// A configuration that cannot be used, naming the field, the value and what is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// Dotted camelCase path of the field (`cacheSize`, `cpu.lqhWriteNs`, `preset`).
    pub field: String,
    /// The value given, as JSON text (`null` when missing).
    pub value: String,
    /// What the field accepts.
    pub allowed: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid config: `{}` = {}: {}", self.field, self.value, self.allowed)
    }
}

impl std::error::Error for ConfigError {}

impl ConfigError {
    fn new(field: &str, value: impl fmt::Display, allowed: impl Into<String>) -> ConfigError {
        // An empty name (`{"": 1}`) is named so a person can see what is wrong.
        let field = if field.is_empty() || field.ends_with('.') { format!("{field}(empty name)") } else { field.to_string() };
        ConfigError { field, value: value.to_string(), allowed: allowed.into() }
    }
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
            cache_size: 1,
            hinted_refill: false,
            hinted_transactions: true,
            primary_key: false,
            warehouses: 64,
            duration_ms: 10_000,
            warmup_ms: 2_000,
            window_ms: 100,
            network: NetworkConfig { latency_us: 70 },
            cpu: CpuConfig::ndbd_2008(),
            faults: Vec::new(),
        }
    }
}

impl CpuConfig {
    /// Costs on a 2008 server core (about 2.3 GHz Xeon) running ndbd 6.3 and mysqld 5.1.
    ///
    /// In ndbd 6.3 one thread did everything: the TC and LQH logic *and* the transporter's
    /// TCP send and receive system calls, which on 2008 kernels and NICs cost several
    /// microseconds per signal batch. So a message's cost here is its signal work plus its
    /// share of that I/O. The resulting rates — about 47k unbatched primary-key reads per
    /// second per data node (TC 7.5 + LQH 11 + reply 2.8 us), and 28k NDB API single-row
    /// inserts per second on a 2-node cluster (measured with the `ndbapi-pk` preset) — are
    /// derived from the calibration below, not taken from a published NDB 6.3 measurement;
    /// they are of the order a single-threaded 2008 data node could sustain for unbatched
    /// operations. These seven data-node costs keep
    /// their ratios (a write about 1.5 reads; commit and complete a third of a write) and
    /// share one scale, the calibrated free parameter that the README's calibration section
    /// explains. mysqld's cost per statement is from the order of 25k simple statements/s
    /// per core of 2008 mysqld.
    pub fn ndbd_2008() -> CpuConfig {
        CpuConfig {
            tc_op_ns: 7_500,
            tc_reply_ns: 2_800,
            tc_commit_ns: 5_500,
            lqh_read_ns: 11_000,
            lqh_write_ns: 16_500,
            lqh_commit_ns: 5_500,
            lqh_complete_ns: 3_700,
            api_statement_ns: 40_000,
            api_execute_ns: 8_000,
            api_op_ns: 2_000,
            api_reply_ns: 4_000,
        }
    }

    /// Every cost divided by `factor` (present-day cores and a leaner code path).
    fn faster(&self, factor: u64) -> CpuConfig {
        let d = |v: u64| v / factor;
        CpuConfig {
            tc_op_ns: d(self.tc_op_ns),
            tc_reply_ns: d(self.tc_reply_ns),
            tc_commit_ns: d(self.tc_commit_ns),
            lqh_read_ns: d(self.lqh_read_ns),
            lqh_write_ns: d(self.lqh_write_ns),
            lqh_commit_ns: d(self.lqh_commit_ns),
            lqh_complete_ns: d(self.lqh_complete_ns),
            api_statement_ns: d(self.api_statement_ns),
            api_execute_ns: d(self.api_execute_ns),
            api_op_ns: d(self.api_op_ns),
            api_reply_ns: d(self.api_reply_ns),
        }
    }
}

/// The fields a preset sets on top of [`Config::default`], as JSON.
pub fn preset(name: &str) -> Option<Value> {
    let base = Config::default();
    let v = match name {
        "bug39267" => serde_json::json!({}),
        "bug39267-fixed" => serde_json::json!({ "cacheSize": 1000 }),
        "ndbapi-pk" | "ndbapi-hidden-pk" => serde_json::json!({
            "workload": "ndbapi-insert",
            "dataNodes": 2,
            "apiNodes": 1,
            "clientsPerApiNode": 32,
            "primaryKey": name == "ndbapi-pk",
            "cacheSize": 1,
            "durationMs": 5000,
            "warmupMs": 1000,
        }),
        "modern" => serde_json::json!({
            "ldmThreads": 4,
            "tcThreads": 2,
            "apiCores": 32,
            "clientsPerApiNode": 64,
            "cacheSize": 1000,
            "hintedRefill": true,
            "network": { "latencyUs": 20 },
            "cpu": serde_json::to_value(base.cpu.faster(3)).expect("CpuConfig serialises"),
        }),
        _ => return None,
    };
    Some(v)
}

impl Config {
    /// Builds a validated configuration from JSON: an object with an optional `preset`
    /// name and any fields of [`Config`] (nested objects may be partial).
    pub fn from_json(input: &Value) -> Result<Config, ConfigError> {
        let Value::Object(user) = input else {
            return Err(ConfigError::new("(config)", input, "must be a JSON object"));
        };
        let mut user = user.clone();
        let preset_name = match user.remove("preset") {
            None | Some(Value::Null) => "bug39267".to_string(),
            Some(Value::String(s)) => s,
            Some(other) => return Err(ConfigError::new("preset", other, preset_list())),
        };
        let Some(preset_fields) = preset(&preset_name) else {
            return Err(ConfigError::new("preset", Value::String(preset_name), preset_list()));
        };
        let mut merged = serde_json::to_value(Config::default()).expect("Config serialises");
        merge(&mut merged, &preset_fields, "")?;
        merge(&mut merged, &Value::Object(user.clone()), "")?;
        scale_dbt2(&mut merged, &user);
        let config: Config = serde_path_to_error::deserialize(&merged).map_err(|e| {
            let field = e.path().to_string();
            let value = lookup(&merged, &field).map_or("null".to_string(), |v| v.to_string());
            ConfigError { field, value, allowed: type_message(e.inner()) }
        })?;
        config.validate()?;
        Ok(config)
    }

    /// Builds a configuration from a preset name and `key=value` overrides.
    pub fn from_preset(name: &str) -> Result<Config, ConfigError> {
        Config::from_json(&serde_json::json!({ "preset": name }))
    }

    /// Node groups: dataNodes / replicas.
    pub fn node_groups(&self) -> u32 {
        self.data_nodes / self.replicas
    }

    /// Execution threads per data node.
    pub fn threads_per_node(&self) -> u32 {
        self.ldm_threads + self.tc_threads
    }

    /// Partitions of every table: one per LDM thread of every data node, as NDB does.
    pub fn partitions(&self) -> u32 {
        self.data_nodes * self.ldm_threads
    }

    pub fn clients(&self) -> u32 {
        self.api_nodes * self.clients_per_api_node
    }

    /// Total simulated time: warm-up plus measured duration, in nanoseconds.
    pub fn end_ns(&self) -> u64 {
        (self.warmup_ms + self.duration_ms) * 1_000_000
    }

    fn validate(&self) -> Result<(), ConfigError> {
        range("seed", self.seed, 0, (1 << 53) - 1)?;
        range("replicas", self.replicas as u64, 1, 4)?;
        range("dataNodes", self.data_nodes as u64, 1, 48)?;
        if self.data_nodes % self.replicas != 0 {
            return Err(ConfigError::new(
                "dataNodes",
                self.data_nodes,
                format!("must be a multiple of `replicas` ({}), between 1 and 48", self.replicas),
            ));
        }
        range("ldmThreads", self.ldm_threads as u64, 1, 32)?;
        range("tcThreads", self.tc_threads as u64, 0, 32)?;
        range("apiNodes", self.api_nodes as u64, 1, 256)?;
        range("apiCores", self.api_cores as u64, 1, 256)?;
        range("clientsPerApiNode", self.clients_per_api_node as u64, 1, 4096)?;
        if self.clients() > 65_536 {
            return Err(ConfigError::new(
                "clientsPerApiNode",
                self.clients_per_api_node,
                format!("apiNodes x clientsPerApiNode must be at most 65536 (is {})", self.clients()),
            ));
        }
        range("thinkTimeUs", self.think_time_us, 0, 60_000_000)?;
        range("cacheSize", self.cache_size, 1, 1_000_000)?;
        range("warehouses", self.warehouses as u64, 1, 100_000)?;
        range("durationMs", self.duration_ms, 1, 86_400_000)?;
        range("warmupMs", self.warmup_ms, 0, 3_600_000)?;
        range("windowMs", self.window_ms, 1, 60_000)?;
        range("network.latencyUs", self.network.latency_us, 0, 100_000)?;
        let c = &self.cpu;
        for (name, v) in [
            ("cpu.tcOpNs", c.tc_op_ns),
            ("cpu.tcReplyNs", c.tc_reply_ns),
            ("cpu.tcCommitNs", c.tc_commit_ns),
            ("cpu.lqhReadNs", c.lqh_read_ns),
            ("cpu.lqhWriteNs", c.lqh_write_ns),
            ("cpu.lqhCommitNs", c.lqh_commit_ns),
            ("cpu.lqhCompleteNs", c.lqh_complete_ns),
            ("cpu.apiStatementNs", c.api_statement_ns),
            ("cpu.apiExecuteNs", c.api_execute_ns),
            ("cpu.apiOpNs", c.api_op_ns),
            ("cpu.apiReplyNs", c.api_reply_ns),
        ] {
            range(name, v, 0, 10_000_000)?;
        }
        if self.faults.len() > 64 {
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

fn range(field: &str, v: u64, lo: u64, hi: u64) -> Result<(), ConfigError> {
    if (lo..=hi).contains(&v) {
        Ok(())
    } else {
        Err(ConfigError::new(field, v, format!("must be an integer from {lo} to {hi}")))
    }
}

fn preset_list() -> String {
    let names: Vec<String> = PRESETS.iter().map(|(n, _)| format!("\"{n}\"")).collect();
    format!("must be one of {}", names.join(", "))
}

/// Merges `top` into `base` field by field. Unknown fields are errors here, where the
/// full dotted path is known, rather than in serde, whose message lacks the value.
fn merge(base: &mut Value, top: &Value, prefix: &str) -> Result<(), ConfigError> {
    let (Value::Object(b), Value::Object(t)) = (&mut *base, top) else {
        unreachable!("merge is only called on objects")
    };
    for (k, v) in t {
        let path = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
        match b.get_mut(k) {
            None => {
                let known: Vec<&String> = b.keys().collect();
                return Err(ConfigError::new(
                    &path,
                    v,
                    format!("unknown field; known fields here: {}", join(&known)),
                ));
            }
            Some(slot @ Value::Object(_)) => {
                if !v.is_object() {
                    return Err(ConfigError::new(&path, v, "must be an object"));
                }
                merge(slot, v, &path)?;
            }
            Some(slot) => *slot = v.clone(),
        }
    }
    Ok(())
}

fn join(names: &[&String]) -> String {
    names.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
}

/// A DBT2 run sizes its load to its cluster: warehouses and API nodes follow `dataNodes`
/// unless the user set them.
fn scale_dbt2(merged: &mut Value, user: &Map<String, Value>) {
    if merged["workload"] != "dbt2" {
        return;
    }
    let Some(nodes) = merged["dataNodes"].as_u64() else { return };
    let nodes = nodes.min(48) as u32;
    if !user.contains_key("warehouses") {
        merged["warehouses"] = (nodes * DBT2_WAREHOUSES_PER_DATA_NODE).max(1).into();
    }
    if !user.contains_key("apiNodes") {
        merged["apiNodes"] = (nodes * DBT2_API_NODES_PER_DATA_NODE).max(1).into();
    }
}

fn lookup<'a>(v: &'a Value, dotted: &str) -> Option<&'a Value> {
    dotted.split('.').try_fold(v, |v, k| v.get(k))
}

/// serde's message without its source position, which means nothing to a user.
fn type_message(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
    msg.replace("u64", "a non-negative integer").replace("u32", "a non-negative integer")
}

/// Sets `dotted` (e.g. `network.latencyUs`) in a JSON object, creating nested objects.
/// Used by `--set key=value` and by URL parameters.
pub fn set_dotted(obj: &mut Map<String, Value>, dotted: &str, value: Value) -> Result<(), ConfigError> {
    let mut parts = dotted.split('.').peekable();
    let mut cur = obj;
    while let Some(part) = parts.next() {
        if part.is_empty() {
            return Err(ConfigError::new(dotted, &value, "a field name must not be empty"));
        }
        if parts.peek().is_none() {
            cur.insert(part.to_string(), value);
            return Ok(());
        }
        let slot = cur.entry(part.to_string()).or_insert_with(|| Value::Object(Map::new()));
        let Value::Object(next) = slot else {
            return Err(ConfigError::new(dotted, &value, format!("`{part}` is not an object")));
        };
        cur = next;
    }
    unreachable!("split yields at least one part")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_preset_builds() {
        for (name, _) in PRESETS {
            Config::from_preset(name).unwrap_or_else(|e| panic!("{name}: {e}"));
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

    #[test]
    fn set_dotted_builds_nested_objects() {
        let mut m = Map::new();
        set_dotted(&mut m, "network.latencyUs", json!(5)).unwrap();
        set_dotted(&mut m, "cacheSize", json!(10)).unwrap();
        assert_eq!(Value::Object(m), json!({"network": {"latencyUs": 5}, "cacheSize": 10}));
    }
}

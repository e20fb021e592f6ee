//! Which database engine runs the transactions, and the settings of a one-server engine.
//! What each engine *does* (its commit path, how a released row lock is handed over, what
//! a long lock wait leads to) is the seam in `sim/engine.rs`; here is only the schema.

use super::{Config, ConfigError};
use serde::{Deserialize, Serialize};

/// The engine: NDB's cluster (the default, every earlier run) or one PostgreSQL server.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Engine {
    /// MySQL Cluster: data nodes, replicas, linear two-phase commit, FIFO row locks.
    #[default]
    Ndb,
    /// One PostgreSQL server: backends share `server.cores`; a commit waits for a WAL
    /// flush, which a group of commits shares; a released row wakes every waiter, each
    /// re-checks it (`server.recheckNs`) and one wins; a long wait is checked for a
    /// deadlock and aborted only in one.
    Postgres,
}

impl Engine {
    pub(crate) const NAMES: &'static [&'static str] = &["ndb", "postgres"];
    /// How each of `NAMES` reads in a menu.
    pub(crate) const LABELS: &'static [&'static str] = &["NDB (MySQL Cluster)", "PostgreSQL (one server)"];

    /// The engine is one server (no data nodes, replicas or threads of NDB's).
    pub fn one_server(self) -> bool {
        self != Engine::Ndb
    }

    /// The engine's name as the CLI header, the report and the explanation say it.
    pub fn title(self) -> &'static str {
        match self {
            Engine::Ndb => "NDB",
            Engine::Postgres => "PostgreSQL",
        }
    }
}

/// A one-server engine's machine and its commit and lock costs (unused under `ndb`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ServerConfig {
    /// CPU cores the server's backends share (1..=1024): one pool, one run queue.
    pub cores: u32,
    /// How long one durable flush of the log takes (0..=1000000 us): a commit waits for the
    /// flush that covers its record; commits arriving during a flush share the next one.
    pub flush_us: u64,
    /// CPU one woken waiter spends re-checking a released row (0..=10000000 ns): under
    /// `postgres` every waiter of the row wakes at each hand-off and takes its tuple lock
    /// and transaction-id lock again; one wins, the others queue again.
    pub recheck_ns: u64,
    /// How long a woken waiter takes to run again (0..=1000000 us): the semaphore's post
    /// and the scheduler's wake-up before its re-check queues for a core.
    pub wake_us: u64,
}

impl Default for ServerConfig {
    /// PostgreSQL 15 on this project's 2-core machine, as calibrated (docs/MODEL.md §11).
    fn default() -> ServerConfig {
        ServerConfig { cores: 2, flush_us: 100, recheck_ns: 18_400, wake_us: 100 }
    }
}

impl Config {
    /// A one-server engine runs on one host: NDB's cluster fields must say so, and a
    /// fault of a data node has no cluster to fail over to.
    pub(super) fn check_one_server(&self) -> Result<(), ConfigError> {
        if !self.engine.one_server() {
            return Ok(());
        }
        let cluster = [
            ("dataNodes", self.data_nodes, 1),
            ("replicas", self.replicas, 1),
            ("ldmThreads", self.ldm_threads, 1),
            ("tcThreads", self.tc_threads, 0),
        ];
        for (field, value, one) in cluster {
            if value != one {
                return Err(ConfigError::new(
                    field,
                    value,
                    format!(
                        "must be {one} with engine {:?}: one server, whose CPU is server.cores (start from the preset `postgres`)",
                        self.engine.title()
                    ),
                ));
            }
        }
        if !self.faults.is_empty() {
            return Err(ConfigError::new(
                "faults",
                format!("{} faults", self.faults.len()),
                "are NDB's (data nodes, API nodes, the allocator service): none with a one-server engine",
            ));
        }
        Ok(())
    }
}

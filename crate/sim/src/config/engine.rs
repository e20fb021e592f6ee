//! Which database engine runs the transactions, and the settings of a one-server engine.
//! What each engine *does* (its commit path, how a released row lock is handed over, what
//! a long lock wait leads to) is the seam in `sim/engine.rs`; here is only the schema.

use super::{Config, ConfigError};
use crate::named::by_name;
use serde::Serialize;

by_name!(Engine, [Ndb, Postgres, Innodb, Raft]);
by_name!(LockGrant, [Fifo, Cats]);
by_name!(DeadlockSearch, [Holders, Graph, Off]);

/// The engine: NDB's cluster (the default, every earlier run), or one PostgreSQL or
/// InnoDB server.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// MySQL Cluster: data nodes, replicas, linear two-phase commit, FIFO row locks.
    #[default]
    Ndb,
    /// One PostgreSQL server: backends share `server.cores`; a commit waits for a WAL
    /// flush, which a group of commits shares; a released row wakes every waiter, each
    /// re-checks it (`server.recheckNs`) and one wins; a long wait is checked for a
    /// deadlock and aborted only in one.
    Postgres,
    /// One MySQL server with InnoDB: a commit releases its row locks first and then waits
    /// for the redo log's flush, which a group of commits shares; a released row goes to
    /// one waiter (`server.lockGrant`), after a pass over its queue (`server.grantNs`);
    /// each new wait searches the wait-for graph (`server.deadlockNs`), and a search past
    /// 200 transactions counts as a deadlock.
    Innodb,
    /// Ranges replicated by Raft (CockroachDB, TiDB, YugabyteDB): each partition a range
    /// whose leaseholder locks a row and replicates each write to a majority of its
    /// replicas' logs; a commit resolves its intents with one more round; a long waiter
    /// pushes the holder (`server.pushDelayUs`).
    Raft,
}

impl Engine {
    pub(crate) const NAMES: &'static [&'static str] = &["ndb", "postgres", "innodb", "raft"];
    /// How each of `NAMES` reads in a menu.
    pub(crate) const LABELS: &'static [&'static str] =
        &["NDB (MySQL Cluster)", "PostgreSQL (one server)", "InnoDB (MySQL, one server)", "Raft ranges (CockroachDB-style)"];

    /// The engine is one server (no data nodes, replicas or threads of NDB's).
    pub fn one_server(self) -> bool {
        matches!(self, Engine::Postgres | Engine::Innodb)
    }

    /// The engine's name as the CLI header, the report and the explanation say it.
    pub fn title(self) -> &'static str {
        match self {
            Engine::Ndb => "NDB",
            Engine::Postgres => "PostgreSQL",
            Engine::Innodb => "InnoDB",
            Engine::Raft => "Raft",
        }
    }

    /// What a table's id counter is on this engine, in words: "the sequence of `t`".
    pub fn counter_of(self, table: &str) -> String {
        match self {
            Engine::Ndb => format!("the counter row of `{table}` in SYSTAB_0"),
            Engine::Postgres | Engine::Raft => format!("the sequence of `{table}`"),
            Engine::Innodb => format!("the AUTO_INCREMENT counter of `{table}`"),
        }
    }

    /// What holds a table's id counter on this engine, as a table's name in the hottest
    /// rows: NDB's system table, a sequence, InnoDB's AUTO_INCREMENT counter (its AUTO-INC
    /// lock under `server.autoincLockMode` 0).
    pub fn counter_table(self) -> &'static str {
        match self {
            Engine::Ndb => "SYSTAB_0",
            Engine::Postgres | Engine::Raft => "sequence",
            Engine::Innodb => "AUTO_INCREMENT",
        }
    }

    /// The preset a one-server engine's runs start from (the cluster fields it needs).
    pub fn preset(self) -> &'static str {
        match self {
            Engine::Ndb => "bug39267",
            Engine::Postgres => "postgres",
            Engine::Innodb => "innodb",
            Engine::Raft => "raft",
        }
    }
}

/// How InnoDB picks which waiter a released row lock goes to (`innodb`; MySQL 8.0 picks
/// by CATS, MariaDB and MySQL 5.7 in order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LockGrant {
    /// The first waiter in the queue.
    #[default]
    Fifo,
    /// Contention-Aware Transaction Scheduling: the waiter whose transaction blocks the
    /// most others (those waiting for rows it holds); the first of equals.
    Cats,
}

/// How a new lock wait searches for a deadlock under `innodb`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DeadlockSearch {
    /// From holder to holder (MariaDB 10.6 and later: each waiter points at the one
    /// transaction it waits for): a step or two, whatever the queue.
    #[default]
    Holders,
    /// Through the wait-for graph, one step per request ahead in the queue; a search past
    /// 200 counts as a deadlock (MySQL 5.7 and 8.0 to 8.0.17,
    /// `LOCK_MAX_DEPTH_IN_DEADLOCK_CHECK`).
    Graph,
    /// No search (`innodb_deadlock_detect = OFF`): a deadlock ends at `lockWaitTimeoutMs`.
    Off,
}

impl DeadlockSearch {
    pub(crate) const NAMES: &'static [&'static str] = &["holders", "graph", "off"];
    pub(crate) const LABELS: &'static [&'static str] =
        &["holder to holder (MariaDB)", "whole graph, 200 at most (MySQL 5.7)", "off (innodb_deadlock_detect OFF)"];
}

impl LockGrant {
    pub(crate) const NAMES: &'static [&'static str] = &["fifo", "cats"];
    pub(crate) const LABELS: &'static [&'static str] = &["first come (FIFO)", "most blocking first (CATS)"];
}

/// A one-server engine's machine and its commit and lock costs (unused under `ndb`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
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
    /// CPU the releasing thread spends per waiter still queued when it hands a row over
    /// (0..=10000000 ns; `innodb`): the pass over the lock's queue that grants the next
    /// and points every other waiter at its new holder.
    pub grant_ns: u64,
    /// CPU a new lock wait's deadlock search spends per transaction it visits
    /// (0..=10000000 ns; `innodb`; how many: `deadlock_search`).
    pub deadlock_ns: u64,
    /// How a new lock wait searches for a deadlock under `innodb`.
    pub deadlock_search: DeadlockSearch,
    /// Who gets a released row lock under `innodb`.
    pub lock_grant: LockGrant,
    /// `innodb_autoinc_lock_mode` (0..=2; `innodb`): 0, an INSERT taking an AUTO_INCREMENT
    /// id holds its table's AUTO-INC lock from its execution's start to the statement's end
    /// (`sim/autoinc.rs`); 1 and 2, the id is taken under a light mutex (not modelled), alike
    /// for the INSERTs a workload can say.
    pub autoinc_lock_mode: u32,
    /// How long a waiter waits for a row lock before it pushes the holder (0..=10000000
    /// us; `raft`): it then waits at the holder's transaction record, and learns of the
    /// release from there.
    pub push_delay_us: u64,
    /// CPU a push and its answer cost the range's leaseholder (0..=10000000 ns; `raft`).
    pub push_ns: u64,
}

impl Default for ServerConfig {
    /// PostgreSQL 15 on this project's 2-core machine, as calibrated (docs/MODEL.md §11).
    fn default() -> ServerConfig {
        // The innodb fields are the `innodb` preset's calibration on the same machine.
        ServerConfig {
            cores: 2,
            flush_us: 100,
            recheck_ns: 18_400,
            wake_us: 100,
            grant_ns: 506,
            deadlock_ns: 0,
            deadlock_search: DeadlockSearch::Holders,
            lock_grant: LockGrant::Fifo,
            autoinc_lock_mode: 1,
            push_delay_us: 50_000,
            push_ns: 20_000,
        }
    }
}

impl Config {
    /// Each INSERT taking ids from its table's AUTO_INCREMENT counter holds the table's
    /// AUTO-INC lock to the statement's end: `innodb` in `innodb_autoinc_lock_mode` 0
    /// (`sim/autoinc.rs`), the principal table's key an AUTO_INCREMENT column.
    pub fn autoinc_table_lock(&self) -> bool {
        let auto_increment =
            self.workload.spec().is_some_and(|s| s.id_table().is_some_and(|i| s.tables[i].key == crate::spec::KeyKind::AutoIncrement));
        self.engine == Engine::Innodb
            && self.server.autoinc_lock_mode == 0
            && self.allocator.traits().counter_row
            && !self.primary_key
            && auto_increment
    }

    /// A one-server engine runs on one host: NDB's cluster fields must say so, and a
    /// fault of a data node has no cluster to fail over to.
    pub(super) fn check_one_server(&self) -> Result<(), ConfigError> {
        if self.engine == Engine::Raft {
            return self.check_raft();
        }
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
                        "must be {one} with engine {:?}: one server, whose CPU is server.cores (start from the preset `{}`)",
                        self.engine.title(),
                        self.engine.preset()
                    ),
                ));
            }
        }
        self.no_faults("are NDB's (data nodes, API nodes, the allocator service): none with a one-server engine")
    }

    /// An engine other than NDB takes no faults: `why` says so.
    fn no_faults(&self, why: &str) -> Result<(), ConfigError> {
        match self.faults.len() {
            0 => Ok(()),
            n => Err(ConfigError::new("faults", format!("{n} faults"), why)),
        }
    }

    /// Raft's nodes are each one pool of `server.cores`: no LDM or TC threads of NDB's,
    /// and no faults (a leaseholder's failover is not modelled).
    fn check_raft(&self) -> Result<(), ConfigError> {
        for (field, value, one) in [("ldmThreads", self.ldm_threads, 1), ("tcThreads", self.tc_threads, 0)] {
            if value != one {
                return Err(ConfigError::new(
                    field,
                    value,
                    format!("must be {one} with engine \"Raft\": each node is one pool of server.cores (start from the preset `raft`)"),
                ));
            }
        }
        self.no_faults("are NDB's: none with engine \"Raft\" (a leaseholder's failover is not modelled)")
    }
}

//! How ids are handed out and where the rows they key land: the allocator strategy, the
//! scope of a cached range, and the partitioning and key layout of the inserted table.
//! What each strategy *does* is `sim/ids/mod.rs` (the seam), `sim/ids/refill.rs`,
//! `sim/ids/service.rs`, `timestamp.rs` and `keys.rs`; here is only the schema. Each enum's
//! `NAMES` are its JSON names, which the field table offers as the field's choices
//! (`config::fields::tests::choice_values_are_the_enums_names` checks they agree).

use crate::named::by_name;
use serde::Serialize;

by_name!(Allocator, [CounterRow, CentralService, Timestamp]);
by_name!(IdCacheScope, [ApiNode, Client]);

/// Where an insert's key comes from when the table has no primary key of the client's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allocator {
    /// NDB's counter row in SYSTAB_0: a range is refilled by a committed transaction that
    /// updates the row under its lock (hinted or not).
    CounterRow,
    /// One allocator process on its own host (TiDB's `AUTO_ID_CACHE 1` service): a
    /// request is one network round trip and `cpu.allocatorRequestNs` of its CPU; no row
    /// lock. A standby takes over when it fails (`allocatorFailure`).
    CentralService,
    /// No coordination: id = time tick, API node id and a per-tick sequence (Snowflake,
    /// CockroachDB's `unique_rowid`). An API node whose sequence for the current tick ran
    /// out waits for the next tick.
    Timestamp,
}

impl Allocator {
    pub(crate) const NAMES: &'static [&'static str] = &["counterRow", "centralService", "timestamp"];
    /// How each of `NAMES` reads in a menu.
    pub(crate) const LABELS: &'static [&'static str] = &[
        "a counter row in the database (NDB's SYSTAB_0, a sequence, AUTO_INCREMENT)",
        "one allocator service (TiDB PD, Vitess)",
        "time + node + sequence (Snowflake)",
    ];
    /// What each of `NAMES` has (`traits`), in their order: the field table offers them
    /// beside the names, so that the playground asks the core what a strategy has instead
    /// of knowing strategies by name.
    pub const TRAITS: &'static [Traits] =
        &[Allocator::CounterRow.traits(), Allocator::CentralService.traits(), Allocator::Timestamp.traits()];

    /// What this strategy has: the one place that says it (a new strategy is a new arm).
    pub const fn traits(self) -> Traits {
        match self {
            Allocator::CounterRow => Traits { counter_row: true, cache: true, service: false, tick: false },
            Allocator::CentralService => Traits { counter_row: false, cache: true, service: true, tick: false },
            Allocator::Timestamp => Traits { counter_row: false, cache: false, service: false, tick: true },
        }
    }
}

/// What an id strategy has, for whoever decides by it (the explanation's loads, the fault
/// checks, the playground's words, drawing and strategy list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Traits {
    /// Refills update a counter row in the cluster under its lock (SYSTAB_0).
    pub counter_row: bool,
    /// Hands out cached ranges: `cacheSize`, `cacheGrowth` and `idCacheScope` apply, and an
    /// API node's cache has a mutex when the scope is the API node.
    pub cache: bool,
    /// Each refill is a request to a service on a host of its own, which can fail
    /// (`allocatorFailure`).
    pub service: bool,
    /// Ids come from a clock tick and a per-tick sequence (`timestampTickUs`,
    /// `timestampSequenceBits`).
    pub tick: bool,
}

/// Who owns a cached range of ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdCacheScope {
    /// One range per API node behind a mutex: mysqld's table share (NDB_SHARE), whose
    /// refill runs with the share's mutex held, so the node's threads queue behind it.
    ApiNode,
    /// One range per client thread: the NDB API's `Ndb` object (one per thread), or a SQL
    /// session's sequence cache elsewhere. No process-wide mutex.
    Client,
}

impl IdCacheScope {
    pub(crate) const NAMES: &'static [&'static str] = &["apiNode", "client"];
    /// How each of `NAMES` reads in a menu (under every engine).
    pub(crate) const LABELS: &'static [&'static str] =
        &["the API node, behind a mutex (mysqld's table share)", "each client (an NDB API Ndb object, a session's sequence cache)"];
}

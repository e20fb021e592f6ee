//! The seam between an insert and the id strategies: where ids come from.
//!
//! [`IdSource`] has one variant per `allocator`, holding that strategy's state, and each
//! operation an insert or a fault needs is one method with one match on it:
//!
//! ```text
//! operation            counterRow              centralService          timestamp
//! want_id              cached range, or fetch  cached range, or fetch  tick's sequence, or wait
//! fetch_range          refill (refill.rs)      request (service.rs)    -
//! range_arrived        (shared by the two range strategies: the cache, its waiters)
//! api_restarted        its ranges are lost     its ranges are lost     its generator restarts
//! leave (an abort)     leaves the queue        leaves the queue        leaves the tick queue
//! clients_added        client scope: a range   client scope: a range   -
//! allocator_failed     -                       standby takes over      -
//! ids_twice            the range checker       the range checker       + each generator's own
//! ```
//!
//! A cached range belongs to an API node (behind its mutex: the thread that finds it
//! empty fetches the next one while the others queue) or to one client (`idCacheScope`),
//! one per table taking ids (a spec may have several: each has its own SYSTAB_0 counter
//! row; NDB keeps a tuple-id range per table). Cache `owner x tables + k` is owner `owner`'s
//! range of id table `k`, so with one table a cache's index is its owner's (the API node's
//! or the client's).
//! Every range that arrives is one *coordination*; its latency is from the request to
//! the arrival. Once an id is known, `id_ready` gives the row its key (`keyLayout`) and
//! partition (`partitioning`, `keys.rs`) and the round goes on.
//!
//! Adding a strategy: its state (a variant here, or a module of its own as `service.rs`),
//! a variant of `Allocator` with its name and menu label in `config/ids.rs` (the field
//! table takes its choices from there), an arm in each match here, in `faults.rs` and in `explain/`, and
//! a preset in `config/presets.rs`; crate/ARCHITECTURE.md's recipe lists the rest, as
//! counted on a branch.

use super::Simulation;

mod faults;
mod mutex;
pub(super) mod refill;
pub(super) mod service;
mod ticks;
use super::tables::Tables;
use crate::allocator::{IdCache, IdChecker, Sizing, Take};
use crate::config::{Allocator, Config, IdCacheScope};
use crate::keys;
use crate::time::{self, Ns};
use crate::timestamp::TimestampIds;
use crate::topology::Topology;
use crate::workload;
use refill::HotRow;
use service::Service;

/// Where ids come from: the strategy's own state.
#[derive(Clone)]
pub(super) enum IdSource {
    /// Cached ranges refilled by a transaction on the SYSTAB_0 counter row.
    CounterRow(Ranges),
    /// Cached ranges fetched from the allocator service.
    CentralService(Ranges),
    /// One tick + node + sequence generator per API node.
    Timestamp(Vec<TimestampIds>),
}

/// Cached ranges, one per API node or per client and table taking ids.
#[derive(Clone)]
pub(super) struct Ranges {
    pub caches: Vec<IdCache>,
    pub scope: IdCacheScope,
    /// Tables taking ids: each owner (API node or client) has this many caches, consecutive.
    pub tables: u32,
    /// Since when each range's mutex is held by a fetch (its busy time, `explain/resources.rs`).
    pub held_since_ns: Vec<Option<Ns>>,
}

impl Ranges {
    /// The cached range of id table `k` that client `client` on API node `api` takes from.
    fn cache_of(&self, api: u32, client: u32, k: u32) -> u32 {
        let owner = match self.scope {
            IdCacheScope::ApiNode => api,
            IdCacheScope::Client => client,
        };
        owner * self.tables + k
    }

    /// Cache `cache`'s owner (an API node or a client) and table taking ids (0 the principal).
    pub fn split(&self, cache: u32) -> (u32, u32) {
        (cache / self.tables, cache % self.tables)
    }
}

/// The allocator side of the simulation besides the hot row: the strategy, and where
/// keys land. (What was issued and lost is counted in `Metrics::totals`.)
#[derive(Clone)]
pub(super) struct Ids {
    pub source: IdSource,
    pub tables: Tables,
    /// The principal table's SYSTAB_0 counter row (`counterRow` refills lock it), with
    /// its time accounting.
    pub hot: HotRow,
    /// NEXTID of each table's counter row: the next id no refill has taken.
    pub next_ids: Vec<u64>,
    /// The central allocator service (idle unless `allocator` is `centralService`).
    pub service: Service,
    /// Every range granted, per table, to find ids issued twice.
    pub check: Vec<IdChecker>,
    /// The last id issued per table (to count ids issued in order).
    last: Vec<u64>,
    /// The spec's statements run through mysqld, whose refill for an AUTO_INCREMENT table
    /// (`auto_increment`) during a multi-row INSERT fetches at least the statement's rows
    /// (`statement_rows`). In NDB's handler (storage/ndb/plugin/ha_ndbcluster.cc,
    /// `start_bulk_insert`, `get_auto_increment`) a statement inserting a known number of
    /// rows raises `m_autoincrement_prefetch` from `ndb_autoincrement_prefetch_sz` to at
    /// least that number; a hidden key is fetched with a fixed cache size (`ndb_write_row`:
    /// `getAutoIncrementValue(..., 1000)`, 1 before Bug #39267's fix: here `cacheSize`);
    /// the NDB API's own callers choose their cache size themselves.
    pub statement_prefetch: bool,
    /// Per table, its key is an AUTO_INCREMENT column (mysqld's prefetch; InnoDB's AUTO-INC
    /// lock, `autoinc.rs`).
    pub auto_increment: Vec<bool>,
    /// Per table, its own fetch size (a spec table's `idCache`: its sequence's CACHE).
    own_cache: Vec<Option<u64>>,
}

impl Ids {
    pub fn new(cfg: &Config, topo: &Topology) -> Ids {
        let tables = Tables::new(cfg, topo.partitions);
        let n = tables.id_tables();
        let first_ids = refill::first_ids(&cfg.workload, n);
        // The service and the timestamp generators serve every table: past all their rows.
        let first_id = first_ids.iter().copied().max().unwrap_or(1);
        let ranges = || {
            let caches = match cfg.id_cache_scope {
                IdCacheScope::ApiNode => cfg.api_nodes,
                IdCacheScope::Client => cfg.clients(),
            } as usize
                * n;
            Ranges {
                caches: (0..caches).map(|_| IdCache::default()).collect(),
                scope: cfg.id_cache_scope,
                tables: n as u32,
                held_since_ns: vec![None; caches],
            }
        };
        let source = match cfg.allocator {
            Allocator::CounterRow => IdSource::CounterRow(ranges()),
            Allocator::CentralService => IdSource::CentralService(ranges()),
            Allocator::Timestamp => IdSource::Timestamp(
                (0..cfg.api_nodes)
                    .map(|a| TimestampIds::new(a, time::from_us(cfg.timestamp_tick_us), cfg.timestamp_sequence_bits as u32, first_id))
                    .collect(),
            ),
        };
        Ids {
            source,
            hot: HotRow::new(topo, tables.table),
            tables,
            next_ids: first_ids,
            service: Service::new(first_id),
            check: vec![IdChecker::default(); n],
            last: vec![0; n],
            statement_prefetch: cfg.workload.spec().is_some_and(|s| s.api == crate::spec::Api::Mysqld),
            auto_increment: refill::auto_increment(&cfg.workload, n),
            own_cache: match cfg.workload.spec() {
                Some(s) if s.id_table().is_some() => s.id_tables().map(|i| s.tables[i].id_cache).collect(),
                _ => vec![None; n],
            },
        }
    }

    /// The cached ranges, for the strategies that keep them.
    pub fn ranges(&self) -> Option<&Ranges> {
        match &self.source {
            IdSource::CounterRow(r) | IdSource::CentralService(r) => Some(r),
            IdSource::Timestamp(_) => None,
        }
    }

    fn ranges_mut(&mut self) -> &mut Ranges {
        match &mut self.source {
            IdSource::CounterRow(r) | IdSource::CentralService(r) => r,
            IdSource::Timestamp(_) => unreachable!("timestamp ids have no ranges"),
        }
    }

    /// Cached range `cache` (of a range strategy).
    pub fn cache(&mut self, cache: u32) -> &mut IdCache {
        &mut self.ranges_mut().caches[cache as usize]
    }

    /// Ids issued twice: ranges that overlapped (the checker sees every granted range), or
    /// timestamp ids that broke their generator's order (each checks its own).
    pub fn duplicates(&self) -> u64 {
        self.check.iter().map(|c| c.duplicates).sum::<u64>()
            + match &self.source {
                IdSource::CounterRow(_) | IdSource::CentralService(_) => 0,
                IdSource::Timestamp(stamps) => stamps.iter().map(|s| s.violations).sum(),
            }
    }

    pub fn memory_bytes(&self) -> usize {
        let source = match &self.source {
            IdSource::CounterRow(r) | IdSource::CentralService(r) => r.caches.iter().map(IdCache::memory_bytes).sum(),
            IdSource::Timestamp(stamps) => stamps.iter().map(TimestampIds::memory_bytes).sum::<usize>(),
        };
        source + self.tables.memory_bytes() + self.service.memory_bytes() + self.check.iter().map(IdChecker::stretches).sum::<usize>() * 48
    }
}

/// What asking for an id found.
enum Asked {
    Id(u64),
    /// Queued behind a range being fetched.
    Wait,
    /// The range is empty and the asker holds its mutex: fetch range `cache`.
    Fetch(u32),
    /// The tick's sequence is used up on API node `api`: wait for the next tick.
    NextTick(u32),
}

impl Simulation {
    /// The API node that owns cached range `cache`.
    pub(super) fn cache_api(&self, cache: u32) -> u32 {
        let r = self.ids.ranges().expect("a range strategy");
        let (owner, _) = r.split(cache);
        match r.scope {
            IdCacheScope::ApiNode => owner,
            IdCacheScope::Client => self.clients[owner as usize].api,
        }
    }

    /// Which table taking ids (0 the principal) the insert waiting in `t`'s round is into.
    pub(super) fn wanted_table(&self, t: u32) -> u32 {
        if self.ids.tables.more.is_empty() {
            return 0;
        }
        let txn = &self.txns[t];
        let o = txn.ops[txn.round_ops()].iter().find(|o| o.needs_id).expect("a round waiting for an id has an insert without key");
        self.ids.tables.id_index(workload::table_of(o.row)).expect("only tables taking ids wait for ids") as u32
    }

    /// How big cached range `cache`'s fetches are: its table's own size, else the config's.
    pub(super) fn sizing(&self, cache: u32) -> Sizing {
        match self.ids.own_cache[self.cache_table(cache)] {
            Some(n) => Sizing { base: n, growth: 1, max: n },
            None => Sizing { base: self.cfg.cache_size, growth: self.cfg.cache_growth, max: self.cfg.cache_size_max },
        }
    }

    /// Transaction `t`'s round inserts a row whose key the allocator gives.
    pub(super) fn want_id(&mut self, t: u32) {
        let (api, client) = (self.txns[t].api, self.txns[t].client);
        let k = self.wanted_table(t);
        let now = self.now_ns;
        let asked = match &mut self.ids.source {
            IdSource::CounterRow(r) | IdSource::CentralService(r) => {
                let cache = r.cache_of(api, client, k);
                match r.caches[cache as usize].take(t) {
                    Take::Id(id) => Asked::Id(id),
                    Take::Wait => Asked::Wait,
                    Take::Fetch => Asked::Fetch(cache),
                }
            }
            IdSource::Timestamp(stamps) => match stamps[api as usize].take(t, now) {
                Some(id) => Asked::Id(id),
                None => Asked::NextTick(api),
            },
        };
        if !matches!(asked, Asked::Id(_)) {
            self.txns[t].waiting_id = true;
            self.txns[t].id_wait_since_ns = now;
        }
        match asked {
            Asked::Id(id) => self.id_ready(t, id),
            Asked::Wait => {}
            Asked::Fetch(cache) => self.fetch_range(t, cache),
            Asked::NextTick(api) => self.wake_at_next_tick(api),
        }
    }

    /// `parent` found range `cache` empty and holds its mutex: fetch the next range.
    fn fetch_range(&mut self, parent: u32, cache: u32) {
        self.ids.ranges_mut().held_since_ns[cache as usize] = Some(self.now_ns);
        match self.ids.source {
            IdSource::CounterRow(_) if self.cfg.engine.one_server() => self.take_in_server(parent, cache),
            IdSource::CounterRow(_) => self.start_refill(parent, cache),
            IdSource::CentralService(_) => self.request_range(parent, cache),
            IdSource::Timestamp(_) => unreachable!("timestamp ids have no ranges"),
        }
    }

    /// A one-server engine takes a counter's ids inside the INSERT, on the server
    /// (PostgreSQL's `nextval`, InnoDB's AUTO_INCREMENT): no refill transaction and no round
    /// trip of its own; the range is there at once. The counter's latch, held for
    /// microseconds, is not modelled; its CPU is the INSERT's (calibrated with it). InnoDB's
    /// AUTO-INC table lock in mode 0, held to the statement's end, is (`sim/autoinc.rs`).
    fn take_in_server(&mut self, parent: u32, cache: u32) {
        let (first, count) = self.take_from_counter(cache, Some(parent));
        let restarts = self.faults.api_restarts[self.cache_api(cache) as usize];
        self.range_arrived(cache, Some(parent), first, count, restarts, self.now_ns);
    }

    /// The range `[first, first + count)` fetched for `cache` since `started` arrived (a
    /// refill committed, or the service replied). `restarts` is the API node's restart count
    /// when the fetch began: if it restarted since, nobody holds the range any more.
    pub(super) fn range_arrived(&mut self, cache: u32, parent: Option<u32>, first: u64, count: u64, restarts: u32, started: Ns) {
        self.metrics.coordinated(self.now_ns - started, self.now_ns);
        let k = self.cache_table(cache);
        self.ids.check[k].grant(first, first + count);
        let api = self.cache_api(cache) as usize;
        if restarts != self.faults.api_restarts[api] {
            self.metrics.totals.ids_lost += count; // The API node restarted meanwhile: nobody holds this range.
            return;
        }
        self.mutex_released(cache);
        let sizing = self.sizing(cache);
        let range = self.ids.cache(cache);
        range.arrived(first, count, sizing);
        // The fetching thread still holds the mutex: it takes the first id (unless a
        // failure aborted it meanwhile: then the waiters go first).
        if let Some(parent) = parent {
            match range.take(parent) {
                Take::Id(id) => self.id_ready(parent, id),
                other => unreachable!("a fresh range gave {other:?}"),
            }
        }
        while let Some((waiter, take)) = self.ids.cache(cache).serve_waiter() {
            match take {
                Take::Id(id) => self.id_ready(waiter, id),
                Take::Fetch => {
                    self.fetch_range(waiter, cache);
                    break;
                }
                Take::Wait => unreachable!("serve_waiter never queues"),
            }
        }
    }

    /// Transaction `t` got `id` for its insert: its row's key follows `keyLayout`, its
    /// partition `partitioning`; then the round goes to the TC.
    pub(super) fn id_ready(&mut self, t: u32, id: u64) {
        let k = self.wanted_table(t) as usize;
        let totals = &mut self.metrics.totals;
        if id > self.ids.last[k] || totals.ids_issued == 0 {
            totals.ids_in_order += 1;
        }
        self.ids.last[k] = id;
        totals.ids_issued += 1;
        let part = if k == 0 {
            let key = keys::key_of(id, self.ids.tables.layout, self.cfg.shard_bits as u32);
            self.place_key(key)
        } else {
            let more = &mut self.ids.tables.more[k - 1];
            more.placement.place(keys::key_of(id, more.layout, self.cfg.shard_bits as u32), &self.topo)
        };
        if let IdSource::Timestamp(_) = self.ids.source {
            let api = self.txns[t].api as usize;
            self.metrics.count(self.now_ns, |c| c.stamp_ids[api] += 1);
        }
        let range = self.txns[t].round_ops();
        let now = self.now_ns;
        let txn = &mut self.txns[t];
        let op = range.into_iter().find(|&i| txn.ops[i].needs_id).expect("round has an insert without key");
        if txn.waiting_id {
            txn.blocked_ns += now - txn.id_wait_since_ns;
        }
        txn.waiting_id = false;
        let o = &mut txn.ops[op];
        o.row = workload::row_key(workload::table_of(o.row), id);
        o.part = part;
        o.needs_id = false;
        if txn.ops[txn.round_ops()].iter().any(|o| o.needs_id) {
            self.want_id(t); // A multi-row insert: the next row's id.
        } else {
            self.send_round(t);
        }
    }

    /// The partition of a new row of the inserted table with `key`, counted for the
    /// insert-skew report.
    pub(super) fn place_key(&mut self, key: u64) -> u32 {
        let part = self.ids.tables.inserted.place(key, &self.topo);
        self.metrics.inserted_into(part, self.now_ns);
        part
    }
}

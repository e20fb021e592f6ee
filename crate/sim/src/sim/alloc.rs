//! The allocator seen from an insert: ask for an id, wait for it, place the row by it.
//! The one place that dispatches on the strategy (`allocator`) and the cache's owner
//! (`idCacheScope`):
//!
//! ```text
//! counterRow      cached range --empty--> refill transaction on SYSTAB_0   (refill.rs)
//! centralService  cached range --empty--> request to the service's host    (service.rs)
//! timestamp       tick + node + sequence, wait for the next tick when used up
//! ```
//!
//! A cached range belongs to an API node (behind its mutex: the thread that finds it
//! empty fetches the next one while the others queue) or to one client. Every range that
//! arrives is one *coordination*; its latency is from the request to the arrival.

use super::event::Event;
use super::Simulation;
use crate::allocator::{IdCache, Sizing, Take};
use crate::config::{Allocator, IdCacheScope, Partitioning};
use crate::keys;
use crate::queue::Ns;
use crate::timestamp::TimestampIds;
use crate::workload;

/// What the allocator side of the simulation holds besides the hot row.
#[derive(Clone)]
pub(super) struct Ids {
    /// Cached ranges, one per API node or per client (`idCacheScope`).
    pub caches: Vec<IdCache>,
    /// `timestamp`: one generator per API node.
    pub stamps: Vec<TimestampIds>,
    /// `range` partitioning of the inserted table.
    pub ranges: Option<keys::RangeMap>,
    pub issued: u64,
    pub lost: u64,
    /// The last id issued anywhere, and how many ids were greater than the one before.
    last: u64,
    pub in_order: u64,
}

impl Ids {
    pub fn new(cfg: &crate::config::Config, partitions: u32) -> Ids {
        let units = match cfg.id_cache_scope {
            IdCacheScope::ApiNode => cfg.api_nodes,
            IdCacheScope::Client => cfg.clients(),
        };
        let stamps = match cfg.allocator {
            Allocator::Timestamp => (0..cfg.api_nodes)
                .map(|a| TimestampIds::new(a, cfg.timestamp_tick_us * 1_000, cfg.timestamp_sequence_bits as u32))
                .collect(),
            _ => Vec::new(),
        };
        Ids {
            caches: (0..units).map(|_| IdCache::default()).collect(),
            stamps,
            ranges: (cfg.partitioning == Partitioning::Range).then(|| keys::RangeMap::new(cfg.range_rows, partitions)),
            issued: 0,
            lost: 0,
            last: 0,
            in_order: 0,
        }
    }

    pub fn memory_bytes(&self) -> usize {
        self.caches.iter().map(IdCache::memory_bytes).sum::<usize>()
            + self.stamps.iter().map(TimestampIds::memory_bytes).sum::<usize>()
            + self.ranges.as_ref().map_or(0, keys::RangeMap::memory_bytes)
    }
}

impl Simulation {
    /// The cached range transaction `t` takes its ids from.
    pub(super) fn id_unit(&self, t: u32) -> u32 {
        match self.cfg.id_cache_scope {
            IdCacheScope::ApiNode => self.txns[t].api,
            IdCacheScope::Client => self.txns[t].client,
        }
    }

    /// The API node that owns cached range `unit`.
    pub(super) fn unit_api(&self, unit: u32) -> u32 {
        match self.cfg.id_cache_scope {
            IdCacheScope::ApiNode => unit,
            IdCacheScope::Client => self.clients[unit as usize].api,
        }
    }

    pub(super) fn sizing(&self) -> Sizing {
        Sizing { base: self.cfg.cache_size, growth: self.cfg.cache_growth, max: self.cfg.cache_size_max }
    }

    /// Transaction `t`'s round inserts a row whose key the allocator gives.
    pub(super) fn want_id(&mut self, t: u32) {
        if self.cfg.allocator == Allocator::Timestamp {
            let api = self.txns[t].api as usize;
            match self.ids.stamps[api].take(t, self.now) {
                Some(id) => self.id_ready(t, id),
                None => {
                    self.txns[t].waiting_id = true;
                    self.wake_at_next_tick(api as u32);
                }
            }
            return;
        }
        let unit = self.id_unit(t);
        match self.ids.caches[unit as usize].take(t) {
            Take::Id(id) => self.id_ready(t, id),
            Take::Wait => self.txns[t].waiting_id = true,
            Take::Refill => {
                self.txns[t].waiting_id = true;
                self.fetch_range(t, unit);
            }
        }
    }

    /// `parent` found range `unit` empty and holds its mutex: fetch the next range.
    fn fetch_range(&mut self, parent: u32, unit: u32) {
        match self.cfg.allocator {
            Allocator::CounterRow => self.start_refill(parent, unit),
            Allocator::CentralService => self.request_range(parent, unit),
            Allocator::Timestamp => unreachable!("timestamp ids have no ranges"),
        }
    }

    /// The range `[first, first + count)` fetched for `unit` since `started` arrived (a
    /// refill committed, or the service replied). `epoch` is the API node's restart count
    /// when the fetch began: if it restarted since, nobody holds the range any more.
    pub(super) fn range_arrived(&mut self, unit: u32, parent: Option<u32>, first: u64, count: u64, epoch: u32, started: Ns) {
        self.metrics.coordinated(self.now - started, self.now);
        self.id_check.grant(first, first + count);
        let api = self.unit_api(unit) as usize;
        if epoch != self.faults.api_epoch[api] {
            self.ids.lost += count; // The API node restarted meanwhile: nobody holds this range.
            return;
        }
        let sizing = self.sizing();
        let cache = &mut self.ids.caches[unit as usize];
        cache.refilled(first, count, sizing);
        // The fetching thread still holds the mutex: it takes the first id (unless a
        // failure aborted it meanwhile: then the waiters go first).
        if let Some(parent) = parent {
            match cache.take(parent) {
                Take::Id(id) => self.id_ready(parent, id),
                other => unreachable!("a fresh range gave {other:?}"),
            }
        }
        while let Some((waiter, take)) = self.ids.caches[unit as usize].serve_waiter() {
            match take {
                Take::Id(id) => self.id_ready(waiter, id),
                Take::Refill => {
                    self.fetch_range(waiter, unit);
                    break;
                }
                Take::Wait => unreachable!("serve_waiter never queues"),
            }
        }
    }

    fn wake_at_next_tick(&mut self, api: u32) {
        let stamp = &mut self.ids.stamps[api as usize];
        if !stamp.wake_pending {
            stamp.wake_pending = true;
            let at = stamp.next_tick_at().max(self.now);
            self.queue.push(at, Event::Tick { api });
        }
    }

    /// A new tick: API node `api`'s waiting inserts get ids while the tick lasts.
    pub(super) fn timestamp_tick(&mut self, api: u32) {
        self.ids.stamps[api as usize].wake_pending = false;
        while let Some((t, id)) = self.ids.stamps[api as usize].next_waiter(self.now) {
            self.id_ready(t, id);
        }
        if self.ids.stamps[api as usize].has_waiters() {
            self.wake_at_next_tick(api);
        }
    }

    /// Transaction `t` got `id` for its insert: its row's key follows `keyLayout`, its
    /// partition `partitioning`; then the round goes to the TC.
    pub(super) fn id_ready(&mut self, t: u32, id: u64) {
        if id > self.ids.last || self.ids.issued == 0 {
            self.ids.in_order += 1;
        }
        self.ids.last = id;
        self.ids.issued += 1;
        let key = keys::key_of(id, self.cfg.key_layout, self.cfg.shard_bits as u32);
        let part = self.place_key(key);
        let range = self.txns[t].round_ops();
        let txn = &mut self.txns[t];
        let op = range.into_iter().find(|&i| txn.ops[i].needs_id).expect("round has an insert without key");
        txn.waiting_id = false;
        let o = &mut txn.ops[op];
        o.row = workload::row_key(workload::table_of(o.row), id);
        o.part = part;
        o.needs_id = false;
        self.send_round(t);
    }

    /// The partition of a new row of the inserted table with `key`, counted for the
    /// insert-skew report.
    pub(super) fn place_key(&mut self, key: u64) -> u32 {
        let part = match &mut self.ids.ranges {
            Some(ranges) => ranges.insert(key),
            None => self.topo.partition_of(key),
        };
        self.metrics.inserted_into(part, self.now);
        part
    }

    /// An API node restarts: its cached ranges (its own, or its clients') are lost.
    pub(super) fn drop_ranges_of(&mut self, api: u32) {
        self.ids.lost += match self.cfg.id_cache_scope {
            IdCacheScope::ApiNode => std::mem::take(&mut self.ids.caches[api as usize]).remaining(),
            IdCacheScope::Client => (self.clients.iter().zip(self.ids.caches.iter_mut()))
                .filter(|(client, _)| client.api == api)
                .map(|(_, cache)| std::mem::take(cache).remaining())
                .sum(),
        };
        if let Some(stamp) = self.ids.stamps.get_mut(api as usize) {
            stamp.restart(self.now);
        }
    }

    /// Takes aborted transaction `t` out of the allocator's queues. If it was itself
    /// fetching a range, the fetch finishes for the waiters behind it.
    pub(super) fn leave_allocator(&mut self, t: u32) {
        if !std::mem::replace(&mut self.txns[t].waiting_id, false) {
            return;
        }
        if self.cfg.allocator == Allocator::Timestamp {
            let api = self.txns[t].api as usize;
            self.ids.stamps[api].remove_waiter(t);
            return;
        }
        let unit = self.id_unit(t);
        if !self.ids.caches[unit as usize].remove_waiter(t) {
            for r in self.txns.iter_mut().filter(|r| r.live()) {
                if let Some(refill) = r.refill.as_mut().filter(|refill| refill.parent == Some(t)) {
                    refill.parent = None;
                }
            }
            self.service.orphan(t);
        }
    }

    /// Clients added while running (client scope) get their own cached ranges.
    pub(super) fn add_client_caches(&mut self) {
        if self.cfg.id_cache_scope == IdCacheScope::Client {
            let n = self.clients.len();
            self.ids.caches.resize_with(n, IdCache::default);
        }
    }
}

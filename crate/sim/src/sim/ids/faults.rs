//! What faults and live changes do to the id strategies: an API node restarts (its
//! cached ranges are lost, or its timestamp generator starts again), an aborted
//! transaction leaves the allocator's queues, clients added while running get ranges of
//! their own, the allocator service fails over.

use super::IdSource;
use crate::allocator::IdCache;
use crate::config::IdCacheScope;
use crate::sim::Simulation;

impl Simulation {
    /// An API node restarts: its cached ranges (its own, or its clients') are lost, or its
    /// timestamp generator starts again.
    pub(in crate::sim) fn api_restarted(&mut self, api: u32) {
        let now = self.now_ns;
        if let Some(r) = self.ids.ranges().filter(|r| r.scope == IdCacheScope::ApiNode) {
            for cache in api * r.tables..(api + 1) * r.tables {
                self.mutex_released(cache);
            }
        }
        let lost = match &mut self.ids.source {
            IdSource::CounterRow(r) | IdSource::CentralService(r) => match r.scope {
                IdCacheScope::ApiNode => {
                    let n = r.tables as usize;
                    r.caches[api as usize * n..(api as usize + 1) * n].iter_mut().map(|c| std::mem::take(c).remaining()).sum()
                }
                IdCacheScope::Client => (self.clients.iter().zip(r.caches.chunks_mut(r.tables as usize)))
                    .filter(|(client, _)| client.api == api)
                    .flat_map(|(_, caches)| caches.iter_mut())
                    .map(|cache| std::mem::take(cache).remaining())
                    .sum(),
            },
            IdSource::Timestamp(stamps) => {
                stamps[api as usize].restart(now);
                0
            }
        };
        self.metrics.totals.ids_lost += lost;
    }

    /// Takes aborted transaction `t` out of the allocator's queues. If it was itself
    /// fetching a range, the fetch finishes for the waiters behind it.
    pub(in crate::sim) fn leave_allocator(&mut self, t: u32) {
        if !std::mem::replace(&mut self.txns[t].waiting_id, false) {
            return;
        }
        let (api, client) = (self.txns[t].api, self.txns[t].client);
        let k = self.wanted_table(t);
        let fetching = match &mut self.ids.source {
            IdSource::CounterRow(r) | IdSource::CentralService(r) => {
                let cache = r.cache_of(api, client, k);
                !r.caches[cache as usize].remove_waiter(t)
            }
            IdSource::Timestamp(stamps) => {
                stamps[api as usize].remove_waiter(t);
                false
            }
        };
        if fetching {
            for r in self.txns.iter_mut().filter(|r| r.live()) {
                if let Some(refill) = r.refill.as_mut().filter(|refill| refill.parent == Some(t)) {
                    refill.parent = None;
                }
            }
            self.ids.service.orphan(t);
        }
    }

    /// Clients added while running (client scope) get their own cached ranges.
    pub(in crate::sim) fn clients_added(&mut self) {
        let n = self.clients.len();
        match &mut self.ids.source {
            IdSource::CounterRow(r) | IdSource::CentralService(r) => {
                if r.scope == IdCacheScope::Client {
                    let caches = n * r.tables as usize;
                    r.caches.resize_with(caches, IdCache::default);
                    r.held_since_ns.resize(caches, None);
                }
            }
            IdSource::Timestamp(_) => {}
        }
    }

    /// The allocator process fails (`allocatorFailure`, which validation allows only for
    /// the central service): its standby takes over after `takeover_ms`.
    pub(in crate::sim) fn allocator_failed(&mut self, takeover_ms: u64) {
        match self.ids.source {
            IdSource::CentralService(_) => self.fail_service(takeover_ms),
            IdSource::CounterRow(_) | IdSource::Timestamp(_) => unreachable!("validation allows allocatorFailure only for centralService"),
        }
    }
}

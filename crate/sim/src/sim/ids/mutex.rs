//! The id-cache mutex as a resource (`explain/resources.rs`): an API node's range (`idCacheScope`
//! apiNode) is held from the moment a thread finds it empty until the fetched range
//! arrives; that hold is the mutex's busy time, and what its fetch waited for elsewhere
//! (the counter row's lock, busy threads) is the part that is not its own work.

use crate::config::IdCacheScope;
use crate::sim::Simulation;
use crate::time::Ns;

impl Simulation {
    /// Range `cache`'s mutex is released (its range arrived, or its API node restarted):
    /// the hold is busy time of an API node's mutex (the principal table's; another
    /// table's mutex is not a resource the reports name).
    pub(super) fn mutex_released(&mut self, cache: u32) {
        let r = self.ids.ranges_mut();
        let (owner, k) = r.split(cache);
        if let Some(since) = r.held_since_ns[cache as usize].take() {
            if r.scope == IdCacheScope::ApiNode && k == 0 {
                self.metrics.span(since, self.now_ns, |c, ns| c.mutex_busy_ns[owner as usize] += ns);
            }
        }
    }

    /// A fetch for range `cache` waited `blocked` ns for the counter row's lock and
    /// `queued` ns for busy threads: time its mutex's holder waited on other resources.
    pub(super) fn mutex_waited(&mut self, cache: u32, blocked: Ns, queued: Ns) {
        let r = self.ids.ranges().expect("a range strategy");
        let (owner, k) = r.split(cache);
        if r.scope == IdCacheScope::ApiNode && k == 0 {
            self.metrics.count(self.now_ns, |c| {
                c.mutex_blocked_ns[owner as usize] += blocked;
                c.mutex_queued_ns[owner as usize] += queued;
            });
        }
    }
}

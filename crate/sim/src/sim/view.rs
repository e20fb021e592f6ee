//! What a drawing of the cluster reads: messages crossing the network now (a bounded
//! sample of them) and the counter row's lock with the refills queued on it. Reading them
//! changes nothing.

use super::event::Event;
use super::Simulation;
use crate::topology::Host;
use crate::workload::TxnKind;

/// One message crossing the network.
#[derive(Clone, Debug, PartialEq)]
pub struct InFlight {
    pub from: Host,
    pub to: Host,
    /// The NDB signal's name (`LQHKEYREQ`, `COMMIT`, ...) or the API's step.
    pub signal: &'static str,
    /// It belongs to an id refill (or a request to the allocator service).
    pub allocator: bool,
    /// How far it has come, 0 (just sent) to 1 (arriving).
    pub progress: f64,
}

impl Simulation {
    /// At most `max` of the messages crossing the network now, and how many there are in
    /// all. Messages of aborted attempts (dropped on arrival) are left out.
    pub fn in_flight(&self, max: usize) -> (Vec<InFlight>, usize) {
        let mut sample = Vec::with_capacity(max.min(4096));
        let mut total = 0;
        for (at, event) in self.queue.iter() {
            let Event::Arrive { station, from, msg } = *event else { continue };
            if self.stale(msg) {
                continue;
            }
            total += 1;
            if sample.len() == max {
                continue;
            }
            let left = at.saturating_sub(self.now) as f64;
            let trip = (self.latency_ns as f64).max(left).max(1.0);
            let allocator = msg.kind.is_service() || self.txns[msg.txn].kind == TxnKind::Refill;
            sample.push(InFlight { from, to: self.topo.host_of(station), signal: msg.kind.signal(), allocator, progress: 1.0 - left / trip });
        }
        (sample, total)
    }

    /// The counter row's lock now: held or not, and the refills waiting for it.
    pub fn hot_row_lock(&self) -> (bool, u64) {
        self.hot.lock_now()
    }
}

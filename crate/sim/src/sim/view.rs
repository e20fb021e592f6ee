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

/// A bounded sample of the messages crossing the network.
#[derive(Clone, Debug, PartialEq)]
pub struct InFlightSample {
    /// At most the `max` asked for.
    pub messages: Vec<InFlight>,
    /// How many are crossing in all.
    pub total: usize,
}

/// The counter row's lock now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HotRowLock {
    pub held: bool,
    /// Refills waiting for it.
    pub waiting: u64,
}

impl Simulation {
    /// At most `max` of the messages crossing the network now, and how many there are in
    /// all. Messages of aborted attempts (dropped on arrival) are left out.
    pub fn in_flight(&self, max: usize) -> InFlightSample {
        let mut sample = Vec::with_capacity(max.min(4096));
        let mut total = 0;
        let latency = self.latency_ns() as f64;
        for (at, event) in self.queue.iter() {
            let Event::Arrive { station, from, msg } = *event else { continue };
            if self.stale(msg) {
                continue;
            }
            total += 1;
            if sample.len() == max {
                continue;
            }
            let left = at.saturating_sub(self.now_ns) as f64;
            let trip = latency.max(left).max(1.0);
            let allocator = msg.kind.is_service() || self.txns[msg.txn].kind == TxnKind::REFILL;
            sample.push(InFlight {
                from,
                to: self.topo.host_of(station),
                signal: msg.kind.signal(),
                allocator,
                progress: 1.0 - left / trip,
            });
        }
        InFlightSample { messages: sample, total }
    }

    /// The counter row's lock now: held or not, and the refills waiting for it.
    pub fn hot_row_lock(&self) -> HotRowLock {
        self.ids.hot.lock_now()
    }
}

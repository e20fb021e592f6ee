//! Named invariants, checked apart from the logic that should keep them. Each is a
//! function of the whole state; `Simulation::check_invariants` runs the table in order
//! and reports the first one broken. The swarm runs them after every slice of a run.

use super::event::Event;
use super::Simulation;

type Check = fn(&Simulation) -> Result<(), String>;

/// One named promise of the model and the function that checks it on the whole state.
pub struct Invariant {
    /// Its name, as a broken check reports it (`ids-unique: 2 ids issued twice`).
    pub name: &'static str,
    /// What holds, in a sentence for people (`hotrow invariants` prints it).
    pub promise: &'static str,
    check: Check,
}

/// The invariants, in the order they are checked.
pub const INVARIANTS: [Invariant; 9] = [
    Invariant {
        name: "ids-unique",
        promise: "no id is granted twice (granted ranges are recorded, coalesced; timestamp ids rise strictly within their node's bits)",
        check: ids_unique,
    },
    Invariant { name: "locks-conserved", promise: "locks granted - locks released = locks held", check: locks_conserved },
    Invariant {
        name: "messages-conserved",
        promise: "messages sent - messages delivered = arrivals queued in the network",
        check: messages_conserved,
    },
    Invariant {
        name: "station-work-conserving",
        promise: "no thread idles while work waits in its queue, and none serves more than it has servers",
        check: station_work_conserving,
    },
    Invariant {
        name: "committed-rows-survive",
        promise: "per partition, a live replica holds every write whose commit was confirmed",
        check: committed_rows_survive,
    },
    Invariant {
        name: "locks-held-by-live-transactions",
        promise: "every lock is held by a transaction still in flight: a finished one holds none",
        check: locks_held_by_live_transactions,
    },
    Invariant { name: "no-lock-on-a-failed-node", promise: "a failed data node's locks went with it", check: no_lock_on_a_failed_node },
    Invariant {
        name: "transactions-bounded",
        promise: "live transaction records stay within 4 per client + 2 per cached range (no slot leaks)",
        check: transactions_bounded,
    },
    Invariant {
        name: "no-request-waits-beside-a-free-thread",
        promise: "with open arrivals, no request waits at an API node while one of its client threads is idle",
        check: no_request_waits_beside_a_free_thread,
    },
];

impl Simulation {
    /// Runs every named invariant; returns the first one broken, as `name: what`.
    pub fn check_invariants(&self) -> Result<(), String> {
        for i in &INVARIANTS {
            (i.check)(self).map_err(|what| format!("{}: {what}", i.name))?;
        }
        Ok(())
    }

    /// From now on, counts every row's lock releases one by one beside the hot-row
    /// tracker (the swarm's runs: memory grows with the rows released).
    pub(crate) fn audit_rows(&mut self) {
        self.metrics.audit_rows();
    }

    /// The hottest rows' grants equal the rows' releases counted one by one
    /// (`audit_rows`) over the same span.
    pub(crate) fn check_hot_rows(&self) -> Result<(), String> {
        self.metrics.check_hot_rows(self.now_ns)
    }
}

/// No id was granted twice (the id checker's coalesced ranges never overlapped, and each
/// timestamp generator's ids rose strictly within its own bits).
fn ids_unique(s: &Simulation) -> Result<(), String> {
    match s.duplicate_ids() {
        0 => Ok(()),
        n => Err(format!("{n} ids issued twice")),
    }
}

/// Locks granted minus locks released equals the locks held now.
fn locks_conserved(s: &Simulation) -> Result<(), String> {
    let held = s.locks.held() as u64;
    if s.locks.granted - s.locks.released != held {
        return Err(format!("granted {} - released {} != held {held}", s.locks.granted, s.locks.released));
    }
    Ok(())
}

/// Messages sent over the network and not yet delivered are exactly the arrivals queued.
fn messages_conserved(s: &Simulation) -> Result<(), String> {
    let in_flight = s.metrics.messages_sent - s.metrics.messages_delivered;
    let arrivals = s.queue.iter().filter(|(_, e)| matches!(e, Event::Arrive { .. })).count() as u64;
    if in_flight != arrivals {
        return Err(format!("{in_flight} sent and not delivered, {arrivals} in the network"));
    }
    Ok(())
}

/// No station idles while messages wait in its queue, and none serves more than it can.
fn station_work_conserving(s: &Simulation) -> Result<(), String> {
    for (i, st) in s.stations.iter().enumerate() {
        if st.busy > st.servers || (!st.queue.is_empty() && st.busy < st.servers) {
            return Err(format!("station {i} busy {}/{} with {} queued", st.busy, st.servers, st.queue.len()));
        }
    }
    Ok(())
}

/// A live replica holds every confirmed write of each partition.
fn committed_rows_survive(s: &Simulation) -> Result<(), String> {
    s.place.check_committed_rows(&s.topo)
}

/// Every lock is held by a transaction still in flight: a finished transaction (its
/// prepared operations resolved) holds none.
fn locks_held_by_live_transactions(s: &Simulation) -> Result<(), String> {
    for (row, t) in s.locks.holders() {
        if !s.txns[t].live() {
            return Err(format!("finished transaction {t} still holds {row:?}"));
        }
    }
    Ok(())
}

/// A failed node's locks went with it.
fn no_lock_on_a_failed_node(s: &Simulation) -> Result<(), String> {
    match s.locks.holders().find(|(row, _)| !s.place.alive(row.node)) {
        Some((row, _)) => Err(format!("a lock on failed node {} survived", row.node)),
        None => Ok(()),
    }
}

/// Live transaction records stay bounded: each client has one transaction in its rounds
/// and may have earlier ones still completing (at most 3 more, one per phase it can
/// leave behind), and each cached range (per API node or per client) adds at most one
/// refill in its rounds and one completing. A leak of slots would break it.
fn transactions_bounded(s: &Simulation) -> Result<(), String> {
    let live = s.txns.live_count();
    let bound = 4 * s.clients.len() + 2 * s.ids.ranges().map_or(0, |r| r.caches.len());
    if live > bound {
        return Err(format!("{live} live transaction records > {bound}"));
    }
    Ok(())
}

/// Open arrivals: no request waits at an API node while one of its active client threads
/// is idle (a free thread takes the oldest request; an arrival takes a free thread).
fn no_request_waits_beside_a_free_thread(s: &Simulation) -> Result<(), String> {
    for a in 0..s.cfg.api_nodes as usize {
        let waiting = s.arrivals.waiting_at(a);
        if let Some(&c) = s.arrivals.idle_at(a).iter().find(|&&c| s.clients[c as usize].active && s.clients[c as usize].idle) {
            if waiting > 0 {
                return Err(format!("{waiting} requests wait at API node {a} while its client {c} is idle"));
            }
        }
    }
    Ok(())
}

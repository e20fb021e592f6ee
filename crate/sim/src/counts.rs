//! Counters that a metrics window and the whole run both keep, in integers (nanoseconds,
//! events), so that the digest is the same on every target; rates are derived from them
//! only when reported (`rates.rs`).

use crate::workload::{TxnKind, TXN_KINDS};

/// Counters that both a window and the whole run keep.
#[derive(Clone, Debug, Default)]
pub struct Counts {
    /// Transactions committed, per kind (read with `committed(kind)`).
    committed: [u64; TXN_KINDS],
    /// Rows inserted by user transactions.
    pub inserts: u64,
    /// Per data node: messages received, TC transactions started (busy ns: `node_busy_ns`).
    pub node_messages: Vec<u64>,
    pub node_tc_txns: Vec<u64>,
    /// Hot row (the SYSTAB_0 counter row's primary replica).
    /// Time the lock was held, clipped to the window or run.
    pub hot_busy_ns: u64,
    /// Whole hold durations of holds that ended here, and their number.
    pub hot_hold_sum_ns: u64,
    pub hot_holds: u64,
    pub hot_wait_ns: u64,
    pub hot_grants: u64,
    /// Integral of the hot row's wait-queue length over time, in ns.
    pub hot_queue_ns: u64,
    /// Ranges of ids that reached a cache (refills or service replies).
    pub coordinations: u64,
    /// Per station (data-node threads, API nodes, the allocator service): busy ns, and of
    /// those the allocator's work (refill transactions, service requests).
    pub station_busy_ns: Vec<u64>,
    pub station_alloc_ns: Vec<u64>,
    /// Per API node's id-cache mutex (`idCacheScope` apiNode): ns held, and of those ns
    /// its holder's fetch waited for the counter row's lock, and for busy threads.
    pub mutex_busy_ns: Vec<u64>,
    pub mutex_blocked_ns: Vec<u64>,
    pub mutex_queued_ns: Vec<u64>,
    /// Per API node: timestamp ids issued.
    pub stamp_ids: Vec<u64>,
    /// Open arrivals: transactions offered, those that found no free client thread and
    /// waited, those refused (their API node down or restarted under them, its waiting line
    /// full, or the rate set to 0 while they waited), and the
    /// integral over time of the requests waiting, in ns.
    pub arrivals: u64,
    pub arrivals_waited: u64,
    pub arrivals_refused: u64,
    pub waiting_ns: u64,
    /// Transaction attempts aborted (and retried or ended), those of them aborted by a
    /// lock-wait timeout, and the time those timed-out attempts had waited for their lock:
    /// time the clients lost to timeouts (`explain/deadlocks.rs`).
    pub aborts: u64,
    pub lock_timeouts: u64,
    pub timeout_wait_ns: u64,
}

/// How many of each counted thing there are: data nodes, stations, API nodes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Dims {
    pub nodes: usize,
    pub stations: usize,
    pub api_nodes: usize,
}

impl Counts {
    pub fn new(nodes: usize) -> Counts {
        Counts::sized(Dims { nodes, ..Dims::default() })
    }

    pub fn sized(d: Dims) -> Counts {
        Counts {
            node_messages: vec![0; d.nodes],
            node_tc_txns: vec![0; d.nodes],
            station_busy_ns: vec![0; d.stations],
            station_alloc_ns: vec![0; d.stations],
            mutex_busy_ns: vec![0; d.api_nodes],
            mutex_blocked_ns: vec![0; d.api_nodes],
            mutex_queued_ns: vec![0; d.api_nodes],
            stamp_ids: vec![0; d.api_nodes],
            ..Counts::default()
        }
    }

    pub(crate) fn reset(&mut self) {
        // Keep the vectors' allocations: a window closes ten times a second.
        fn keep(v: &mut Vec<u64>) -> Vec<u64> {
            let mut v = std::mem::take(v);
            v.fill(0);
            v
        }
        *self = Counts {
            node_messages: keep(&mut self.node_messages),
            node_tc_txns: keep(&mut self.node_tc_txns),
            station_busy_ns: keep(&mut self.station_busy_ns),
            station_alloc_ns: keep(&mut self.station_alloc_ns),
            mutex_busy_ns: keep(&mut self.mutex_busy_ns),
            mutex_blocked_ns: keep(&mut self.mutex_blocked_ns),
            mutex_queued_ns: keep(&mut self.mutex_queued_ns),
            stamp_ids: keep(&mut self.stamp_ids),
            ..Counts::default()
        };
    }

    /// Adds `other`'s counts to these (a batch of windows, `metrics/batches.rs`). Every
    /// field is named, so that a counter added to `Counts` is added here or fails to build.
    pub(crate) fn absorb(&mut self, other: &Counts) {
        fn add(to: &mut Vec<u64>, from: &[u64]) {
            if to.len() < from.len() {
                to.resize(from.len(), 0);
            }
            to.iter_mut().zip(from).for_each(|(t, f)| *t += f);
        }
        let Counts {
            committed,
            inserts,
            node_messages,
            node_tc_txns,
            hot_busy_ns,
            hot_hold_sum_ns,
            hot_holds,
            hot_wait_ns,
            hot_grants,
            hot_queue_ns,
            coordinations,
            station_busy_ns,
            station_alloc_ns,
            mutex_busy_ns,
            mutex_blocked_ns,
            mutex_queued_ns,
            stamp_ids,
            arrivals,
            arrivals_waited,
            arrivals_refused,
            waiting_ns,
            aborts,
            lock_timeouts,
            timeout_wait_ns,
        } = other;
        self.committed.iter_mut().zip(committed).for_each(|(t, f)| *t += f);
        for (to, from) in [
            (&mut self.node_messages, node_messages),
            (&mut self.node_tc_txns, node_tc_txns),
            (&mut self.station_busy_ns, station_busy_ns),
            (&mut self.station_alloc_ns, station_alloc_ns),
            (&mut self.mutex_busy_ns, mutex_busy_ns),
            (&mut self.mutex_blocked_ns, mutex_blocked_ns),
            (&mut self.mutex_queued_ns, mutex_queued_ns),
            (&mut self.stamp_ids, stamp_ids),
        ] {
            add(to, from);
        }
        for (to, from) in [
            (&mut self.inserts, inserts),
            (&mut self.hot_busy_ns, hot_busy_ns),
            (&mut self.hot_hold_sum_ns, hot_hold_sum_ns),
            (&mut self.hot_holds, hot_holds),
            (&mut self.hot_wait_ns, hot_wait_ns),
            (&mut self.hot_grants, hot_grants),
            (&mut self.hot_queue_ns, hot_queue_ns),
            (&mut self.coordinations, coordinations),
            (&mut self.arrivals, arrivals),
            (&mut self.arrivals_waited, arrivals_waited),
            (&mut self.arrivals_refused, arrivals_refused),
            (&mut self.waiting_ns, waiting_ns),
            (&mut self.aborts, aborts),
            (&mut self.lock_timeouts, lock_timeouts),
            (&mut self.timeout_wait_ns, timeout_wait_ns),
        ] {
            *to += from;
        }
    }

    /// Per data node: busy ns summed over its threads (data-node threads are the first
    /// stations, `threads_per_node` each).
    pub fn node_busy_ns(&self, threads_per_node: usize) -> Vec<u64> {
        let nodes = self.node_messages.len();
        self.station_busy_ns[..nodes * threads_per_node].chunks(threads_per_node).map(|c| c.iter().sum()).collect()
    }

    pub fn committed(&self, kind: TxnKind) -> u64 {
        self.committed[kind.index()]
    }

    pub fn add_committed(&mut self, kind: TxnKind, n: u64) {
        self.committed[kind.index()] += n;
    }

    /// Transactions clients asked for (refills not counted).
    pub fn user_txns(&self) -> u64 {
        TxnKind::ALL.iter().filter(|k| k.is_user()).map(|&k| self.committed(k)).sum()
    }
}

/// Counters of the whole run, warm-up included: what the summary reports as totals.
#[derive(Clone, Debug, Default)]
pub struct Totals {
    /// Events processed.
    pub events: u64,
    /// Ids handed to inserts.
    pub ids_issued: u64,
    /// Ids that will never be issued: cached by a restarted API node, or reserved by a
    /// failed allocator service.
    pub ids_lost: u64,
    /// Ids greater than the id issued just before them anywhere.
    pub ids_in_order: u64,
    /// Transaction attempts aborted by faults or lock wait timeouts (and retried).
    pub aborts: u64,
    /// Of those, attempts aborted after waiting `lockWaitTimeoutMs` for a row lock.
    pub lock_timeouts: u64,
    /// Open arrivals offered (0 in closed loops: the digest then leaves them out).
    pub arrivals: u64,
}

//! The id allocator's flow and the hot row it contends on.
//!
//! An insert into a table without a primary key takes a hidden key from its API node's
//! cached range (`allocator::IdCache`). When the range is empty, the thread that found it
//! so keeps the cache's mutex and runs a *refill*: a separate committed transaction whose
//! one operation is an interpreted update of the table's SYSTAB_0 counter row, `NEXTID +=
//! cacheSize`, reading the old value back. That row's primary replica is the *hot row*:
//! its lock is held for the refill's whole prepare and commit, so refills queue on it.
//!
//! A spec may have several tables taking ids: each has its own counter row and NEXTID
//! (`Ids::next_ids`); the principal's (the first's) is *the* hot row, whose time the
//! metrics account here; the others' are tracked rows as any other (`heat.rs`).
//!
//! Here live the refill's start and end, the counters' advance, and the hot row's time
//! accounting (lock busy time, waiters over time), which the metrics split across windows.

use crate::sim::HotRowLock;
use crate::sim::Simulation;
use crate::time::Ns;
use crate::topology::Topology;
use crate::workload::{self, table, TxnKind};

/// The hot row: the principal SYSTAB_0 counter row's primary replica, with its time
/// accounting.
#[derive(Clone, Debug)]
pub(in crate::sim) struct HotRow {
    /// The SYSTAB_0 row counting the hidden keys of `Tables::table`.
    pub row: u64,
    pub part: u32,
    granted_at_ns: Option<Ns>,
    accounted_from_ns: Ns,
    queue_len: u64,
    queue_since_ns: Ns,
}

impl HotRow {
    /// Whether the row's lock is held now, and how many refills wait for it.
    pub fn lock_now(&self) -> HotRowLock {
        HotRowLock { held: self.granted_at_ns.is_some(), waiting: self.queue_len }
    }

    pub fn new(topo: &Topology, hidden_table: u64) -> HotRow {
        HotRow {
            row: workload::row_key(table::SYSTAB, hidden_table),
            part: topo.partition_of(hidden_table),
            granted_at_ns: None,
            accounted_from_ns: 0,
            queue_len: 0,
            queue_since_ns: 0,
        }
    }
}

/// Each of the `n` tables taking ids' first id: 1, or past the rows a spec's table starts
/// with (NDB's AUTO_INCREMENT counter starts above the greatest key).
pub(super) fn first_ids(w: &crate::config::Workload, n: usize) -> Vec<u64> {
    match w.spec() {
        Some(s) if s.id_table().is_some() => s.id_tables().map(|i| 1 + s.tables[i].rows * s.scale).collect(),
        _ => vec![1; n],
    }
}

/// Each of the `n` tables taking ids: whether its key is an AUTO_INCREMENT column (not a
/// hidden key: InnoDB gives a table without a primary key a row id under no table lock).
pub(super) fn auto_increment(w: &crate::config::Workload, n: usize) -> Vec<bool> {
    match w.spec() {
        Some(s) if s.id_table().is_some() => s.id_tables().map(|i| s.tables[i].key == crate::spec::KeyKind::AutoIncrement).collect(),
        _ => vec![false; n],
    }
}

impl Simulation {
    /// Transaction `parent` found range `cache` empty and holds its mutex: run the refill,
    /// a separate committed transaction on the table's SYSTAB_0 row.
    pub(in crate::sim) fn start_refill(&mut self, parent: u32, cache: u32) {
        let client = self.txns[parent].client;
        let table = self.ids.tables.id_table(self.cache_table(cache));
        let r = self.alloc_txn(TxnKind::REFILL, client);
        let txn = &mut self.txns[r];
        txn.refill = Some(crate::sim::txn::Refill { parent: Some(parent), first: 0, count: 0, applied: false, cache });
        txn.piggyback = true;
        workload::refill(table, &mut txn.prog);
        self.place_ops(r);
        self.next_round(r);
    }

    /// The refill's update got its counter row's lock: it takes the range's size in ids
    /// (`cacheSize`, or more as a growing cache grows). The principal counter row's time
    /// is accounted as the hot row's.
    pub(in crate::sim) fn counter_row_locked(&mut self, t: u32, waited: Ns) {
        let refill = self.txns[t].refill.expect("only refills lock a counter row");
        if self.cache_table(refill.cache) == 0 {
            self.hot_row_granted(waited);
        }
        let (first, count) = self.take_from_counter(refill.cache, refill.parent);
        let refill = self.txns[t].refill.as_mut().expect("only refills lock a counter row");
        refill.first = first;
        refill.count = count;
        refill.applied = true;
    }

    /// Takes the next range of `cache`'s table from its counter: the cache's next size, or
    /// the rows the statement of `parent` (the insert that found the range empty) inserts
    /// when mysqld prefetches for it. Returns the range's first id and its size.
    pub(super) fn take_from_counter(&mut self, cache: u32, parent: Option<u32>) -> (u64, u64) {
        let k = self.cache_table(cache);
        let statement = match parent {
            Some(p) if self.ids.statement_prefetch && self.ids.auto_increment[k] => self.statement_rows(p, k),
            _ => 0,
        };
        let sizing = self.sizing(cache);
        let count = self.ids.cache(cache).range_size(sizing).max(statement);
        let first = self.ids.next_ids[k];
        self.ids.next_ids[k] += count;
        (first, count)
    }

    /// Which table taking ids (0 the principal) cached range `cache` is of.
    pub(in crate::sim) fn cache_table(&self, cache: u32) -> usize {
        self.ids.ranges().expect("a range strategy").split(cache).1 as usize
    }

    /// Rows the current statement (round) of transaction `p` inserts into id table `k`.
    fn statement_rows(&self, p: u32, k: usize) -> u64 {
        let txn = &self.txns[p];
        let table = self.ids.tables.id_table(k);
        txn.ops[txn.round_ops()].iter().filter(|o| o.write && workload::table_of(o.row) == table).count() as u64
    }

    /// The principal counter row's lock is granted, after a wait of `waited` ns: its hold
    /// is the hot row's busy time from now.
    pub(in crate::sim) fn hot_row_granted(&mut self, waited: Ns) {
        self.metrics.count(self.now_ns, |c| {
            c.hot_grants += 1;
            c.hot_wait_ns += waited;
        });
        self.ids.hot.granted_at_ns = Some(self.now_ns);
        self.ids.hot.accounted_from_ns = self.now_ns;
    }

    /// The counter row's lock is released (commit, or abort).
    pub(in crate::sim) fn counter_row_released(&mut self) {
        let granted = self.ids.hot.granted_at_ns.take().expect("hot row released while not held");
        let from = self.ids.hot.accounted_from_ns;
        self.metrics.span(from, self.now_ns, |c, ns| c.hot_busy_ns += ns);
        let hold = self.now_ns - granted;
        self.metrics.count(self.now_ns, |c| {
            c.hot_holds += 1;
            c.hot_hold_sum_ns += hold;
        });
    }

    /// The aborted refill `t` still holds the counter row's lock, so nobody read the value
    /// its update wrote: put it back.
    pub(in crate::sim) fn undo_counter_update(&mut self, t: u32) {
        if let Some(refill) = self.txns[t].refill.filter(|r| r.applied) {
            let k = self.cache_table(refill.cache);
            self.ids.next_ids[k] = refill.first;
            self.txns[t].refill.as_mut().expect("a refill").applied = false;
        }
    }

    /// The refill committed: its range reaches the cache it was fetched for.
    pub(in crate::sim) fn refill_committed(&mut self, r: u32) {
        let (restarts, started) = (self.txns[r].api_restarts, self.txns[r].started_ns);
        let refill = self.txns[r].refill.expect("a refill carries its range");
        self.mutex_waited(refill.cache, self.txns[r].blocked_ns, self.txns[r].queued_ns);
        self.range_arrived(refill.cache, refill.parent, refill.first, refill.count, restarts, started);
    }

    // ---- the hot row's time accounting ----------------------------------------------------

    /// Chain position `replica` of `row` is the hot row.
    pub(in crate::sim) fn is_hot(&self, replica: u32, row: u64) -> bool {
        replica == 0 && row == self.ids.hot.row
    }

    /// The hot row's wait queue grew or shrank by `delta`.
    pub(in crate::sim) fn hot_queue_change(&mut self, delta: i64) {
        let len = self.ids.hot.queue_len;
        self.metrics.span(self.ids.hot.queue_since_ns, self.now_ns, move |c, ns| c.hot_queue_ns += len * ns);
        self.ids.hot.queue_since_ns = self.now_ns;
        self.ids.hot.queue_len = (len as i64 + delta) as u64;
    }

    /// The counter row's primary failed: its lock and queue went with it (the refills
    /// holding or waiting for them abort or are taken over). Account the spans up to now.
    pub(in crate::sim) fn hot_row_lost(&mut self) {
        self.flush_hot_spans();
        self.ids.hot.granted_at_ns = None;
        self.ids.hot.queue_len = 0;
    }

    /// Accounts the hot row's open spans (its hold and its queue) up to now, so that a
    /// span crossing windows is split between them.
    pub(in crate::sim) fn flush_hot_spans(&mut self) {
        self.hot_queue_change(0);
        if self.ids.hot.granted_at_ns.is_some() {
            let from = self.ids.hot.accounted_from_ns;
            self.metrics.span(from, self.now_ns, |c, ns| c.hot_busy_ns += ns);
            self.ids.hot.accounted_from_ns = self.now_ns;
        }
    }
}

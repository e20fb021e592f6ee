//! InnoDB's own lock manager (`innodb`): how a released row is handed over, and the
//! deadlock search at each new wait. Its commit (locks released, then the redo log's group
//! flush) is the log's, in `server.rs`; which engine uses what is `engine.rs`.
//!
//! **Hand-over.** When a transaction commits, InnoDB releases its record locks at once
//! (`trx_commit_in_memory`, before the log flush) and, for each released row, passes over
//! the row's lock queue: it grants the waiter chosen by `server.lockGrant` and points
//! every other waiter at its new holder (`lock_rec_dequeue_from_page`, `lock_grant`).
//! Here the row is the grantee's from the release; the pass costs `server.grantNs` per
//! waiter left, and the grantee runs again `server.wakeUs` later (its event set, the
//! scheduler waking it), queued for a core with every other thread. So each hand-over's
//! cost grows with the queue, and past the peak the row's throughput falls slowly.
//!
//! **CATS.** MySQL 8.0 grants a released row to the waiter whose transaction blocks the
//! most others; here its weight is the number of requests waiting for rows it holds, and
//! equal weights go in order (so a workload of one-row transactions runs FIFO either way).
//!
//! **Deadlock search.** Each new lock wait searches for a deadlock from the new waiter
//! (`server.deadlockSearch`; `off` is `innodb_deadlock_detect = OFF`), `server.deadlockNs`
//! of CPU per step, and a cycle rolls the new waiter back. MariaDB 10.6 and later
//! (`holders`) follow each waiter's one holder: one step on a hot row. MySQL 5.7 (`graph`)
//! walks the wait-for graph, here one step per request ahead of it in the row's queue, and
//! counts a search that would visit more than 200 transactions as a deadlock
//! (`LOCK_MAX_DEPTH_IN_DEADLOCK_CHECK`) rather than search on, so a queue longer than 200
//! turns its newcomers away.

use super::autoinc::AUTOINC_OP;
use super::event::MsgKind;
use super::server::waiter_key;
use super::Simulation;
use crate::config::{DeadlockSearch, LockGrant};
use crate::locks::{Owner, RowReplica};
use crate::time::{self, Ns};
use crate::topology::Host;

/// A search visiting more transactions than this counts as a deadlock.
pub(super) const MAX_SEARCH: usize = 200;

impl Simulation {
    /// Which waiter of `row` gets it when its holder releases it: the first, or under
    /// CATS the one whose transaction blocks the most others (the first of equals).
    #[inline]
    pub(super) fn pick_waiter(&self, row: RowReplica) -> usize {
        if self.cfg.engine != crate::config::Engine::Innodb || self.cfg.server.lock_grant == LockGrant::Fifo {
            return 0;
        }
        if crate::workload::table_of(row.row) == crate::workload::table::SYSTAB {
            return 0; // The AUTO-INC table lock is granted in order: CATS is for record locks.
        }
        self.cats_pick(row)
    }

    /// CATS: the waiter of `row` whose transaction blocks the most others.
    fn cats_pick(&self, row: RowReplica) -> usize {
        let mut best = (0, 0);
        for (i, (w, _)) in self.locks.waiters(row).enumerate() {
            let weight = self.blocked_by(w.txn);
            if weight > best.1 {
                best = (i, weight);
            }
        }
        best.0
    }

    /// How many requests wait for rows that `t` holds.
    fn blocked_by(&self, t: u32) -> usize {
        let node = self.topo.host_of(self.txns[t].tc);
        self.txns[t]
            .ops
            .iter()
            .filter(|o| o.dispatched && o.write)
            .map(|o| RowReplica { node, row: o.row })
            .filter(|&row| self.locks.holder(row) == Some(t))
            .map(|row| self.locks.queue_len(row))
            .sum()
    }

    /// `row` on `host` was granted to `next`, waiting since `since`: the releaser's pass
    /// over the waiters left, then `next` wakes and queues for a core.
    pub(super) fn hand_over(&mut self, next: Owner, since: Ns, row: u64, host: Host) {
        let (t, op) = (next.txn, next.op as usize);
        if op == AUTOINC_OP && self.is_hot(0, row) {
            self.hot_row_granted(self.now_ns - since); // The lock is the grantee's from now, its wake-up too.
        }
        self.txns[t].handover_waiters = self.locks.queue_len(RowReplica { node: host, row }) as u32;
        self.server.rechecking.insert(waiter_key(t, op), since);
        let to = self.lock_station(t, op);
        let msg = self.msg_op(MsgKind::Resume, t, op, 0);
        match self.cfg.server.wake_us {
            0 => self.enqueue(to, msg),
            us => self.arrive_at(self.now_ns + time::from_us(us), host, to, msg),
        }
    }

    /// The waiter handed a row (or its table's AUTO-INC lock) runs again, holding it.
    pub(super) fn resumed(&mut self, t: u32, op: usize, host: Host) {
        let since = self.server.rechecking.remove(&waiter_key(t, op)).unwrap_or(self.now_ns);
        if op == AUTOINC_OP {
            self.autoinc_locked(t, host, self.now_ns - since);
        } else {
            self.locked(t, op, 0, host, self.now_ns - since);
        }
    }

    /// Operation `op` of `t` queued behind `ahead` requests: the deadlock search, on the
    /// server's CPU; a cycle, or under `graph` more than `MAX_SEARCH` waiters to visit,
    /// rolls `t` back.
    pub(super) fn search_deadlock(&mut self, t: u32, op: usize, ahead: usize) {
        let graph = self.cfg.server.deadlock_search == DeadlockSearch::Graph;
        let steps = if graph { ahead.min(MAX_SEARCH + 1) } else { 1 };
        if (graph && ahead > MAX_SEARCH) || self.cycle_of(t).is_some() {
            self.count_aborted_wait(t);
            self.abort_txn(t, true);
        }
        let to = self.lock_station(t, op);
        let msg = self.msg_op(MsgKind::DeadlockSearch, t, steps, 0);
        self.enqueue(to, msg);
    }
}

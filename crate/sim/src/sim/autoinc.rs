//! InnoDB's AUTO-INC table lock under `innodb_autoinc_lock_mode` 0 (`server.autoincLockMode`,
//! "traditional"): an INSERT into a table with an AUTO_INCREMENT column takes the table's
//! AUTO-INC lock when it starts to execute and holds it to the statement's end, not to the
//! commit (`row_lock_table_autoinc_for_mysql`, released by `row_unlock_table_autoinc_for_mysql`
//! as the statement ends). Here the statement starts when its round reaches the server's TC,
//! its parse and plan paid (TCKEYREQ's CPU), and ends when the round's last row is written
//! (the round settles), so the lock is held over the row writes and every wait for a core
//! between them.
//!
//! A waiter queues in InnoDB's lock system as a row lock's waiter does (`innodb.rs`): a
//! release hands the lock to one waiter (`server.lockGrant`) after the releaser's pass over
//! the queue (`server.grantNs` per waiter), the grantee runs again `server.wakeUs` later, and
//! a new wait searches for a deadlock. The lock is the table's counter row's in the lock
//! table, so its accounting, the heat and the explanation name it as the engine has it ("the
//! AUTO_INCREMENT counter of `items`"), and its waits are a lock queue's. Modes 1 and 2 take
//! the id under a mutex held for microseconds, not modelled (`ids/mod.rs` `take_in_server`).

use super::lqh::Marks;
use super::Simulation;
use crate::config::Engine;
use crate::locks::{Acquire, Owner, RowReplica};
use crate::time::Ns;
use crate::topology::{Host, StationId};
use crate::workload::{self, table};

/// The operation index a request for the AUTO-INC lock carries in the lock table: none of
/// the transaction's operations (a transaction has fewer).
pub(super) const AUTOINC_OP: usize = u16::MAX as usize;

/// The AUTO-INC lock a transaction's current INSERT is to take (noted as its round is
/// prepared, `at.node` set when it asks at the server), waits for or holds.
#[derive(Clone, Copy, Debug)]
pub(super) struct AutoInc {
    pub at: RowReplica,
    /// The transaction's waits elsewhere when it asked for the lock, then when it got it.
    pub marks: Marks,
}

impl Simulation {
    /// `t`'s round is prepared: under `innodb` in mode 0, an INSERT taking ids from its
    /// table's AUTO_INCREMENT counter (its program says so; a retry keeps the ids it had,
    /// and takes the lock again) will hold the table's AUTO-INC lock, the counter row in the
    /// lock table. A hidden key is InnoDB's row id, under no table lock.
    #[inline]
    pub(super) fn note_autoinc(&mut self, t: u32) {
        if self.cfg.engine == Engine::Innodb && self.cfg.server.autoinc_lock_mode == 0 {
            self.note_autoinc_row(t);
        }
    }

    /// (The engine and the mode said yes: the rest of `Config::autoinc_table_lock`, for the
    /// table this INSERT takes ids for, which need not be the principal one.)
    #[inline(never)]
    fn note_autoinc_row(&mut self, t: u32) {
        if !self.cfg.allocator.traits().counter_row || self.cfg.primary_key {
            return;
        }
        let txn = &self.txns[t];
        let table = txn.prog.ops[txn.round_ops()].iter().find(|o| o.needs_id).map(|o| workload::table_of(o.row));
        let auto_increment = |table: u64| self.ids.tables.id_index(table).is_some_and(|k| self.ids.auto_increment[k]);
        let row = table.filter(|&t| auto_increment(t)).map(|t| workload::row_key(table::SYSTAB, t));
        self.txns[t].autoinc = row.map(|row| AutoInc { at: RowReplica { node: 0, row }, marks: Marks { blocked: 0, queued: 0 } });
    }

    /// The AUTO-INC lock `t`'s round on `host` must hold before it runs, if any.
    #[inline]
    pub(super) fn autoinc_lock_of(&self, t: u32, host: Host) -> Option<RowReplica> {
        self.txns[t].autoinc.map(|a| RowReplica { node: host, row: a.at.row })
    }

    /// `t`'s statement starts: it asks for the AUTO-INC lock `at`, and runs once it holds it.
    #[inline(never)]
    pub(super) fn lock_autoinc(&mut self, t: u32, at: RowReplica) {
        let class = crate::waits::class(self.txns[t].kind, true);
        let owner = Owner { txn: t, op: AUTOINC_OP as u16, replica: 0, class };
        let txn = &mut self.txns[t];
        txn.autoinc = Some(AutoInc { at, marks: Marks { blocked: txn.blocked_ns, queued: txn.queued_ns } });
        if !self.txns[t].retried {
            self.metrics.row_requested(at.row);
        }
        match self.locks.acquire(at, owner, self.now_ns) {
            Acquire::Granted => {
                if self.is_hot(0, at.row) {
                    self.hot_row_granted(0);
                }
                self.autoinc_locked(t, at.node, 0);
            }
            Acquire::Queued(ahead) => {
                if self.is_hot(0, at.row) {
                    self.hot_queue_change(1);
                }
                self.lock_wait_begins(t, AUTOINC_OP, ahead);
            }
        }
    }

    /// `t` holds its AUTO-INC lock, after waiting `waited` ns for it (to its grant and its
    /// wake-up): its round runs. (The hot row's hold began at the grant: `hand_over`.)
    #[inline(never)]
    pub(super) fn autoinc_locked(&mut self, t: u32, host: Host, waited: Ns) {
        let txn = &mut self.txns[t];
        txn.blocked_ns += waited;
        let marks = Marks { blocked: txn.blocked_ns, queued: txn.queued_ns };
        txn.autoinc.as_mut().expect("a transaction granted the AUTO-INC lock asked for it").marks = marks;
        self.dispatch_round(t, host);
    }

    /// `t`'s statement ended, or `t` aborts: its AUTO-INC lock goes to the next waiter, or
    /// its wait for it ends.
    #[inline(never)]
    pub(super) fn end_autoinc(&mut self, t: u32) {
        let Some(a) = self.txns[t].autoinc.take() else { return };
        if self.locks.holder(a.at) == Some(t) {
            self.release_lock(t, a.at, 0, a.marks);
        } else if self.locks.remove_waiter(a.at, t, self.now_ns) && self.is_hot(0, a.at.row) {
            self.hot_queue_change(-1);
        }
    }

    /// How long `t` has waited for its AUTO-INC lock (0 if it waits for none).
    pub(super) fn autoinc_waited_ns(&self, t: u32) -> Ns {
        let waiting = self.txns[t].autoinc.and_then(|a| self.locks.waiting(a.at, t));
        waiting.map_or(0, |since| self.now_ns - since)
    }

    /// The station that serves the lock work (a wake-up, a deadlock search) of `t`'s
    /// operation `op`: its row's, or for the AUTO-INC lock its statement's, the TC's.
    #[inline]
    pub(super) fn lock_station(&self, t: u32, op: usize) -> StationId {
        if op == AUTOINC_OP {
            self.txns[t].tc
        } else {
            self.op_station(t, op, 0)
        }
    }
}

//! DBLQH, the local query handler of each replica: it takes row locks (FIFO waiters),
//! applies operations, passes writes down the replica chain, and applies COMMIT and
//! COMPLETE as they come back up.
//!
//! Reads under READ COMMITTED stop at the primary and take no lock. A write locks the row
//! at every replica: the primary's lock goes at COMMIT, a backup's at COMPLETE.

use super::event::MsgKind;
use super::txn::COPIED;
use super::Simulation;
use crate::heat::Hold;
use crate::locks::{Acquire, Owner, RowReplica};
use crate::time::Ns;
use crate::topology::Host;
use crate::workload::{self, table};

/// A transaction's waits elsewhere (`Txn::blocked_ns`, `Txn::queued_ns`) when it got a
/// lock: what it waited for while holding the lock is the difference at the release.
#[derive(Clone, Copy, Debug)]
pub(super) struct Marks {
    pub blocked: u64,
    pub queued: u64,
}

impl Simulation {
    /// LQHKEYREQ at chain position `replica` on data node `host`.
    pub(super) fn lqh_key_req(&mut self, t: u32, op: usize, replica: u32, host: Host) {
        let o = self.txns[t].ops[op];
        if !o.write {
            let tc = self.txns[t].tc;
            self.send(host, tc, self.msg_op(MsgKind::LqhKeyConf, t, op, 0));
            return;
        }
        let row = RowReplica { node: host, row: o.row };
        let class = crate::waits::class(self.txns[t].kind, o.insert);
        let owner = Owner { txn: t, op: op as u16, replica: replica as u8, class };
        if replica == 0 && !self.txns[t].retried {
            self.metrics.row_requested(o.row);
        }
        match self.locks.acquire(row, owner, self.now_ns) {
            Acquire::Granted => {
                if self.cfg.engine.one_server() {
                    self.taken_in_hand_off(row);
                }
                self.locked(t, op, replica, host, 0)
            }
            Acquire::Queued(ahead) => {
                if self.is_hot(replica, o.row) {
                    self.hot_queue_change(1);
                }
                self.lock_wait_begins(t, op, ahead);
            }
        }
    }

    /// The operation holds its row lock at `replica` (after waiting `waited` ns): apply
    /// it and pass it down the replica chain, or confirm to the TC from the last replica.
    pub(super) fn locked(&mut self, t: u32, op: usize, replica: u32, host: Host, waited: Ns) {
        let txn = &mut self.txns[t];
        txn.blocked_ns += waited;
        if replica == 0 {
            txn.ops[op].blocked_mark = txn.blocked_ns;
            txn.ops[op].queued_mark = txn.queued_ns;
        }
        let o = self.txns[t].ops[op];
        if replica == 0 && workload::table_of(o.row) == table::SYSTAB {
            self.counter_row_locked(t, waited); // A refill: of the principal counter row, or another's.
        }
        self.replicate(t, op, replica, host);
    }

    /// Passes operation `op` down its replica chain from `replica`, or confirms it to the
    /// TC from the last replica.
    pub(super) fn pass_down(&mut self, t: u32, op: usize, replica: u32, host: Host) {
        if replica + 1 < self.txns[t].ops[op].chain_len as u32 {
            let to = self.op_station(t, op, replica + 1);
            self.send(host, to, self.msg_op(MsgKind::LqhKeyReq, t, op, replica + 1));
        } else {
            let tc = self.txns[t].tc;
            self.send(host, tc, self.msg_op(MsgKind::LqhKeyConf, t, op, 0));
        }
    }

    /// Releases `t`'s lock on its operation's row at data node `host`; the next waiter gets it.
    pub(super) fn unlock(&mut self, t: u32, op: usize, replica: u32, host: Host) {
        let o = self.txns[t].ops[op];
        self.release_lock(t, RowReplica { node: host, row: o.row }, replica, Marks { blocked: o.blocked_mark, queued: o.queued_mark });
    }

    /// Releases `t`'s lock on `at`, held at chain position `replica` since `t`'s waits
    /// elsewhere were `marks`: its hold is accounted, and the next waiter gets the row.
    pub(super) fn release_lock(&mut self, t: u32, at: RowReplica, replica: u32, marks: Marks) {
        let hot = self.is_hot(replica, at.row);
        if hot {
            self.counter_row_released();
        }
        let wake_all = self.wakes_all();
        let host = at.node;
        let released = if wake_all {
            self.locks.release_all(at, t, self.now_ns)
        } else {
            let pick = self.pick_waiter(at);
            self.locks.release(at, t, self.now_ns, pick)
        };
        if replica == 0 {
            let txn = &self.txns[t];
            let hold = Hold {
                held_ns: self.now_ns - released.held_since_ns,
                blocked_ns: txn.blocked_ns - marks.blocked,
                queued_ns: txn.queued_ns - marks.queued,
            };
            self.metrics.row_held(at.row, host, hold, released.holder_class, self.locks.wait_parts(), self.now_ns);
        }
        if let Some((next, since)) = released.next {
            if next.replica == 0 {
                self.metrics.row_waited(at.row, self.now_ns);
            }
            if hot {
                self.hot_queue_change(-1);
            }
            self.granted(next, since, at.row, host);
        }
        if wake_all {
            self.wake_waiters(at.row, host, hot);
        }
    }

    /// COMMIT at chain position `r`: applied, passed up towards the primary, which
    /// releases its lock and reports COMMITTED to the TC.
    pub(super) fn lqh_commit(&mut self, t: u32, op: usize, r: u32, host: Host) {
        self.apply_commit(t, op, r);
        if r == 0 {
            self.unlock(t, op, 0, host);
            let tc = self.txns[t].tc;
            self.send(host, tc, self.msg_op(MsgKind::Committed, t, op, 0));
        } else {
            let to = self.op_station(t, op, r - 1);
            self.send(host, to, self.msg_op(MsgKind::Commit, t, op, r - 1));
        }
    }

    /// COMPLETE at backup position `r`: its lock goes; passed up to the first backup,
    /// which reports COMPLETED.
    pub(super) fn lqh_complete(&mut self, t: u32, op: usize, r: u32, host: Host) {
        self.unlock(t, op, r, host);
        if r > 1 {
            let to = self.op_station(t, op, r - 1);
            self.send(host, to, self.msg_op(MsgKind::Complete, t, op, r - 1));
        } else {
            let tc = self.txns[t].tc;
            self.send(host, tc, self.msg_op(MsgKind::Completed, t, op, 0));
        }
    }

    /// The commit of operation `op` is applied at chain position `r`.
    pub(super) fn apply_commit(&mut self, t: u32, op: usize, r: u32) {
        let o = &mut self.txns[t].ops[op];
        if o.applied & (1 << r) == 0 {
            o.applied |= 1 << r;
            let (part, node) = (o.part, o.chain[r as usize] as Host);
            self.place.applied(&self.topo, part, node);
            if r == 0 {
                self.copy_to_recovering(t, op);
                if let Some(refill) = &mut self.txns[t].refill {
                    refill.applied = false; // Committed: no longer undoable.
                }
            }
        }
    }

    /// A node that rejoined after this operation was prepared is not in its chain; node
    /// recovery copies the committed row to it, as NDB's copy phase does.
    pub(super) fn copy_to_recovering(&mut self, t: u32, op: usize) {
        let o = &mut self.txns[t].ops[op];
        if o.applied & COPIED != 0 {
            return;
        }
        o.applied |= COPIED;
        let o = *o;
        for i in 0..self.topo.replicas {
            let node = self.topo.group_node(o.part, i);
            if self.place.alive(node) && !o.chain[..o.chain_len as usize].contains(&(node as u8)) {
                self.place.applied(&self.topo, o.part, node);
            }
        }
    }
}

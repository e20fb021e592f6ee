//! The one-server engines' log (`postgres`, `innodb`): group commit; and PostgreSQL's
//! hand-off of a released row to every waiter. Which engine uses what is `engine.rs`.
//!
//! **Group commit.** A commit waits for a flush of the log that covers its record
//! (`server.flushUs`). While a flush runs, the commits that arrive wait for the next one,
//! which then covers them all: one flush per group, however large (PostgreSQL's
//! `XLogFlush` under `WALWriteLock`, InnoDB's `log_write_up_to`). PostgreSQL holds the
//! row locks until the flush is done; InnoDB releases them before it.
//!
//! **Wake every waiter.** A contended UPDATE in PostgreSQL takes the tuple lock, then
//! waits on the holder's transaction id; when the holder ends, its waiters wake, take
//! their locks again and re-check the row (README.tuplock, `heap_update`). Here a release
//! wakes every waiter of the row (`LockTable::release_all`); each runs again
//! `server.wakeUs` later (its semaphore posted, the scheduler waking it) and spends
//! `server.recheckNs` of the server's CPU re-checking, in the run queue with every other
//! backend; the first to re-check takes the row and the others queue again. So each
//! hand-off costs CPU per waiter, and past a few clients the row's throughput falls.

use super::event::{Event, MsgKind};
use super::txn::Phase;
use super::Simulation;
use crate::locks::{Acquire, FastMap, Owner, RowReplica};
use crate::time::{self, Ns};
use crate::topology::Host;
use crate::workload::TxnKind;

/// The log and the woken waiters.
#[derive(Clone, Debug, Default)]
pub(super) struct Server {
    /// A flush is running, for the commits in `flushing` (transaction, generation).
    busy: bool,
    flushing: Vec<(u32, u32)>,
    /// Commits waiting for the next flush.
    next: Vec<(u32, u32)>,
    /// Woken waiters on their way to re-check their row (`postgres`) or to go on with it
    /// (`innodb`): since when each has waited, by transaction and operation.
    pub rechecking: FastMap<u64, Ns>,
    /// Rows whose waiters were woken and none has taken yet, since when: the hand-off is
    /// the row's busy time when a woken waiter takes it (nobody else does meanwhile but a
    /// newcomer, whose grant ends it).
    handing: FastMap<u64, Ns>,
}

impl Server {
    pub fn memory_bytes(&self) -> usize {
        (self.flushing.capacity() + self.next.capacity()) * 8 + (self.rechecking.capacity() + self.handing.capacity()) * 24
    }
}

pub(super) fn waiter_key(t: u32, op: usize) -> u64 {
    (t as u64) << 16 | op as u64
}

impl Simulation {
    /// The commit decision under a one-server engine: a transaction that wrote waits for
    /// the log flush covering it; one that only read, or an id refill (not
    /// transactional), commits at once. Its row locks go after the flush
    /// (`locks_after_flush`: PostgreSQL, whose waiters wait on the transaction id until it
    /// is durable) or before it (InnoDB: committed in memory, then the log is flushed).
    pub(super) fn log_commit(&mut self, t: u32, host: Host, locks_after_flush: bool) {
        let txn = &mut self.txns[t];
        txn.phase = Phase::Commit;
        if txn.kind == TxnKind::REFILL || !txn.ops.iter().any(|o| o.write) {
            self.server_committed(t, host);
            return;
        }
        if !locks_after_flush {
            self.release_writes(t, host);
        }
        self.server.next.push((t, self.txns[t].generation));
        if !self.server.busy {
            self.start_flush();
        }
    }

    fn start_flush(&mut self) {
        let s = &mut self.server;
        std::mem::swap(&mut s.flushing, &mut s.next);
        s.busy = true;
        self.queue.push(self.now_ns + time::from_us(self.cfg.server.flush_us), Event::Flushed);
    }

    /// The flush is done: its commits go on, and the commits that came meanwhile start
    /// the next one.
    pub(super) fn flushed(&mut self) {
        let group = std::mem::take(&mut self.server.flushing);
        for &(t, generation) in &group {
            if self.txns[t].generation == generation {
                let host = self.topo.host_of(self.txns[t].tc);
                self.server_committed(t, host);
            }
        }
        self.server.flushing = group;
        self.server.flushing.clear();
        self.server.busy = false;
        if !self.server.next.is_empty() {
            self.start_flush();
        }
    }

    /// The transaction is durable: its writes not yet released are applied and their
    /// locks go, and the client is told.
    fn server_committed(&mut self, t: u32, host: Host) {
        self.release_writes(t, host);
        let api = self.topo.api_station(self.txns[t].api);
        self.send(host, api, self.msg(MsgKind::TcCommitConf, t));
        self.tc_finished(t);
    }

    /// Applies the transaction's writes and releases their locks (once: a write already
    /// applied was released before).
    fn release_writes(&mut self, t: u32, host: Host) {
        for i in 0..self.txns[t].ops.len() {
            let o = self.txns[t].ops[i];
            if o.write && o.applied & 1 == 0 {
                self.apply_commit(t, i, 0);
                self.unlock(t, i, 0, host);
            }
        }
        self.count_committed_writes(t);
    }

    /// `release_all` woke the waiters of `row` on `host`: each goes to re-check it on the
    /// server's CPU.
    pub(super) fn wake_waiters(&mut self, row: u64, host: Host, hot: bool) {
        let mut woken = std::mem::take(&mut self.locks.woken);
        if !woken.is_empty() {
            self.server.handing.insert(row, self.now_ns); // One server: a row is its key.
        }
        for &(w, since) in &woken {
            self.server.rechecking.insert(waiter_key(w.txn, w.op as usize), since);
            if hot {
                self.hot_queue_change(-1);
            }
            let to = self.op_station(w.txn, w.op as usize, 0);
            let msg = self.msg_op(MsgKind::Recheck, w.txn, w.op as usize, 0);
            match self.cfg.server.wake_us {
                0 => self.enqueue(to, msg),
                us => self.arrive_at(self.now_ns + time::from_us(us), host, to, msg),
            }
        }
        woken.clear();
        self.locks.woken = woken;
    }

    /// A newcomer took `row` during a hand-off: the hand-off ends without counting.
    pub(super) fn taken_in_hand_off(&mut self, row: RowReplica) {
        self.server.handing.remove(&row.row);
    }

    /// A woken waiter re-checks its row: it takes it if it is free, else queues again,
    /// keeping its first wait's start.
    pub(super) fn recheck(&mut self, t: u32, op: usize, host: Host) {
        let since = self.server.rechecking.remove(&waiter_key(t, op)).unwrap_or(self.now_ns);
        let o = self.txns[t].ops[op];
        let class = crate::waits::class(self.txns[t].kind, o.insert);
        let owner = Owner { txn: t, op: op as u16, replica: 0, class };
        let at = RowReplica { node: host, row: o.row };
        match self.locks.acquire_since(at, owner, self.now_ns, since) {
            Acquire::Granted => {
                if let Some(from) = self.server.handing.remove(&o.row) {
                    self.locks.backdate(at, from);
                }
                self.metrics.row_waited(o.row, self.now_ns);
                self.locked(t, op, 0, host, self.now_ns - since);
            }
            Acquire::Queued(_) => {
                if self.is_hot(0, o.row) {
                    self.hot_queue_change(1);
                }
            }
        }
    }
}

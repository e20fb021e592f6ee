//! Raft (`raft`): ranges replicated by Raft, in the style of CockroachDB, TiDB and
//! YugabyteDB. Which engine uses what is `engine.rs`.
//!
//! **Ranges.** A range is a partition, its replicas a node group's nodes; its primary is
//! the range's leaseholder and Raft leader. Each node is one pool of `server.cores`.
//!
//! **A write.** The leaseholder takes the row's lock (its latch, then its intent: the row
//! lock of `locks.rs`) and proposes the write to the range's Raft group: it appends it to
//! its own log and sends it to each follower, which appends it to its log; each log is
//! flushed in groups (`server.flushUs`: a flush covers every append that arrived during the
//! one before). The write is replicated when a majority of copies (the leader's included)
//! are durable; the leader then confirms it to the transaction's coordinator.
//!
//! **Commit.** A transaction of one round whose writes are all in one range commits in that
//! round (one-phase commit: its write's latch is held through its replication and goes when
//! it is applied). Any other commits in parallel: its transaction record is written beside
//! its last writes (not modelled apart: it costs no wait), the client is told at once, and
//! then each write's intent is resolved: one more Raft round on its range, after which its
//! lock goes. So a hot row is held for at least two rounds of replication.
//!
//! **Push.** A waiter that has waited longer than `server.pushDelayUs` pushes the holder:
//! it waits in the holder's transaction record's queue instead of the row's lock queue.
//! When the holder finishes, the pusher learns it there and resolves the holder's intent
//! itself before it takes the row (here a round trip, a log flush and `server.pushNs` of
//! CPU): a hand-over that costs more once waits grow past the delay, which makes waits grow
//! further (CockroachDB PR #50161).

use super::event::{Event, MsgKind};
use super::server::waiter_key;
use super::txn::Phase;
use super::Simulation;
use crate::locks::Owner;
use crate::time::{self, Ns};
use crate::topology::Host;

/// Each node's Raft log (indexed by data node).
#[derive(Clone, Debug, Default)]
pub(super) struct RaftLogs {
    logs: Vec<NodeLog>,
}

#[derive(Clone, Debug, Default)]
struct NodeLog {
    busy: bool,
    flushing: Vec<Entry>,
    next: Vec<Entry>,
}

/// One appended entry: a transaction's operation at one replica of its range.
#[derive(Clone, Copy, Debug)]
struct Entry {
    t: u32,
    generation: u32,
    op: u16,
    replica: u8,
}

impl RaftLogs {
    pub fn memory_bytes(&self) -> usize {
        self.logs.iter().map(|l| (l.flushing.capacity() + l.next.capacity()) * std::mem::size_of::<Entry>()).sum::<usize>()
            + self.logs.capacity() * std::mem::size_of::<NodeLog>()
    }
}

impl Simulation {
    /// The leaseholder holds operation `op`'s row: propose it (a write, or its intent's
    /// resolution) to its range's Raft group.
    pub(super) fn propose(&mut self, t: u32, op: usize, host: Host) {
        let txn = &mut self.txns[t];
        txn.ops[op].acks = 0;
        let (generation, chain_len) = (txn.generation, txn.ops[op].chain_len);
        self.append(host, Entry { t, generation, op: op as u16, replica: 0 });
        for r in 1..chain_len as u32 {
            let to = self.op_station(t, op, r);
            self.send(host, to, self.msg_op(MsgKind::RaftAppend, t, op, r));
        }
    }

    /// A follower got an entry of operation `op` (its copy `r`): it appends it to its log.
    pub(super) fn raft_append(&mut self, t: u32, op: usize, r: u32, host: Host) {
        let generation = self.txns[t].generation;
        self.append(host, Entry { t, generation, op: op as u16, replica: r as u8 });
    }

    fn append(&mut self, node: Host, e: Entry) {
        let logs = &mut self.raft.logs;
        if logs.len() <= node as usize {
            logs.resize_with(node as usize + 1, NodeLog::default);
        }
        logs[node as usize].next.push(e);
        if !logs[node as usize].busy {
            self.start_log_flush(node);
        }
    }

    fn start_log_flush(&mut self, node: Host) {
        let log = &mut self.raft.logs[node as usize];
        std::mem::swap(&mut log.flushing, &mut log.next);
        log.busy = true;
        self.queue.push(self.now_ns + time::from_us(self.cfg.server.flush_us), Event::LogFlushed { node });
    }

    /// Node `node`'s log flush is done: the leader's own copies count, the followers'
    /// acknowledge to their leaders, and the appends that came meanwhile start the next.
    pub(super) fn log_flushed(&mut self, node: Host) {
        let group = std::mem::take(&mut self.raft.logs[node as usize].flushing);
        for e in &group {
            if self.txns[e.t].generation != e.generation {
                continue;
            }
            let op = e.op as usize;
            if e.replica == 0 {
                self.raft_acked(e.t, op, node);
            } else {
                let leader = self.op_station(e.t, op, 0);
                self.send(node, leader, self.msg_op(MsgKind::RaftAck, e.t, op, e.replica as u32));
            }
        }
        let log = &mut self.raft.logs[node as usize];
        log.flushing = group;
        log.flushing.clear();
        log.busy = false;
        if !log.next.is_empty() {
            self.start_log_flush(node);
        }
    }

    /// One more durable copy of operation `op`'s entry at its leader: at a majority the
    /// write is replicated (confirmed to the coordinator) or the intent resolved (applied,
    /// its lock gone, reported to the coordinator).
    pub(super) fn raft_acked(&mut self, t: u32, op: usize, host: Host) {
        let o = &mut self.txns[t].ops[op];
        o.acks += 1;
        if o.acks as u32 != o.chain_len as u32 / 2 + 1 {
            return;
        }
        let tc = self.txns[t].tc;
        if self.txns[t].phase == Phase::Prepare {
            self.send(host, tc, self.msg_op(MsgKind::LqhKeyConf, t, op, 0));
            return;
        }
        self.apply_everywhere(t, op);
        self.unlock(t, op, 0, host);
        self.send(host, tc, self.msg_op(MsgKind::Resolved, t, op, 0));
    }

    fn apply_everywhere(&mut self, t: u32, op: usize) {
        for r in 0..self.txns[t].ops[op].chain_len as u32 {
            self.apply_commit(t, op, r);
        }
    }

    /// The commit under `raft`: the client is told at once; a one-phase commit releases
    /// its locks now, any other resolves each write's intent with one more Raft round.
    pub(super) fn raft_commit(&mut self, t: u32, host: Host) {
        self.txns[t].phase = Phase::Commit;
        let api = self.topo.api_station(self.txns[t].api);
        self.send(host, api, self.msg(MsgKind::TcCommitConf, t));
        let txn = &self.txns[t];
        let writes: Vec<usize> = (0..txn.ops.len()).filter(|&i| txn.ops[i].write).collect();
        // One round, one range: the commit rode on that round's replication.
        let one_phase = txn.prog.round_count() == 1 && writes.iter().all(|&i| txn.ops[i].part == txn.ops[writes[0]].part);
        if writes.is_empty() || one_phase {
            for &i in &writes {
                self.apply_everywhere(t, i);
                let leader = self.txns[t].ops[i].chain[0] as Host;
                self.unlock(t, i, 0, leader);
            }
            self.count_committed_writes(t);
            self.tc_finished(t);
            return;
        }
        self.txns[t].pending = writes.len() as u32;
        for &i in &writes {
            let to = self.op_station(t, i, 0);
            self.send(host, to, self.msg_op(MsgKind::Resolve, t, i, 0));
        }
    }

    /// An intent resolved: when the last is, the writes are committed at every replica
    /// and the coordinator is done.
    pub(super) fn resolved(&mut self, t: u32) {
        if self.settle(t) {
            self.count_committed_writes(t);
            self.tc_finished(t);
        }
    }

    /// `row` on `host` was granted to `next`, which waited since `since`: past the push
    /// delay it pushed the holder and learns of the release from the holder's record (a
    /// round trip and the push's CPU) before it goes on.
    pub(super) fn raft_granted(&mut self, next: Owner, since: Ns, host: Host) {
        let (t, op) = (next.txn, next.op as usize);
        if self.now_ns - since <= time::from_us(self.cfg.server.push_delay_us) {
            self.locked(t, op, 0, host, self.now_ns - since);
            return;
        }
        self.server.rechecking.insert(waiter_key(t, op), since);
        let to = self.op_station(t, op, 0);
        let msg = self.msg_op(MsgKind::Pushed, t, op, 0);
        // A round trip to the holder's record, and a flush of the resolution it writes.
        let back = self.now_ns + 2 * self.latency_ns() + time::from_us(self.cfg.server.flush_us);
        self.arrive_at(back, host, to, msg);
    }
}

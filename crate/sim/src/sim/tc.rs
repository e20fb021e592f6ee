//! DBTC, the transaction coordinator: it dispatches each round's operations to their
//! primary replicas, collects the confirmations, and runs the commit and complete phases
//! of linear two-phase commit.
//!
//! ```text
//! prepare:  TC --LQHKEYREQ--> primary --> backups --LQHKEYCONF--> TC    (one per operation)
//! commit:   TC --COMMIT--> last backup --> ... --> primary --COMMITTED--> TC
//! complete: TC --COMPLETE--> last backup --> ... --> first backup --COMPLETED--> TC
//! ```
//!
//! The client is confirmed when the last COMMITTED arrives, before the complete phase,
//! which only releases the backups' locks.

use super::event::MsgKind;
use super::txn::Phase;
use super::Simulation;
use crate::topology::Host;

impl Simulation {
    /// TCKEYREQ: the round runs, first taking the AUTO-INC lock if its engine's INSERT
    /// holds one (`autoinc.rs`).
    pub(super) fn tc_key_req(&mut self, t: u32, host: Host) {
        match self.autoinc_lock_of(t, host) {
            Some(at) => self.lock_autoinc(t, at),
            None => self.dispatch_round(t, host),
        }
    }

    /// The round's operations go to their primaries. Each operation's replica chain is
    /// fixed now: a node that fails or rejoins later does not change where this
    /// operation's replicas are.
    pub(super) fn dispatch_round(&mut self, t: u32, host: Host) {
        let range = self.txns[t].round_ops();
        self.txns[t].pending = range.len() as u32;
        for i in range {
            let (chain, len) = self.place.live_chain(&self.topo, self.txns[t].ops[i].part);
            let o = &mut self.txns[t].ops[i];
            o.chain = chain;
            o.chain_len = len;
            o.dispatched = true;
            let to = self.op_station(t, i, 0);
            self.send(host, to, self.msg_op(MsgKind::LqhKeyReq, t, i, 0));
        }
    }

    /// LQHKEYCONF: when the round's last operation is confirmed, its statement has ended
    /// (an AUTO-INC lock it held goes), and the TC confirms the round to the client, or
    /// starts the commit that rides on the last round.
    pub(super) fn lqh_key_conf(&mut self, t: u32, host: Host) {
        if self.settle(t) {
            if self.txns[t].autoinc.is_some() {
                self.end_autoinc(t);
            }
            let txn = &self.txns[t];
            if txn.last_round() && txn.piggyback {
                self.start_commit(t, host);
            } else {
                let api = self.topo.api_station(txn.api);
                self.send(host, api, self.msg(MsgKind::TcKeyConf, t));
            }
        }
    }

    /// One reply of the current phase arrived; true when it was the last one.
    pub(super) fn settle(&mut self, t: u32) -> bool {
        let txn = &mut self.txns[t];
        txn.pending -= 1;
        txn.pending == 0
    }

    /// NDB's commit decision: COMMIT goes to the last replica of every write.
    pub(super) fn start_two_phase_commit(&mut self, t: u32, host: Host) {
        self.txns[t].phase = Phase::Commit;
        let writes = self.txns[t].writes().count() as u32;
        if writes == 0 {
            let api = self.topo.api_station(self.txns[t].api);
            self.send(host, api, self.msg(MsgKind::TcCommitConf, t));
            self.tc_finished(t);
            return;
        }
        self.txns[t].pending = writes;
        for i in 0..self.txns[t].ops.len() {
            let op = self.txns[t].ops[i];
            if op.write {
                let last = op.chain_len as u32 - 1;
                self.send(host, self.op_station(t, i, last), self.msg_op(MsgKind::Commit, t, i, last));
            }
        }
    }

    /// COMMITTED: when every write is committed, the client is confirmed and the complete
    /// phase frees the backups.
    pub(super) fn tc_committed(&mut self, t: u32, host: Host) {
        if self.settle(t) {
            self.count_committed_writes(t);
            let api = self.topo.api_station(self.txns[t].api);
            self.send(host, api, self.msg(MsgKind::TcCommitConf, t));
            self.start_complete(t, host);
        }
    }

    fn start_complete(&mut self, t: u32, host: Host) {
        let txn = &mut self.txns[t];
        txn.phase = Phase::Complete;
        // Only operations with backups have locks left; a lone replica's went at COMMIT.
        txn.pending = txn.ops.iter().filter(|o| o.write && o.chain_len > 1).count() as u32;
        if txn.pending == 0 {
            self.tc_finished(t);
            return;
        }
        for i in 0..self.txns[t].ops.len() {
            let op = self.txns[t].ops[i];
            if op.write && op.chain_len > 1 {
                let last = op.chain_len as u32 - 1;
                self.send(host, self.op_station(t, i, last), self.msg_op(MsgKind::Complete, t, i, last));
            }
        }
    }

    /// The transaction's writes are committed: count them per partition, once.
    pub(super) fn count_committed_writes(&mut self, t: u32) {
        if std::mem::replace(&mut self.txns[t].writes_counted, true) {
            return;
        }
        for i in 0..self.txns[t].ops.len() {
            let o = self.txns[t].ops[i];
            if o.write {
                self.place.committed(o.part);
            }
        }
    }

    /// The TC is done with the transaction (complete phase over, or taken over).
    pub(super) fn tc_finished(&mut self, t: u32) {
        self.txns[t].tc_done = true;
        self.txns.release_if_done(t);
    }
}

//! Faults: a data node fails and restarts, an API node restarts, the network slows down.
//!
//! What NDB promises, and what this module keeps:
//! - A data node failure aborts the transactions that had not reached their commit
//!   decision and had state on the node (their TC, or a replica of a row they touched);
//!   clients retry them. Transactions past the decision are finished by a takeover on
//!   the surviving nodes: committed data survives while a replica of its node group lives.
//!   Where primaries move and how a rejoining node gets its data back is `placement.rs`.
//! - An API node restart drops its cached id ranges (gaps, never duplicates) and aborts
//!   its transactions in flight; its clients reconnect when it is back.
//! - An allocator failure hands the central service to its standby (`ids/service.rs`).
//!
//! Failure detection is immediate here (NDB's heartbeats take seconds): the dip you see
//! is the retries and the lost capacity, not the detection delay.

use super::event::{Event, MsgKind};
use super::txn::Phase;
use super::Simulation;
use crate::config::{Config, ConfigError, Fault};
use crate::locks::RowReplica;
use crate::time::{self, Ns};
use crate::topology::Host;
use crate::workload::TxnKind;

/// What faults have done to the cluster so far.
#[derive(Clone)]
pub(super) struct FaultState {
    /// The fault schedule: the config's, then those injected while running.
    pub list: Vec<Fault>,
    /// Per data node: extra one-way latency and until when (network delay spikes).
    delay_extra_ns: Vec<Ns>,
    delay_until_ns: Vec<Ns>,
    /// The latest `delay_until`: before it no message pays extra delay (the common case,
    /// checked once per send).
    delays_until_ns: Ns,
    /// Per API node: restarts so far, and until when it is down.
    pub api_restarts: Vec<u32>,
    pub api_down_until_ns: Vec<Ns>,
}

impl FaultState {
    pub fn new(cfg: &Config) -> FaultState {
        FaultState {
            list: cfg.faults.clone(),
            delay_extra_ns: vec![0; cfg.data_nodes as usize],
            delay_until_ns: vec![0; cfg.data_nodes as usize],
            delays_until_ns: 0,
            api_restarts: vec![0; cfg.api_nodes as usize],
            api_down_until_ns: vec![0; cfg.api_nodes as usize],
        }
    }

    /// The extra one-way delay of messages to or from `host` at `now`.
    #[inline]
    pub fn extra_delay(&self, host: Host, now: Ns) -> Ns {
        if now >= self.delays_until_ns {
            return 0;
        }
        match self.delay_until_ns.get(host as usize) {
            Some(&until) if now < until => self.delay_extra_ns[host as usize],
            _ => 0,
        }
    }
}

impl Simulation {
    pub(super) fn apply_fault(&mut self, index: usize) {
        match self.faults.list[index] {
            Fault::DataNodeFailure { data_node, restart_after_ms, .. } => {
                if self.place.alive(data_node) {
                    self.fail_data_node(data_node);
                    let at = self.now_ns + time::from_ms(restart_after_ms);
                    self.queue.push(at, Event::DataNodeRestart { node: data_node });
                }
            }
            Fault::ApiNodeRestart { api_node, down_ms, .. } => self.restart_api_node(api_node, down_ms),
            Fault::AllocatorFailure { takeover_ms, .. } => self.allocator_failed(takeover_ms),
            Fault::NetworkDelay { data_node, extra_us, duration_ms, .. } => {
                self.faults.delay_extra_ns[data_node as usize] = time::from_us(extra_us);
                self.faults.delay_until_ns[data_node as usize] = self.now_ns + time::from_ms(duration_ms);
                self.faults.delays_until_ns = self.faults.delays_until_ns.max(self.now_ns + time::from_ms(duration_ms));
            }
        }
    }

    /// Injects a fault now (its `atMs` is ignored). Refused when it cannot happen now:
    /// a node that is already down, or the last live replica of a node group.
    pub fn inject(&mut self, fault: Fault) -> Result<(), ConfigError> {
        let fault = fault.at(time::whole_ms(self.now_ns));
        fault.validate(&self.cfg, "fault")?;
        if let Fault::DataNodeFailure { data_node, .. } = fault {
            let group = self.topo.node_group_of_node(data_node);
            if !self.place.alive(data_node) {
                return Err(ConfigError::new("fault.dataNode", data_node, "is already down; wait for it to restart"));
            }
            if self.place.live_in_group(&self.topo, group) < 2 {
                return Err(ConfigError::new(
                    "fault.dataNode",
                    data_node,
                    format!("is the last live replica of node group {group}; the cluster would stop"),
                ));
            }
        }
        if self.faults.list.len() >= u16::MAX as usize {
            return Err(ConfigError::new("fault", "", "too many faults in one run"));
        }
        self.faults.list.push(fault);
        self.queue.push(self.now_ns, Event::Fault { index: (self.faults.list.len() - 1) as u16 });
        Ok(())
    }

    fn fail_data_node(&mut self, node: Host) {
        // Its threads stop: queued work is gone (the message in service is dropped when its
        // Done event comes), and so are its locks.
        let tpn = self.topo.threads_per_node();
        for s in node * tpn..(node + 1) * tpn {
            self.stations[s as usize].queue.clear();
        }
        if self.hot_row_node() == node {
            self.hot_row_lost();
        } else {
            self.flush_hot_spans();
        }
        self.locks.drop_node(node);
        self.place.fail(&self.topo, node);
        // Transactions with state on the node: abort before the commit decision, take over after.
        for t in 0..self.txns.len() {
            let txn = &self.txns[t];
            if !txn.live() || txn.tc_done {
                continue;
            }
            let tc_here = txn.tc_chosen && self.topo.host_of(txn.tc) == node;
            let dispatched = txn.ops.iter().any(|o| o.dispatched);
            let touches = txn.ops.iter().any(|o| o.dispatched && o.chain[..o.chain_len as usize].contains(&(node as u8)));
            if !(touches || (tc_here && dispatched)) {
                continue; // A TC that failed before doing anything is noticed at the next send.
            }
            if txn.phase == Phase::Prepare {
                self.abort_txn(t, true);
            } else {
                self.take_over(t);
            }
        }
    }

    pub(super) fn restart_data_node(&mut self, node: Host) {
        self.faults.delay_until_ns[node as usize] = 0;
        self.place.rejoin(&self.topo, node);
    }

    fn restart_api_node(&mut self, api: u32, down_ms: u64) {
        let a = api as usize;
        self.api_restarted(api);
        self.faults.api_restarts[a] += 1;
        self.faults.api_down_until_ns[a] = self.now_ns + time::from_ms(down_ms);
        // Its clients' transactions that have not reached the commit decision abort; the
        // data nodes finish the others. The clients reconnect when the node is back.
        for t in 0..self.txns.len() {
            let txn = &self.txns[t];
            if txn.live() && !txn.client_done && txn.api == api && txn.phase == Phase::Prepare {
                let (kind, client) = (txn.kind, txn.client);
                self.abort_txn(t, false);
                if kind != TxnKind::REFILL {
                    if self.open() {
                        // Its request is lost with the API node: counted as refused.
                        self.metrics.count(self.now_ns, |c| c.arrivals_refused += 1);
                    }
                    self.queue.push(self.faults.api_down_until_ns[a], Event::ClientStart { client });
                }
            }
        }
    }

    /// Aborts transaction `t`'s current attempt: undoes its counter-row update, frees its
    /// locks and its place in the allocator, and drops its messages in flight (by bumping
    /// its generation). With `retry`, the client is told and runs it again.
    pub(super) fn abort_txn(&mut self, t: u32, retry: bool) {
        self.metrics.totals.aborts += 1;
        self.metrics.count(self.now_ns, |c| c.aborts += 1);
        // Its waits so far count as waits while it held its other locks (as a granted
        // wait does, `lqh.rs`): a lock held through a deadlock was blocked, not worked.
        let waited: Ns = (0..self.txns[t].ops.len()).map(|i| self.op_waited_ns(t, i)).sum::<Ns>() + self.autoinc_waited_ns(t);
        self.txns[t].blocked_ns += waited;
        self.end_autoinc(t);
        self.undo_counter_update(t);
        self.leave_allocator(t);
        for i in 0..self.txns[t].ops.len() {
            let o = self.txns[t].ops[i];
            if !(o.dispatched && o.write) {
                continue;
            }
            for r in 0..o.chain_len as u32 {
                let node = o.chain[r as usize] as Host;
                if !self.place.alive(node) {
                    continue;
                }
                let row = RowReplica { node, row: o.row };
                if self.locks.holder(row) == Some(t) {
                    self.unlock(t, i, r, node);
                } else if self.locks.remove_waiter(row, t, self.now_ns) && self.is_hot(r, o.row) {
                    self.hot_queue_change(-1);
                }
            }
        }
        let txn = &mut self.txns[t];
        txn.generation = txn.generation.wrapping_add(1);
        txn.pending = 0;
        for o in txn.ops.iter_mut() {
            debug_assert!(o.applied == 0, "an aborted transaction had applied a commit");
            o.dispatched = false;
        }
        if retry {
            // The rollback report reaches the API node one hop later.
            let api_station = self.topo.api_station(txn.api);
            let from = self.place.any_live_node();
            self.send(from, api_station, self.msg(MsgKind::TcRollbackRep, t));
        } else {
            self.txns.discard(t);
        }
    }

    /// Transactions that have waited `lockWaitTimeoutMs` or longer for a row lock abort
    /// and retry (NDB's deadlock detection timeout: the only way NDB ends a deadlock).
    pub(super) fn time_out_lock_waits(&mut self) {
        let timeout = time::from_ms(self.cfg.lock_wait_timeout_ms);
        let Some(since) = self.now_ns.checked_sub(timeout) else { return };
        let waits = self.locks.waiting_since(since);
        for wait in waits.chunk_by(|a, b| a.0 == b.0) {
            let t = wait[0].0;
            let txn = &self.txns[t];
            // Still waiting: an abort earlier in this loop may have granted it its lock,
            // and nothing else takes a request out of a queue here, so it waits while
            // another holds a lock it queued for.
            let waiting = wait.iter().any(|&(_, row)| self.locks.holder(row) != Some(t));
            if txn.live() && !txn.tc_done && txn.phase == Phase::Prepare && waiting && self.wait_ends(t) {
                self.count_aborted_wait(t);
                self.abort_txn(t, true);
            }
        }
    }

    /// `t`'s lock wait ends in an abort (timed out, or a deadlock found): counted with
    /// how long it waited, and the cycle it was in, if any.
    pub(super) fn count_aborted_wait(&mut self, t: u32) {
        self.metrics.totals.lock_timeouts += 1;
        let waited = self.lock_waited_ns(t);
        self.metrics.count(self.now_ns, |c| {
            c.lock_timeouts += 1;
            c.timeout_wait_ns += waited;
        });
        if self.now_ns >= self.metrics.warmup_end_ns {
            match self.cycle_of(t) {
                Some(links) => self.metrics.cycles.add(links),
                None => self.metrics.cycles.outside += 1,
            }
        }
    }

    /// The client got its rollback report: it runs the same transaction again, from its
    /// first round (rows keep their keys, so an insert keeps its hidden key).
    pub(super) fn retry_txn(&mut self, t: u32) {
        let txn = &mut self.txns[t];
        txn.retried = true;
        txn.round = 0;
        txn.tc_chosen = false;
        txn.phase = Phase::Prepare;
        txn.pending = 0;
        self.next_round(t);
    }

    /// The commit decision was made: the surviving nodes finish the commit (applying it and
    /// releasing locks at every live replica) and confirm it to the client.
    fn take_over(&mut self, t: u32) {
        for i in 0..self.txns[t].ops.len() {
            let o = self.txns[t].ops[i];
            if !o.write {
                continue;
            }
            for r in 0..o.chain_len as u32 {
                let node = o.chain[r as usize] as Host;
                if !self.place.alive(node) {
                    continue;
                }
                self.apply_commit(t, i, r);
                if self.locks.holder(RowReplica { node, row: o.row }) == Some(t) {
                    self.unlock(t, i, r, node);
                }
            }
            // Rejoined nodes outside the chain get the row too (also when the primary died).
            self.copy_to_recovering(t, i);
        }
        self.count_committed_writes(t);
        let txn = &mut self.txns[t];
        txn.generation = txn.generation.wrapping_add(1);
        txn.pending = 0;
        if !txn.client_done {
            // A confirmation sent before the failure carries the old generation and is
            // dropped; this one replaces it.
            let api_station = self.topo.api_station(txn.api);
            let from = self.place.any_live_node();
            self.send(from, api_station, self.msg(MsgKind::TcCommitConf, t));
        }
        self.tc_finished(t);
    }
}

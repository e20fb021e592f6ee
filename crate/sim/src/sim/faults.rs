//! Faults: a data node fails and restarts, an API node restarts, the network slows down.
//!
//! What NDB promises, and what this module keeps:
//! - A data node failure aborts the transactions that had not reached their commit
//!   decision and had state on the node (their TC, or a replica of a row they touched);
//!   clients retry them. Transactions past the decision are finished by a takeover on
//!   the surviving nodes: committed data survives while a replica of its node group lives.
//!   Each partition whose primary failed gets the next live replica of its node group as
//!   primary; the failed node rejoins later as a backup, with its data copied back.
//! - An API node restart drops its cached id range (gaps, never duplicates) and aborts
//!   its transactions in flight; its clients reconnect when it is back.
//!
//! Failure detection is immediate here (NDB's heartbeats take seconds): the dip you see
//! is the retries and the lost capacity, not the detection delay.

use super::{Event, MsgKind, Phase, Simulation};
use crate::allocator::IdCache;
use crate::config::{ConfigError, Fault};
use crate::locks::RowReplica;
use crate::topology::Host;
use crate::workload::TxnKind;

impl Simulation {
    pub(super) fn apply_fault(&mut self, index: usize) {
        match self.faults[index] {
            Fault::DataNodeFailure { data_node, restart_after_ms, .. } => {
                if self.alive[data_node as usize] {
                    self.fail_data_node(data_node);
                    let at = self.now + restart_after_ms * 1_000_000;
                    self.queue.push(at, Event::DataNodeRestart { node: data_node });
                }
            }
            Fault::ApiNodeRestart { api_node, down_ms, .. } => self.restart_api_node(api_node, down_ms),
            Fault::NetworkDelay { data_node, extra_us, duration_ms, .. } => {
                self.delay_extra_ns[data_node as usize] = extra_us * 1_000;
                self.delay_until[data_node as usize] = self.now + duration_ms * 1_000_000;
            }
        }
    }

    /// Injects a fault now (its `atMs` is ignored). Refused when it cannot happen now:
    /// a node that is already down, or the last live replica of a node group.
    pub fn inject(&mut self, fault: Fault) -> Result<(), ConfigError> {
        let fault = fault.at(self.now / 1_000_000);
        fault.validate(&self.cfg, "fault")?;
        if let Fault::DataNodeFailure { data_node, .. } = fault {
            let r = self.topo.replicas;
            let group = data_node / r;
            if !self.alive[data_node as usize] {
                return Err(ConfigError {
                    field: "fault.dataNode".into(),
                    value: data_node.to_string(),
                    allowed: "is already down; wait for it to restart".into(),
                });
            }
            let live = (group * r..group * r + r).filter(|&n| self.alive[n as usize]).count();
            if live < 2 {
                return Err(ConfigError {
                    field: "fault.dataNode".into(),
                    value: data_node.to_string(),
                    allowed: format!("is the last live replica of node group {group}; the cluster would stop"),
                });
            }
        }
        if self.faults.len() >= u16::MAX as usize {
            return Err(ConfigError { field: "fault".into(), value: "".into(), allowed: "too many faults in one run".into() });
        }
        self.faults.push(fault);
        self.queue.push(self.now, Event::Fault { index: (self.faults.len() - 1) as u16 });
        Ok(())
    }

    fn fail_data_node(&mut self, node: Host) {
        self.alive[node as usize] = false;
        // Its threads stop: queued work is gone (the message in service is dropped when its
        // Done event comes), and so are its locks.
        let tpn = self.topo.threads_per_node();
        for s in node * tpn..(node + 1) * tpn {
            let dropped = self.stations[s as usize].queue.len() as u64;
            self.stations[s as usize].queue.clear();
            self.metrics.messages_dropped += dropped;
        }
        self.flush_hot_spans();
        let hot_primary_failed = self.hot_row_node() == node;
        self.locks.drop_node(node);
        if hot_primary_failed {
            self.hot.granted_at = None;
            self.hot.queue_len = 0;
        }
        // Partitions whose primary failed get the next live replica as primary.
        for p in 0..self.topo.partitions {
            let r = self.topo.replicas;
            if self.topo.group_node(p, self.primary_idx[p as usize] as u32) == node {
                let next = (1..r).map(|k| (self.primary_idx[p as usize] as u32 + k) % r)
                    .find(|&i| self.alive[self.topo.group_node(p, i) as usize])
                    .expect("fault validation keeps a live replica in every node group");
                self.primary_idx[p as usize] = next as u8;
            }
        }
        // Data on the failed replica is gone until node recovery copies it back.
        for p in 0..self.topo.partitions {
            if self.topo.node_group_of_partition(p) == self.topo.node_group_of_node(node) {
                let slot = self.replica_slot(p, node);
                self.applied_writes[slot] = 0;
            }
        }
        // Transactions with state on the node: abort before the commit decision, take over after.
        for t in 0..self.txns.len() as u32 {
            let txn = &self.txns[t as usize];
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
        self.alive[node as usize] = true;
        self.delay_until[node as usize] = 0;
        // Node recovery: the node copies its partitions from the live replicas and rejoins
        // as a backup; primaries stay where they moved.
        for p in 0..self.topo.partitions {
            if self.topo.node_group_of_partition(p) == self.topo.node_group_of_node(node) {
                let best = (0..self.topo.replicas)
                    .map(|i| self.topo.group_node(p, i))
                    .filter(|&n| n != node && self.alive[n as usize])
                    .map(|n| self.applied_writes[self.replica_slot(p, n)])
                    .max()
                    .unwrap_or(0);
                let slot = self.replica_slot(p, node);
                self.applied_writes[slot] = best;
            }
        }
    }

    fn restart_api_node(&mut self, api: u32, down_ms: u64) {
        let a = api as usize;
        self.ids_lost += self.caches[a].remaining();
        self.caches[a] = IdCache::default();
        self.api_epoch[a] += 1;
        self.api_down_until[a] = self.now + down_ms * 1_000_000;
        // Its clients' transactions that have not reached the commit decision abort; the
        // data nodes finish the others. The clients reconnect when the node is back.
        for t in 0..self.txns.len() as u32 {
            let txn = &self.txns[t as usize];
            if txn.live() && !txn.client_done && txn.api == api && txn.phase == Phase::Prepare {
                let (kind, client) = (txn.kind, txn.client);
                self.abort_txn(t, false);
                if kind != TxnKind::Refill {
                    self.queue.push(self.api_down_until[a], Event::ClientStart { client });
                }
            }
        }
    }

    /// Aborts transaction `t`'s current attempt: undoes its counter-row update, frees its
    /// locks and its place in the allocator, and drops its messages in flight (by bumping
    /// its generation). With `retry`, the client is told and runs it again.
    pub(super) fn abort_txn(&mut self, t: u32, retry: bool) {
        self.aborts += 1;
        let txn = &mut self.txns[t as usize];
        if txn.kind == TxnKind::Refill && txn.refill_applied {
            // The counter row is still locked by this refill, so nobody read the new value.
            self.systab_next = txn.refill_first;
            txn.refill_applied = false;
        }
        let api = txn.api as usize;
        if txn.waiting_id {
            txn.waiting_id = false;
            if !self.caches[api].remove_waiter(t) {
                // It holds the allocator mutex and its refill runs: the refill finishes for
                // the waiters behind it.
                for r in self.txns.iter_mut() {
                    if r.live() && r.kind == TxnKind::Refill && r.parent == t {
                        r.parent = u32::MAX;
                    }
                }
            }
        }
        for i in 0..self.txns[t as usize].ops.len() {
            let o = self.txns[t as usize].ops[i];
            if !(o.dispatched && o.write) {
                continue;
            }
            for r in 0..o.chain_len as u32 {
                let node = o.chain[r as usize] as Host;
                if !self.alive[node as usize] {
                    continue;
                }
                let row = RowReplica { node, row: o.row };
                if self.locks.holder(row) == Some(t) {
                    self.unlock(t, i, r, node);
                } else if self.locks.remove_waiter(row, t) && self.is_hot(r, o.row) {
                    self.hot_queue_change(-1);
                }
            }
        }
        let txn = &mut self.txns[t as usize];
        txn.gen = txn.gen.wrapping_add(1);
        txn.pending = 0;
        for o in txn.ops.iter_mut() {
            debug_assert!(o.applied == 0, "an aborted transaction had applied a commit");
            o.dispatched = false;
        }
        if retry {
            // The rollback report reaches the API node one hop later.
            let api_station = self.topo.api_station(txn.api);
            let from = self.any_live_node();
            self.send(from, api_station, self.msg(MsgKind::TcRollbackRep, t));
        } else {
            txn.client_done = true;
            txn.tc_done = true;
            self.free_txns.push(t);
        }
    }

    /// The client got its rollback report: it runs the same transaction again, from its
    /// first round (rows keep their keys, so an insert keeps its hidden key).
    pub(super) fn retry_txn(&mut self, t: u32) {
        let txn = &mut self.txns[t as usize];
        txn.round = 0;
        txn.tc_chosen = false;
        txn.phase = Phase::Prepare;
        txn.pending = 0;
        self.next_round(t);
    }

    /// The commit decision was made: the surviving nodes finish the commit (applying it and
    /// releasing locks at every live replica) and confirm it to the client.
    fn take_over(&mut self, t: u32) {
        for i in 0..self.txns[t as usize].ops.len() {
            let o = self.txns[t as usize].ops[i];
            if !o.write {
                continue;
            }
            for r in 0..o.chain_len as u32 {
                let node = o.chain[r as usize] as Host;
                if !self.alive[node as usize] {
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
        let txn = &mut self.txns[t as usize];
        txn.gen = txn.gen.wrapping_add(1);
        txn.pending = 0;
        if !txn.client_done {
            // A confirmation sent before the failure carries the old generation and is
            // dropped; this one replaces it.
            let api_station = self.topo.api_station(txn.api);
            let from = self.any_live_node();
            self.send(from, api_station, self.msg(MsgKind::TcCommitConf, t));
        }
        self.tc_finished(t);
    }

    fn any_live_node(&self) -> Host {
        self.alive.iter().position(|&a| a).expect("some data node is alive") as Host
    }

    /// No committed write is lost while a replica of its node group lives.
    pub(super) fn check_committed_rows(&self) -> Result<(), String> {
        for p in 0..self.topo.partitions {
            let best = (0..self.topo.replicas)
                .map(|i| self.topo.group_node(p, i))
                .filter(|&n| self.alive[n as usize])
                .map(|n| self.applied_writes[self.replica_slot(p, n)])
                .max()
                .unwrap_or(0);
            if best < self.committed_writes[p as usize] {
                return Err(format!(
                    "committed-rows-survive: partition {p} has {} committed writes but its live replicas hold {best}",
                    self.committed_writes[p as usize]
                ));
            }
        }
        Ok(())
    }

    /// Every lock is held by a live transaction, and no prepared operation of a finished
    /// transaction still holds one.
    pub(super) fn check_lock_holders(&self) -> Result<(), String> {
        for (row, t) in self.locks.holders() {
            let txn = &self.txns[t as usize];
            if !txn.live() {
                return Err(format!("prepared-resolved: finished transaction {t} still holds {row:?}"));
            }
            if !self.alive[row.node as usize] {
                return Err(format!("one-holder: a lock on failed node {} survived", row.node));
            }
        }
        Ok(())
    }

    pub fn aborts(&self) -> u64 {
        self.aborts
    }

    /// Data nodes that are down now.
    pub fn nodes_down(&self) -> Vec<Host> {
        (0..self.topo.data_nodes).filter(|&n| !self.alive[n as usize]).collect()
    }
}

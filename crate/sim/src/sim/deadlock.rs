//! Who waits for whom when a lock wait times out: from the transaction timed out, the
//! row it waits for, that row's holder, the row the holder waits for, and on, until the
//! walk comes back to a transaction it met (a lock-order cycle, a deadlock: the one timed
//! out is in it, or queued behind it) or ends. Read only, for the
//! explanation (`crate::cycles`): it changes nothing the model does.

use super::autoinc::AUTOINC_OP;
use super::Simulation;
use crate::cycles::{Link, OpAt};
use crate::locks::RowReplica;
use crate::time::Ns;
use crate::topology::Host;
use crate::workload;

/// Most transactions a cycle is followed through.
const MAX_CYCLE: usize = 8;

impl Simulation {
    /// The first of `t`'s operations that waits for a row lock, or its wait for an
    /// AUTO-INC lock: its index (`AUTOINC_OP`), the row replica and since when.
    fn waiting_at(&self, t: u32) -> Option<(usize, RowReplica, Ns)> {
        let txn = &self.txns[t];
        let op = txn.ops.iter().enumerate().filter(|(_, o)| o.dispatched && o.write).find_map(|(i, o)| {
            o.chain[..o.chain_len as usize].iter().find_map(|&node| {
                let row = RowReplica { node: node as Host, row: o.row };
                self.locks.waiting(row, t).map(|since| (i, row, since))
            })
        });
        op.or_else(|| txn.autoinc.and_then(|a| self.locks.waiting(a.at, t).map(|since| (AUTOINC_OP, a.at, since))))
    }

    /// Operation `op` of `t` by what it does: its table and its number among `t`'s
    /// operations on that table.
    fn op_at(&self, t: u32, op: usize) -> OpAt {
        if op == AUTOINC_OP {
            return OpAt { table: workload::table::SYSTAB, nth: 0, insert: false };
        }
        let ops = &self.txns[t].ops;
        let table = workload::table_of(ops[op].row);
        let nth = ops[..op].iter().filter(|o| workload::table_of(o.row) == table).count();
        OpAt { table, nth: nth.min(u16::MAX as usize) as u16, insert: ops[op].insert }
    }

    /// How long operation `op` of `t` has waited for its row's locks, summed over the
    /// replicas it waits at (0 if none).
    pub(super) fn op_waited_ns(&self, t: u32, op: usize) -> Ns {
        let o = &self.txns[t].ops[op];
        if !(o.dispatched && o.write) {
            return 0;
        }
        let row = |node: &u8| RowReplica { node: *node as Host, row: o.row };
        o.chain[..o.chain_len as usize].iter().filter_map(|n| self.locks.waiting(row(n), t)).map(|since| self.now_ns - since).sum()
    }

    /// How long `t` has waited for its lock (0 if it waits for none).
    pub(super) fn lock_waited_ns(&self, t: u32) -> Ns {
        self.waiting_at(t).map_or(0, |(_, _, since)| self.now_ns - since)
    }

    /// The cycle of waits `t` is in or waits behind, as links in wait order; None when the
    /// walk from `t` ends (a holder waiting for nothing) or is longer than `MAX_CYCLE`.
    pub(super) fn cycle_of(&self, t: u32) -> Option<Vec<Link>> {
        // (transaction, the op it waits at, the op of the next one holding that row)
        let mut walk: Vec<(u32, usize, usize)> = Vec::new();
        let mut at = t;
        let start = loop {
            let (op, row, _) = self.waiting_at(at)?;
            let holder = self.locks.owner(row)?;
            walk.push((at, op, holder.op as usize));
            if let Some(k) = walk.iter().position(|&(x, _, _)| x == holder.txn) {
                break k;
            }
            if walk.len() >= MAX_CYCLE {
                return None;
            }
            at = holder.txn;
        };
        // Each one holds what the one before it waits for; the first, what the last waits for.
        let cycle = &walk[start..];
        let n = cycle.len();
        Some(
            (0..n)
                .map(|i| {
                    let (x, waits, _) = cycle[i];
                    let holds = cycle[(i + n - 1) % n].2;
                    Link { kind: self.txns[x].kind.index() as u8, holds: self.op_at(x, holds), waits: self.op_at(x, waits) }
                })
                .collect(),
        )
    }
}

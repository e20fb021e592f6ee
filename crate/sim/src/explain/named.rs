//! The loads of a span's threads, CPUs and row locks, named in the user's words: a data
//! node's thread or a one-server engine's CPU, an API node's cores, the allocator service, a
//! row (on its data node, or on the one server) and a counter row or sequence.

use super::resources::{Inputs, Load};
use super::Kind;
use crate::row_report;
use crate::workload;

impl Inputs<'_> {
    pub(super) fn stations(&self) -> Vec<Load> {
        let (t, c) = (self.topo, self.counts);
        let tpn = t.threads_per_node();
        (0..t.stations())
            .map(|s| {
                let (name, kind, node, servers, role) = if let Some(n) = t.data_node_of(s) {
                    let i = s % tpn;
                    let (name, role) = if self.cfg.engine.one_server() {
                        (format!("the CPU of the {} server ({} cores)", self.cfg.engine.title(), t.data_cores), 0)
                    } else if self.cfg.engine == crate::config::Engine::Raft {
                        (format!("the CPU of node {n} ({} cores)", t.data_cores), 0)
                    } else if tpn == 1 {
                        (format!("the thread of data node {n}"), 0)
                    } else if i < t.ldm_threads {
                        (format!("LDM thread {i} of data node {n}"), 1)
                    } else {
                        (format!("TC thread {} of data node {n}", i - t.ldm_threads), 2)
                    };
                    (name, Kind::Thread, Some(n), t.data_cores, role)
                } else if s == t.service_station() {
                    ("the allocator service".to_string(), Kind::Service, None, 1, 4)
                } else {
                    let a = s - t.data_stations();
                    (format!("the CPU of API node {a} ({} cores)", self.cfg.api_cores), Kind::ApiCpu, Some(a), self.cfg.api_cores, 3)
                };
                let (name, kind, node, servers, role) = (name, kind, node, servers, role);
                let mut l = Load::new(s as u64, name, kind, node, servers, self.span_ns, c.station_busy_ns[s as usize]);
                l.role = role;
                l.alloc_ns = c.station_alloc_ns[s as usize] as f64;
                l
            })
            .collect()
    }

    pub(super) fn locks(&self) -> Vec<Load> {
        let c = self.counts;
        let mut loads = Vec::new();
        // Where a row is: a data node of NDB's, or the one server (which needs no saying);
        // a counter row is the engine's (`Engine::counter_of`).
        let one_server = self.cfg.engine.one_server();
        let raft = self.cfg.engine == crate::config::Engine::Raft;
        let on = |node: u32| match (one_server, raft) {
            (true, _) => String::new(),
            (_, true) => format!(", on node {node}"),
            _ => format!(", on data node {node}"),
        };
        let counter = |of: &str| self.cfg.engine.counter_of(of);
        if self.cfg.allocator.traits().counter_row {
            let table = row_report::table_name(self.cfg, self.counter_row & ((1 << 56) - 1));
            let name = format!("{}{}", counter(&table), on(self.counter_row_node));
            let mut l = Load::new(self.counter_row, name, Kind::CounterRow, Some(self.counter_row_node), 1, self.span_ns, c.hot_busy_ns);
            l.grants = c.hot_holds;
            l.busy_ns = l.busy_ns.max(0.0);
            if let Some(r) = self.rows.iter().find(|r| r.row == self.counter_row) {
                l.blocked_ns = (r.blocked_ns as f64).min(l.busy_ns);
                l.queued_ns = (r.queued_ns as f64).min(l.busy_ns - l.blocked_ns);
            }
            loads.push(l);
        }
        for r in self.rows.iter().filter(|r| r.row != self.counter_row) {
            let key = r.row & ((1 << 56) - 1);
            // Another table's counter row (a spec may have several tables taking ids): a
            // counter row too, though its time is counted as a tracked row's.
            let (name, kind) = if workload::table_of(r.row) == workload::table::SYSTAB {
                let of = row_report::table_name(self.cfg, key);
                (format!("{}{}", counter(&of), on(r.node)), Kind::CounterRow)
            } else {
                let table = row_report::table_name(self.cfg, workload::table_of(r.row));
                let (k, slot) = (key % crate::spec::MAX_TABLE_ROWS, key / crate::spec::MAX_TABLE_ROWS);
                let slot = if slot > 0 { format!(" (slot {slot})") } else { String::new() };
                (format!("row {k}{slot} of `{table}`{}", on(r.node)), Kind::Row)
            };
            // Over the whole span: a row first tracked after it began is weighed by what
            // was counted (a lower bound of its load, never a short span's noise).
            let mut l = Load::new(r.row, name, kind, Some(r.node), 1, self.span_ns, r.busy_ns);
            l.blocked_ns = r.blocked_ns as f64;
            l.queued_ns = r.queued_ns as f64;
            l.grants = r.grants;
            l.requests = r.requests;
            loads.push(l);
        }
        loads
    }
}

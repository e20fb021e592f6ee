//! The run summary: what `hotrow run --json` prints and `Simulation.summary()` returns.
//!
//! Its field names are a public contract read by other programs; add fields, never
//! rename or remove them. Rates are per simulated second of the measured part (after
//! warm-up). The digest covers every integer outcome, so any change in behaviour
//! changes it, and it is the same on every target for the same seed and config.

use crate::config::Config;
use crate::metrics::Counts;
use crate::sim::Simulation;
use crate::workload::{TXN_KINDS, TXN_KIND_NAMES};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// The effective configuration (preset and overrides applied).
    pub config: Config,
    /// Measured simulated time after warm-up, in seconds.
    pub simulated_seconds: f64,
    /// Events processed over the whole run.
    pub events: u64,
    pub inserts_per_second: f64,
    /// User transactions committed per second (refills not counted).
    pub transactions_per_second: f64,
    /// New-Order transactions per minute (DBT2); 0 for other workloads.
    pub tpm: f64,
    pub nodes: Vec<NodeSummary>,
    pub hot_row: HotRowSummary,
    /// Hidden keys handed to inserts over the whole run.
    pub ids_issued: u64,
    /// Ids cached by an API node and dropped (API node restarts).
    pub ids_lost: u64,
    /// Ids handed out twice. Must be 0.
    pub duplicate_ids: u64,
    /// Response time of user transactions, first round to commit confirmation.
    pub latency_us: Latency,
    /// The same per transaction kind (and for refills), for kinds that committed.
    pub latency_by_type_us: BTreeMap<&'static str, Latency>,
    pub committed_by_type: BTreeMap<&'static str, u64>,
    /// Client threads in all API nodes.
    pub clients: u32,
    /// Transaction attempts aborted by faults (and retried by their clients), whole run.
    pub aborts: u64,
    pub digest: String,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeSummary {
    pub id: u32,
    pub node_group: u32,
    /// Busy fraction of the node's threads, averaged, 0..=1.
    pub load: f64,
    pub thread_load: Vec<f64>,
    /// Messages served per second by each thread, and their mean CPU cost.
    pub thread_services_per_second: Vec<f64>,
    pub thread_service_us_mean: Vec<f64>,
    /// Transactions coordinated by this node per second.
    pub tc_transactions: f64,
    /// Messages received per second.
    pub messages: f64,
    /// True for the node holding the primary replica of the SYSTAB_0 counter row.
    pub holds_hot_row: bool,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HotRowSummary {
    /// The data node holding the counter row's primary replica.
    pub node: u32,
    pub refills_per_second: f64,
    /// Fraction of time the row's lock was held, 0..=1.
    pub lock_utilization: f64,
    pub lock_wait_us_mean: f64,
    pub lock_hold_us_mean: f64,
    /// Mean number of refills queued on the row's lock.
    pub queue_length_mean: f64,
    pub refills: u64,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Latency {
    pub mean: f64,
    pub p50: f64,
    pub p99: f64,
    pub count: u64,
}

impl Latency {
    fn of(h: &crate::hist::Histogram) -> Latency {
        Latency {
            mean: h.mean() / 1e3,
            p50: h.quantile(0.5) as f64 / 1e3,
            p99: h.quantile(0.99) as f64 / 1e3,
            count: h.count(),
        }
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

pub(crate) fn build(sim: &Simulation) -> Summary {
    let m = &sim.metrics;
    let cfg = sim.config();
    let topo = sim.topology();
    let measured_ns = sim.now_ns().saturating_sub(m.warmup_end);
    let secs = measured_ns as f64 / 1e9;
    let per_s = |n: u64| if secs > 0.0 { n as f64 / secs } else { 0.0 };
    let r: &Counts = &m.run;
    let tpn = topo.threads_per_node() as usize;
    let nodes = (0..topo.data_nodes)
        .map(|n| {
            let threads = n as usize * tpn..(n as usize + 1) * tpn;
            let thread_load: Vec<f64> =
                threads.clone().map(|t| ratio(m.thread_busy_ns[t], measured_ns).min(1.0)).collect();
            NodeSummary {
                id: n,
                node_group: topo.node_group_of_node(n),
                load: thread_load.iter().sum::<f64>() / tpn as f64,
                thread_load,
                thread_services_per_second: threads.clone().map(|t| per_s(m.thread_services[t])).collect(),
                thread_service_us_mean: threads
                    .map(|t| ratio(m.thread_cost_ns[t], m.thread_services[t]) / 1e3)
                    .collect(),
                tc_transactions: per_s(r.node_tc_txns[n as usize]),
                messages: per_s(r.node_messages[n as usize]),
                holds_hot_row: n == sim.hot_row_node(),
            }
        })
        .collect();
    let refills = r.committed[TXN_KINDS - 1];
    let hot_row = HotRowSummary {
        node: sim.hot_row_node(),
        refills_per_second: per_s(refills),
        lock_utilization: ratio(r.hot_busy_ns, measured_ns).min(1.0),
        lock_wait_us_mean: ratio(r.hot_wait_ns, r.hot_grants) / 1e3,
        lock_hold_us_mean: ratio(r.hot_hold_sum_ns, r.hot_holds) / 1e3,
        queue_length_mean: ratio(r.hot_queue_ns, measured_ns),
        refills,
    };
    let (ids_issued, ids_lost, duplicate_ids) = sim.ids();
    let mut latency_by_type_us = BTreeMap::new();
    let mut committed_by_type = BTreeMap::new();
    for k in 0..TXN_KINDS {
        if m.latency[k].count() > 0 {
            latency_by_type_us.insert(TXN_KIND_NAMES[k], Latency::of(&m.latency[k]));
            committed_by_type.insert(TXN_KIND_NAMES[k], r.committed[k]);
        }
    }
    let is_dbt2 = cfg.workload == crate::Workload::Dbt2;
    Summary {
        config: cfg.clone(),
        simulated_seconds: secs,
        events: sim.events(),
        inserts_per_second: per_s(r.inserts),
        transactions_per_second: per_s(r.user_txns()),
        tpm: if is_dbt2 { per_s(r.committed[0]) * 60.0 } else { 0.0 },
        nodes,
        hot_row,
        ids_issued,
        ids_lost,
        duplicate_ids,
        latency_us: Latency::of(&m.latency_all),
        latency_by_type_us,
        committed_by_type,
        clients: sim.active_clients(),
        aborts: sim.aborts(),
        digest: digest(sim),
    }
}

/// FNV-1a over every integer outcome of the run.
fn digest(sim: &Simulation) -> String {
    let m = &sim.metrics;
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    let mut feed = |v: u64| {
        for b in v.to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01B3);
        }
    };
    feed(sim.events());
    feed(sim.now_ns());
    let r = &m.run;
    r.committed.iter().for_each(|&v| feed(v));
    for v in [r.inserts, r.hot_busy_ns, r.hot_hold_sum_ns, r.hot_holds, r.hot_wait_ns, r.hot_grants, r.hot_queue_ns] {
        feed(v);
    }
    for list in [&r.node_messages, &r.node_tc_txns, &r.node_busy_ns, &m.thread_busy_ns, &m.thread_services] {
        list.iter().for_each(|&v| feed(v));
    }
    let (issued, lost, dup) = sim.ids();
    feed(issued);
    feed(lost);
    feed(dup);
    feed(sim.aborts());
    m.latency_all.for_each_bucket(&mut feed);
    for hist in &m.latency {
        feed(hist.sum());
    }
    format!("{h:016x}")
}

//! The summary's data nodes (`nodes`) and its counter row (`hotRow`).

use crate::metrics::{Counts, Metrics};
use crate::rates::{ratio, Span, Throughput};
use crate::time;
use crate::topology::Topology;
use crate::workload::TxnKind;
use serde::Serialize;

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
    pub thread_service_mean_us: Vec<f64>,
    /// `threadServiceMeanUs` under its old name, written through 0.2.x (`catalog::RENAMED`).
    #[serde(rename = "threadServiceUsMean")]
    pub old_thread_service_us_mean: Vec<f64>,
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
    pub lock_wait_mean_us: f64,
    pub lock_hold_mean_us: f64,
    /// The two above under their old names, written through 0.2.x (`catalog::RENAMED`).
    #[serde(rename = "lockWaitUsMean")]
    pub old_lock_wait_us_mean: f64,
    #[serde(rename = "lockHoldUsMean")]
    pub old_lock_hold_us_mean: f64,
    /// Mean number of refills queued on the row's lock.
    pub queue_length_mean: f64,
    pub refills: u64,
}

impl HotRowSummary {
    /// The counter row's figures over the measured part, from its counts and rates.
    pub(super) fn of(r: &Counts, t: &Throughput, node: u32) -> HotRowSummary {
        let (wait, hold) = (time::as_us(ratio(r.hot_wait_ns, r.hot_grants)), time::as_us(ratio(r.hot_hold_sum_ns, r.hot_holds)));
        HotRowSummary {
            node,
            refills_per_second: t.refills_per_second,
            lock_utilization: t.hot_row_lock_utilization,
            lock_wait_mean_us: wait,
            lock_hold_mean_us: hold,
            old_lock_wait_us_mean: wait,
            old_lock_hold_us_mean: hold,
            queue_length_mean: t.hot_row_queue_mean,
            refills: r.committed(TxnKind::REFILL),
        }
    }
}

impl NodeSummary {
    /// Every data node's figures over the measured `span`.
    pub(super) fn all(m: &Metrics, topo: &Topology, span: Span, hot_row_node: u32) -> Vec<NodeSummary> {
        let (r, tpn) = (&m.run, topo.threads_per_node() as usize);
        (0..topo.data_nodes)
            .map(|n| {
                let threads = n as usize * tpn..(n as usize + 1) * tpn;
                let cores = topo.data_cores as f64;
                let thread_load: Vec<f64> = threads.clone().map(|t| (span.fraction(r.station_busy_ns[t]) / cores).min(1.0)).collect();
                let service_mean_us: Vec<f64> =
                    threads.clone().map(|t| time::as_us(ratio(m.thread_cost_ns[t], m.thread_services[t]))).collect();
                NodeSummary {
                    id: n,
                    node_group: topo.node_group_of_node(n),
                    load: thread_load.iter().sum::<f64>() / tpn as f64,
                    thread_load,
                    thread_services_per_second: threads.map(|t| span.per_second(m.thread_services[t])).collect(),
                    old_thread_service_us_mean: service_mean_us.clone(),
                    thread_service_mean_us: service_mean_us,
                    tc_transactions: span.per_second(r.node_tc_txns[n as usize]),
                    messages: span.per_second(r.node_messages[n as usize]),
                    holds_hot_row: n == hot_row_node,
                }
            })
            .collect()
    }
}

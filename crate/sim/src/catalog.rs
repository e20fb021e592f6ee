//! The table of metrics: every figure a metrics window or a run summary reports,
//! described once — name, label, unit, shape (one value, one per data node, one per
//! partition), meaning — with where a window and the summary keep it.
//!
//! It is the one list of metrics. The wasm `snapshot()` and `windows()` take their
//! columns from it, `hotrow run --csv` and `hotrow sweep` their headers, the playground
//! its chart series and labels, and `index.d.ts` is pinned to it by a test. Adding a
//! metric is one entry here plus the place it is counted (`counts.rs`, `metrics.rs`,
//! `summary.rs`).

use crate::metrics::Window;
use serde_json::{json, Value};

/// How many values a metric has per window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Scalar,
    /// One value per data node.
    PerNode,
    /// One value per partition (data nodes x LDM threads).
    PerPartition,
}

impl Shape {
    pub fn name(self) -> &'static str {
        match self {
            Shape::Scalar => "scalar",
            Shape::PerNode => "perNode",
            Shape::PerPartition => "perPartition",
        }
    }
}

/// How a window holds a metric.
#[derive(Clone, Copy)]
pub enum Read {
    Scalar(fn(&Window) -> f64),
    Vector(for<'a> fn(&'a Window) -> &'a [f64]),
}

/// One metric.
#[derive(Clone, Copy)]
pub struct Metric {
    /// camelCase, as in JSON, CSV headers and the JavaScript API.
    pub name: &'static str,
    /// A short label for chart legends and table headings.
    pub label: &'static str,
    /// "1/s", "us", "ms", "fraction" (0..1), "count", "1/min".
    pub unit: &'static str,
    pub shape: Shape,
    pub about: &'static str,
    /// Where a window keeps it (`None`: only the run summary reports it).
    pub window: Option<Read>,
    /// Its dotted path in the run summary (`None`: only windows report it).
    pub summary: Option<&'static str>,
    /// When its summary figure is a mean over the measured period: how a window weighs in it
    /// (`batch_part`). Such a metric gets a 95% interval (`intervals.rs`).
    pub batch: Option<Weight>,
}

/// How a window weighs in a mean over the run.
#[derive(Clone, Copy)]
pub enum Weight {
    /// Each window the same: a time mean (a rate, a busy fraction, a mean queue length).
    Even,
    /// By what the window counted (an insert skew by the window's inserts).
    By(fn(&Window) -> f64),
    /// A figure with no window of its own: the window's (sum, count) of it (a mean latency
    /// by the window's commits).
    Parts(fn(&Window) -> (f64, f64)),
}

impl Metric {
    /// A window's part of a batch mean, (value x weight, weight): a batch's mean is the sum
    /// of the first over the sum of the second. None for a metric that is no mean.
    pub(crate) fn batch_part(&self, w: &Window) -> Option<(f64, f64)> {
        let value = || match self.window {
            Some(Read::Scalar(read)) => Some(read(w)),
            _ => None,
        };
        match self.batch? {
            Weight::Even => Some((value()?, 1.0)),
            Weight::By(by) => {
                let weight = by(w);
                Some((value()? * weight, weight))
            }
            Weight::Parts(parts) => Some(parts(w)),
        }
    }

    /// This metric as a time mean over the run: each window weighs the same in its interval.
    const fn mean(self) -> Metric {
        Metric { batch: Some(Weight::Even), ..self }
    }

    /// This metric as a mean weighted by what each window counted.
    const fn weighted_by(self, by: fn(&Window) -> f64) -> Metric {
        Metric { batch: Some(Weight::By(by)), ..self }
    }
}

const fn both(
    name: &'static str,
    label: &'static str,
    unit: &'static str,
    about: &'static str,
    read: fn(&Window) -> f64,
    path: &'static str,
) -> Metric {
    Metric { name, label, unit, shape: Shape::Scalar, about, window: Some(Read::Scalar(read)), summary: Some(path), batch: None }
}

const fn run_only(name: &'static str, label: &'static str, unit: &'static str, about: &'static str, path: &'static str) -> Metric {
    Metric { name, label, unit, shape: Shape::Scalar, about, window: None, summary: Some(path), batch: None }
}

const fn vector(
    name: &'static str,
    label: &'static str,
    unit: &'static str,
    shape: Shape,
    about: &'static str,
    read: for<'a> fn(&'a Window) -> &'a [f64],
) -> Metric {
    Metric { name, label, unit, shape, about, window: Some(Read::Vector(read)), summary: None, batch: None }
}

/// Every metric, in the order of CSV columns and JavaScript objects.
pub const METRICS: &[Metric] = &[
    Metric {
        name: "endMs",
        label: "time",
        unit: "ms",
        shape: Shape::Scalar,
        about: "simulated time at the end of the window",
        window: Some(Read::Scalar(|w| w.end_ms)),
        summary: None,
        batch: None,
    },
    both("insertsPerSecond", "inserts/s", "1/s", "rows inserted by user transactions per second", |w| w.rates.inserts_per_second, "insertsPerSecond").mean(),
    both("transactionsPerSecond", "transactions/s", "1/s", "user transactions committed per second (refills not counted)", |w| w.rates.transactions_per_second, "transactionsPerSecond").mean(),
    both("tpm", "TPM", "1/min", "New-Order transactions committed per minute (DBT2; 0 for other workloads in the summary)", |w| w.rates.tpm, "tpm").mean(),
    both("refillsPerSecond", "refills/s", "1/s", "refill transactions on the SYSTAB_0 counter row committed per second (every counter row's, when a spec has several tables taking ids)", |w| w.rates.refills_per_second, "hotRow.refillsPerSecond").mean(),
    both("hotRowLockUtilization", "lock busy", "fraction", "fraction of the time the counter row's lock was held, 0..1 (the first table's counter row, when a spec has several)", |w| w.rates.hot_row_lock_utilization, "hotRow.lockUtilization").mean(),
    both("hotRowQueueMean", "refills queued", "count", "mean number of refills waiting for the counter row's lock", |w| w.rates.hot_row_queue_mean, "hotRow.queueLengthMean").mean(),
    run_only("hotRowLockHoldMeanUs", "lock hold", "us", "mean time a refill held the counter row's lock", "hotRow.lockHoldMeanUs"),
    both("coordinationsPerSecond", "id fetches/s", "1/s", "ranges of ids that reached a cache per second: refills committed, service replies or ranges taken in the server (0 for timestamp ids)", |w| w.rates.coordinations_per_second, "allocator.coordinationsPerSecond").mean(),
    // Weighted by the window's inserts, as the summary's figure is.
    both("insertSkew", "insert skew", "fraction", "the busiest partition's share of the inserted rows, 1/partitions (even) to 1 (one partition)", Window::insert_skew, "keys.insertSkew")
        .weighted_by(|w| w.partition_inserts_per_second.iter().sum()),
    both("offeredPerSecond", "offered/s", "1/s", "open arrivals: transactions offered per second, against the transactions/s achieved (0 in closed loops)", |w| w.rates.offered_per_second, "arrivals.offeredPerSecond").mean(),
    both("waitingMean", "waiting", "count", "open arrivals: mean number of requests waiting for a free client thread (0 in closed loops)", |w| w.rates.waiting_mean, "arrivals.waitingMean").mean(),
    both("abortsPerSecond", "aborts/s", "1/s", "transaction attempts aborted per second and run again by their clients: aborted lock waits (timeouts, deadlocks) and failures", |w| w.rates.aborts_per_second, "abortsPerSecond").mean(),
    both("lockTimeoutsPerSecond", "aborted lock waits/s", "1/s", "of those, attempts whose row-lock wait ended in an abort (timed out, or a deadlock found at once or later), per second", |w| w.rates.lock_timeouts_per_second, "lockTimeoutsPerSecond").mean(),
    run_only("arrivalsWaitedFraction", "waited", "fraction", "open arrivals: fraction of the requests that found no free client thread and waited", "arrivals.waitedFraction"),
    run_only("arrivalWaitMeanUs", "wait", "us", "open arrivals: mean time a request waited for a free client thread, before its transaction started", "arrivals.waitUs.mean"),
    run_only("arrivalWaitP99Us", "wait p99", "us", "open arrivals: 99th percentile of that wait", "arrivals.waitUs.p99"),
    run_only("arrivalsRefused", "refused", "count", "open arrivals refused after warm-up: their API node was down or restarted under them, its waiting line was full, or the rate was set to 0 while they waited", "arrivals.refused"),
    Metric {
        name: "latencyMeanUs",
        label: "mean",
        unit: "us",
        shape: Shape::Scalar,
        about: "mean response time of user transactions, first round to commit confirmation",
        window: None,
        summary: Some("latencyUs.mean"),
        // Weighted by the window's commits, as the summary's figure is.
        batch: Some(Weight::Parts(|w| (w.latency_sum_us, w.latency_count as f64))),
    },
    both("latencyP50Us", "p50", "us", "median response time of user transactions", |w| w.latency_p50_us, "latencyUs.p50"),
    both("latencyP99Us", "p99", "us", "99th percentile response time of user transactions", |w| w.latency_p99_us, "latencyUs.p99"),
    both("boundTransactionsPerSecond", "bound", "1/s", "the bound the bottleneck sets on user transactions per second (servers / its demand per transaction; a window's leaves the clients out)", |w| w.bound.bound_transactions_per_second, "bottleneck.boundTransactionsPerSecond"),
    both("bottleneckUtilization", "bottleneck busy", "fraction", "the bottleneck's busy fraction per server, 0..1: near 1, it sets the throughput", |w| w.bound.utilization, "bottleneck.utilization"),
    Metric {
        name: "bottleneckKind",
        label: "bottleneck",
        unit: "code",
        shape: Shape::Scalar,
        about: "what kind of resource the window's bottleneck is: 0 none, 1 a data node's thread, 2 an API node's CPU, 3 the allocator service, 4 the SYSTAB_0 counter row, 5 a row of the workload, 6 an id-cache mutex, 7 a timestamp sequence, 9 the offered load (open arrivals below saturation)",
        window: Some(Read::Scalar(|w| w.bound.kind)),
        summary: None,
        batch: None,
    },
    run_only("idsLost", "ids lost", "count", "ids that will never be issued (API node restarts, service failovers), whole run", "allocator.idsLost"),
    run_only("inOrderFraction", "in order", "fraction", "fraction of ids greater than the id issued just before them anywhere: 1 = globally increasing", "allocator.inOrderFraction"),
    vector("nodeLoad", "load", "fraction", Shape::PerNode, "busy fraction of each data node's threads, averaged, 0..1", |w| w.node_load.as_slice()),
    vector("nodeTcPerSecond", "TC txn/s", "1/s", Shape::PerNode, "transactions each data node coordinated per second", |w| w.node_tc_per_second.as_slice()),
    vector("nodeMessagesPerSecond", "messages/s", "1/s", Shape::PerNode, "messages each data node received per second", |w| w.node_messages_per_second.as_slice()),
    vector("partitionInsertsPerSecond", "rows/s", "1/s", Shape::PerPartition, "rows of the inserted table placed on each partition per second", |w| w.partition_inserts_per_second.as_slice()),
];

/// Names that 0.2.0 changed so that every name ends in its unit, as `latencyP99Us` does:
/// (old, new), metric names and the run summary's paths (`[]`: each element of a list).
/// The old names stay readable through 0.2.x and go in 0.3.0: the summary writes both
/// (its structs carry the old fields, a test holds them to this table), and a name read
/// from the user (a metric, a summary path, a measured column) is taken through `renamed`.
pub const RENAMED: &[(&str, &str)] = &[
    ("hotRowLockHoldUsMean", "hotRowLockHoldMeanUs"),
    ("arrivalWaitUsMean", "arrivalWaitMeanUs"),
    ("arrivalWaitUsP99", "arrivalWaitP99Us"),
    ("hotRow.lockWaitUsMean", "hotRow.lockWaitMeanUs"),
    ("hotRow.lockHoldUsMean", "hotRow.lockHoldMeanUs"),
    ("nodes[].threadServiceUsMean", "nodes[].threadServiceMeanUs"),
    ("bottleneck.holdUsMean", "bottleneck.holdMeanUs"),
    ("resources[].holdUsMean", "resources[].holdMeanUs"),
];

/// A name as it is now: `name` itself, or its new name when 0.2.0 renamed it.
pub fn renamed(name: &str) -> &str {
    RENAMED.iter().find(|(old, _)| *old == name).map_or(name, |(_, new)| new)
}

/// The summary metrics' old names, each with its metric's place in `summary_metrics()`:
/// the columns a sweep writes last, through 0.2.x, so that a reader by the old name reads on.
pub fn old_summary_names() -> impl Iterator<Item = (&'static str, usize)> {
    RENAMED.iter().filter_map(|&(old, new)| Some((old, summary_metrics().position(|m| m.name == new)?)))
}

/// The metric named `name` (an old name too, through 0.2.x: `RENAMED`).
pub fn metric(name: &str) -> Option<&'static Metric> {
    let name = renamed(name);
    METRICS.iter().find(|m| m.name == name)
}

/// Metrics a window reports, in table order.
pub fn window_metrics() -> impl Iterator<Item = &'static Metric> {
    METRICS.iter().filter(|m| m.window.is_some())
}

/// Metrics the run summary reports (all scalars), in table order.
pub fn summary_metrics() -> impl Iterator<Item = &'static Metric> {
    METRICS.iter().filter(|m| m.summary.is_some())
}

/// Each summary metric's value in `s` (a `Summary`), in table order.
pub fn summary_values(s: &impl serde::Serialize) -> Vec<f64> {
    let v = serde_json::to_value(s).expect("the summary serialises");
    summary_metrics().map(|m| of_summary(&v, m)).collect()
}

/// A summary metric's value in a serialised summary: 0 where a part of the summary is
/// null (no bottleneck before anything commits).
pub fn of_summary(summary: &Value, m: &Metric) -> f64 {
    let path = m.summary.expect("a summary metric");
    let mut at = summary;
    for key in path.split('.') {
        match at.get(key) {
            Some(Value::Null) => return 0.0,
            Some(v) => at = v,
            None => panic!("the summary has no {path}"),
        }
    }
    at.as_f64().unwrap_or_else(|| panic!("the summary has no number at {path}"))
}

/// Windows as CSV, one row per window and a column per window metric (per-node and
/// per-partition metrics as `nodeLoad[i]`, `partitionInsertsPerSecond[p]`): what
/// `hotrow run --csv` prints and the playground downloads. Numbers are written in Rust's
/// shortest exact form, so a value reads back as the same `f64`.
pub fn windows_csv<'a>(windows: impl IntoIterator<Item = &'a Window>) -> String {
    use std::fmt::Write;
    let mut windows = windows.into_iter().peekable();
    let mut out = String::new();
    let mut header: Vec<String> = Vec::new();
    for m in window_metrics() {
        match (m.window.expect("a window metric"), windows.peek()) {
            (Read::Scalar(_), _) => header.push(m.name.to_string()),
            (Read::Vector(read), Some(first)) => header.extend((0..read(first).len()).map(|i| format!("{}[{i}]", m.name))),
            (Read::Vector(_), None) => {}
        }
    }
    out += &header.join(",");
    out.push('\n');
    for w in windows {
        let mut first = true;
        let mut cell = |out: &mut String, v: f64| {
            if !first {
                out.push(',');
            }
            first = false;
            let _ = write!(out, "{}", crate::decimal::Shortest(v));
        };
        for m in window_metrics() {
            match m.window.expect("a window metric") {
                Read::Scalar(read) => cell(&mut out, read(w)),
                Read::Vector(read) => read(w).iter().for_each(|&v| cell(&mut out, v)),
            }
        }
        out.push('\n');
    }
    out
}

/// The table for `hotrow metrics --json` and the npm `metrics()`.
pub fn describe() -> Value {
    Value::Array(
        METRICS
            .iter()
            .map(|m| {
                json!({
                    "name": m.name, "label": m.label, "unit": m.unit, "shape": m.shape.name(), "about": m.about,
                    "window": m.window.is_some(), "summary": m.summary, "interval": m.batch.is_some(),
                })
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::lookup;

    #[test]
    fn names_are_unique_and_every_summary_path_is_a_number() {
        let mut names: Vec<&str> = METRICS.iter().map(|m| m.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), METRICS.len());
        let mut sim = crate::Simulation::new(crate::Config::from_json(&json!({ "durationMs": 50, "warmupMs": 0 })).unwrap());
        sim.run_to_end();
        let v = serde_json::to_value(sim.summary()).unwrap();
        // Open arrivals' part is null in a closed loop: read from an open run too.
        let mut open = crate::Simulation::new(
            crate::Config::from_json(&json!({ "durationMs": 50, "warmupMs": 0, "arrivalRatePerApiNode": 100 })).unwrap(),
        );
        open.run_to_end();
        let open = serde_json::to_value(open.summary()).unwrap();
        for m in summary_metrics() {
            let path = m.summary.unwrap();
            let v = if path.starts_with("arrivals.") {
                assert_eq!(of_summary(&v, m), 0.0, "a closed loop reads 0 for {}", m.name);
                &open
            } else {
                &v
            };
            assert!(lookup(v, path).is_some_and(Value::is_number), "{}", m.name);
            if m.summary.unwrap().starts_with("bottleneck.") {
                assert_eq!(of_summary(&json!({ "bottleneck": null }), m), 0.0, "no bottleneck before anything commits reads 0");
            }
            assert_eq!(m.shape, Shape::Scalar, "{}: a summary metric is one number", m.name);
        }
        assert_eq!(summary_values(&sim.summary()).len(), summary_metrics().count());
    }

    #[test]
    fn old_names_read_as_the_new_ones_and_the_summary_writes_both() {
        let mut sim = crate::Simulation::new(crate::Config::from_json(&json!({ "durationMs": 50, "warmupMs": 0 })).unwrap());
        sim.run_to_end();
        let v = serde_json::to_value(sim.summary()).unwrap();
        let at = |path: &str| lookup(&v, &path.replace("[]", "[0]")).cloned();
        for &(old, new) in RENAMED {
            assert_eq!(renamed(old), new);
            assert_ne!(old, new);
            if old.contains('.') {
                assert!(at(new).is_some(), "the summary has {new}");
                assert_eq!(at(old), at(new), "{old} is written beside {new}, the same");
            } else {
                assert_eq!(metric(old).map(|m| m.name), Some(new), "{old} finds {new}");
                assert!(metric(new).is_some_and(|m| m.name == new));
            }
        }
        for m in METRICS.iter().filter(|m| m.unit == "us" || m.unit == "ms") {
            assert!(m.name.ends_with(if m.unit == "us" { "Us" } else { "Ms" }), "{}: the unit goes last", m.name);
        }
    }

    #[test]
    fn vector_metrics_have_one_value_per_node_or_partition() {
        let mut sim = crate::Simulation::new(crate::Config::from_json(&json!({ "durationMs": 250, "warmupMs": 0 })).unwrap());
        sim.run_to_end();
        let topo = sim.topology();
        let w = sim.windows().last().expect("a window closed");
        for m in window_metrics() {
            if let Some(Read::Vector(read)) = m.window {
                let want = if m.shape == Shape::PerNode { topo.data_nodes } else { topo.partitions };
                assert_eq!(read(w).len(), want as usize, "{}", m.name);
            }
        }
    }
}

//! The run summary: what `hotrow run --json` prints and `Simulation.summary()` returns.
//!
//! Its field names are a public contract read by other programs; add fields, and rename
//! one only by writing the old name beside the new for one minor version
//! (`catalog::RENAMED`). Rates are per simulated second of the measured part (after
//! warm-up). It is built from the metrics (every counter, `Metrics::totals` for the whole run),
//! the config and a few facts of the state now ([`Now`]), so it does not depend on the
//! simulation itself.

use crate::config::{Allocator, Config, Workload};
use crate::fnv::Fnv;
use crate::metrics::{Counts, Metrics};
use crate::rates::{ratio, Span, Throughput};
use crate::time::{self, Ns};
use crate::topology::Topology;
use crate::workload::TxnKind;
use serde::Serialize;

mod by_name;
mod explanation;
mod zero_load;

pub use by_name::ByName;

pub use zero_load::{Probe, ZeroLoad};
mod nodes;
mod precision;
pub use explanation::explanation;
pub use nodes::{HotRowSummary, NodeSummary};
pub use precision::{PrecisionSummary, Warmup, WarmupSummary};

fn config_as_json<S: serde::Serializer>(c: &Config, s: S) -> Result<S::Ok, S::Error> {
    c.to_json().serialize(s)
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// The effective configuration (preset and overrides applied). Written as its JSON
    /// value, so that each serialiser of a summary (the CLI's text, the module's) does not
    /// compile a copy of the config's own (8 KB of the WebAssembly module).
    #[serde(serialize_with = "config_as_json")]
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
    /// What every surface says of the run, decided once (`facts/`): the headline figure,
    /// the row that binds, the id counter row in use, whether the bug report's lines apply.
    pub facts: crate::facts::Facts,
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
    pub latency_by_type_us: ByName<Latency>,
    pub committed_by_type: ByName<u64>,
    /// Client threads in all API nodes.
    pub clients: u32,
    /// Open arrivals (`arrivalRatePerApiNode` > 0): offered against achieved, and the
    /// requests that waited for a free client thread; null in closed loops.
    pub arrivals: Option<ArrivalsSummary>,
    /// Transaction attempts aborted by faults or lock wait timeouts (and retried by their
    /// clients), whole run.
    pub aborts: u64,
    /// Of those, attempts that waited `lockWaitTimeoutMs` for a row lock (deadlocks end so).
    pub lock_timeouts: u64,
    /// The same per second after warm-up.
    pub aborts_per_second: f64,
    pub lock_timeouts_per_second: f64,
    /// The rows whose (primary) locks were busiest after warm-up, busiest first (at most
    /// ten; the SYSTAB_0 counter row among them when it is hot): see `heat.rs`.
    pub hottest_rows: Vec<crate::row_report::RowReport>,
    /// The resource that holds the throughput: the lowest bound of a resource whose busy
    /// time is its own work (`explain/mod.rs`); null while nothing committed.
    pub bottleneck: Option<crate::explain::Resource>,
    /// What throughput would be if the bottleneck were relieved, and what would hold it.
    pub next_ceiling: Option<crate::explain::NextCeiling>,
    /// The busiest resources (threads, row locks, mutexes, the service, the clients), by
    /// utilization.
    pub resources: Vec<crate::explain::Resource>,
    /// When lock-wait timeouts cost the clients a material share of their time: how much,
    /// and the lock-order cycles they ended; null otherwise.
    pub deadlocks: Option<crate::explain::Deadlocks>,
    /// The 95% intervals of the bottleneck's bound and of the next ceiling, by batch means
    /// over the measured run (`explain/batched.rs`); null with fewer than 10 measured windows.
    pub bound_intervals: Option<crate::explain::BoundIntervals>,
    /// What the id strategy costs: coordinations, their latency, ids lost, order.
    pub allocator: AllocatorSummary,
    /// Where the inserted rows landed.
    pub keys: KeysSummary,
    /// The 95% interval of every figure that is a mean over the measured period, by batch
    /// means over its windows (`intervals.rs`); null with fewer than 10 measured windows.
    pub intervals: Option<crate::intervals::Intervals>,
    /// A run asked to stop at a precision: whether it did, and the precision it reached;
    /// null when none was asked (`precision` 0).
    pub precision: Option<PrecisionSummary>,
    /// Where the measured period began, and why: after `warmupMs`, or where a detected
    /// warm-up (`warmup: "auto"`) put it.
    pub warmup: WarmupSummary,
    pub digest: String,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AllocatorSummary {
    /// `counterRow`, `centralService` or `timestamp`.
    pub kind: Allocator,
    /// Ranges that reached a cache per second: refills committed or service requests
    /// answered (0 for timestamp ids).
    pub coordinations_per_second: f64,
    /// Ids that will never be issued (API node restarts, service failovers), whole run.
    pub ids_lost: u64,
    /// From asking for a range to its arrival, in microseconds.
    pub coordination_latency_us: MeanP99,
    /// Fraction of ids issued (whole run) that were greater than the id issued just
    /// before them anywhere in the cluster: 1 = globally increasing.
    pub in_order_fraction: f64,
}

/// Open arrivals after warm-up. Achieved is `transactionsPerSecond`; a request's
/// response time (`latencyUs`) starts when its transaction does, after its wait here.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArrivalsSummary {
    /// Transactions offered per second, over every API node.
    pub offered_per_second: f64,
    /// Mean number of requests waiting for a free client thread.
    pub waiting_mean: f64,
    /// Fraction of the offered requests that found no free client thread and waited.
    pub waited_fraction: f64,
    /// How long requests waited before their transaction started (0 for those that
    /// found a free client thread).
    pub wait_us: MeanP99,
    /// Requests refused: their API node was down (or restarted under them), its waiting
    /// line was full, or the rate was set to 0 while they waited.
    pub refused: u64,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MeanP99 {
    pub mean: f64,
    pub p99: f64,
}

impl MeanP99 {
    fn of(h: &crate::hist::Histogram) -> MeanP99 {
        let l = Latency::of(h);
        MeanP99 { mean: l.mean, p99: l.p99 }
    }
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KeysSummary {
    /// The busiest partition's share of inserted rows, 1/partitions (even) to 1 (all in
    /// one partition); 0 when nothing was inserted. Taken per metrics window (the
    /// busiest partition at the time) and averaged weighted by inserts, so that a hotspot
    /// that moves, as the newest range does, still counts as one.
    pub insert_skew: f64,
    /// The partition that took the most inserted rows over the run.
    pub hottest_partition: u32,
    /// Partitions that took at least one inserted row.
    pub partitions_touched: u32,
}

impl KeysSummary {
    fn of(m: &Metrics) -> KeysSummary {
        let per_partition = &m.partition_inserts;
        let (hottest, _) = per_partition.iter().enumerate().fold((0, 0), |best, (p, &n)| if n > best.1 { (p, n) } else { best });
        let (busiest, total) = m.skew_so_far();
        KeysSummary {
            insert_skew: ratio(busiest, total),
            hottest_partition: hottest as u32,
            partitions_touched: per_partition.iter().filter(|&&n| n > 0).count() as u32,
        }
    }
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
            mean: time::as_us(h.mean()),
            p50: time::as_us(h.quantile(0.5) as f64),
            p99: time::as_us(h.quantile(0.99) as f64),
            count: h.count(),
        }
    }
}

/// What the summary reads of the simulation's state now (its counters are all in the
/// metrics): the time, where the counter row is, what the id checkers found, the clients.
#[derive(Clone, Copy, Debug)]
pub struct Now<'a> {
    pub at_ns: Ns,
    pub hot_row_node: u32,
    /// The SYSTAB_0 counter row's key.
    pub counter_row: u64,
    /// The response time at zero load, measured by `probe` when first asked for.
    pub zero_load: &'a ZeroLoad,
    pub probe: Probe,
    /// Ids the invariant checkers found issued twice (must be 0).
    pub duplicate_ids: u64,
    /// Active client threads.
    pub active_clients: u32,
    /// The run stopped at its precision.
    pub stopped: bool,
    /// Where the warm-up stands.
    pub warmup: Warmup,
}

impl Summary {
    pub fn build(m: &Metrics, cfg: &Config, topo: &Topology, now: &Now) -> Summary {
        let measured_ns = now.at_ns.saturating_sub(m.warmup_end_ns);
        let span = Span::of_ns(measured_ns);
        let r: &Counts = &m.run;
        let t = Throughput::of(r, span);
        let nodes = NodeSummary::all(m, topo, span, now.hot_row_node);
        let hot_row = HotRowSummary::of(r, &t, now.hot_row_node);
        let hottest = m.run_top_rows(now.at_ns);
        let explained = explanation(m, cfg, topo, now);
        let (latency_by_type_us, committed_by_type) = by_type(m, cfg);
        let hottest_rows = crate::row_report::report(cfg, &hottest, measured_ns);
        let binding = explained.bottleneck.as_ref().map(|b| crate::facts::Binding { kind: b.kind, id: b.id, utilization: b.utilization });
        let facts = crate::facts::Facts::of(cfg, binding, &hottest_rows, (now.counter_row, now.hot_row_node), r.aborts > 0);
        Summary {
            config: cfg.clone(),
            simulated_seconds: span.secs(),
            events: m.totals.events,
            inserts_per_second: t.inserts_per_second,
            transactions_per_second: t.transactions_per_second,
            tpm: if cfg.workload == Workload::Dbt2 { t.tpm } else { 0.0 },
            facts,
            nodes,
            hot_row,
            ids_issued: m.totals.ids_issued,
            ids_lost: m.totals.ids_lost,
            duplicate_ids: now.duplicate_ids,
            latency_us: Latency::of(&m.latency_all),
            latency_by_type_us,
            committed_by_type,
            clients: now.active_clients,
            arrivals: (cfg.arrival_rate_per_api_node > 0 || m.totals.arrivals > 0).then(|| ArrivalsSummary {
                offered_per_second: t.offered_per_second,
                waiting_mean: t.waiting_mean,
                waited_fraction: ratio(r.arrivals_waited, r.arrivals),
                wait_us: MeanP99::of(&m.arrival_wait),
                refused: r.arrivals_refused,
            }),
            aborts: m.totals.aborts,
            lock_timeouts: m.totals.lock_timeouts,
            aborts_per_second: t.aborts_per_second,
            lock_timeouts_per_second: t.lock_timeouts_per_second,
            hottest_rows,
            bottleneck: explained.bottleneck,
            next_ceiling: explained.next_ceiling,
            resources: explained.resources,
            deadlocks: explained.deadlocks,
            bound_intervals: explained.bound_intervals,
            allocator: AllocatorSummary {
                kind: cfg.allocator,
                coordinations_per_second: t.coordinations_per_second,
                ids_lost: m.totals.ids_lost,
                coordination_latency_us: MeanP99::of(&m.coordination_latency),
                in_order_fraction: ratio(m.totals.ids_in_order, m.totals.ids_issued),
            },
            keys: KeysSummary::of(m),
            intervals: precision::intervals(m, cfg),
            precision: precision::of(m, cfg, now.stopped),
            warmup: precision::warmup(m, cfg, &now.warmup),
            digest: digest(m, now),
        }
    }
}

/// Latency and commits per transaction type that committed, by the type's name.
fn by_type(m: &Metrics, cfg: &Config) -> (ByName<Latency>, ByName<u64>) {
    let mut latency = ByName::default();
    let mut committed = ByName::default();
    for kind in TxnKind::ALL {
        let h = &m.latency[kind.index()];
        if h.count() > 0 {
            let name = crate::waits::kind_name(cfg, kind);
            latency.insert(name.clone(), Latency::of(h));
            committed.insert(name, m.run.committed(kind));
        }
    }
    (latency, committed)
}

/// Kinds the digest always feeds: those of versions before workload specs (DBT2's five, the
/// built-in insert's slot, the refill). Other kinds join it only when they committed, so
/// those runs' digests did not move.
const DIGEST_KINDS: usize = 7;

/// The run digest: FNV-1a over every integer outcome of a run (events, time, commits per
/// kind, hot-row accounting, per-node and per-thread counters, ids, aborts, the latency
/// histogram). Any change in behaviour changes it, and it is the same on every target for
/// the same seed and config: the golden tests pin it natively and in wasm.
fn digest(m: &Metrics, now: &Now) -> String {
    let mut h = Fnv::default();
    let mut feed = |v: u64| h.feed(&v.to_le_bytes());
    let t = &m.totals;
    feed(t.events);
    feed(now.at_ns);
    let r = &m.run;
    let used = |k: &TxnKind| k.index() < DIGEST_KINDS || m.latency[k.index()].count() > 0;
    TxnKind::ALL.iter().filter(|k| used(k)).for_each(|&k| feed(r.committed(k)));
    for v in [r.inserts, r.hot_busy_ns, r.hot_hold_sum_ns, r.hot_holds, r.hot_wait_ns, r.hot_grants, r.hot_queue_ns] {
        feed(v);
    }
    // Busy time as it was fed before it was derived from the stations': per node, then per
    // data-node thread (the first stations).
    let threads = m.thread_services.len();
    let node_busy = r.node_busy_ns(threads / r.node_messages.len().max(1));
    for list in [&r.node_messages, &r.node_tc_txns, &node_busy, &r.station_busy_ns[..threads].to_vec(), &m.thread_services] {
        list.iter().for_each(|&v| feed(v));
    }
    feed(t.ids_issued);
    feed(t.ids_lost);
    feed(now.duplicate_ids);
    feed(t.aborts);
    feed(t.ids_in_order);
    feed(r.coordinations);
    m.partition_inserts.iter().for_each(|&v| feed(v));
    m.coordination_latency.for_each_bucket(&mut feed);
    m.latency_all.for_each_bucket(&mut feed);
    for k in TxnKind::ALL.iter().filter(|k| used(k)) {
        feed(m.latency[k.index()].sum());
    }
    // Open arrivals, only when there were any: closed loops keep their digests.
    if t.arrivals > 0 {
        for v in [t.arrivals, r.arrivals, r.arrivals_waited, r.arrivals_refused, r.waiting_ns] {
            feed(v);
        }
        m.arrival_wait.for_each_bucket(&mut feed);
    }
    format!("{:016x}", h.value())
}

//! Explaining a number: which resource holds the throughput, the ceiling it sets, the next
//! ceiling if it were relieved, and who waits for whom on a hot row.
//!
//! The operational laws (Denning and Buzen 1978; Lazowska et al., *Quantitative System
//! Performance*, 1984, ch. 3 and 5), applied to what the simulation counted over a span:
//!
//! - a resource's **utilization** U is its busy time over the span, per server;
//! - its **demand** D is its busy time per committed user transaction;
//! - the **bound** it sets is servers / D transactions per second (= X / U): no
//!   throughput can pass it, and a saturated resource (U near 1) sets X.
//!
//! Resources are every station (a data node's thread, an API node's cores, the allocator
//! service), every tracked row lock (the SYSTAB_0 counter row among them), each API node's
//! id-cache mutex, each API node's timestamp sequence, and the client population
//! (N / (R0 + Z), R0 the response time at zero load, measured by `crate::probe`).
//!
//! A lock is busy while held, and its holder may spend that time waiting in another queue
//! (for another lock, an id, a busy thread): in a convoy every lock on the way is 100%
//! busy, but only one does its own work. So each lock also counts its *blocked* time, and
//! a lock blocked for at least half its busy time is a **victim**, never the bottleneck.
//! The **bottleneck** is the resource that is not a victim with the lowest bound; on a tie
//! within 1% a thread wins over a lock (a saturated thread stretches every hold).
//!
//! A hot spot can move: the newest range of a range-partitioned table takes every insert
//! until it splits, so each of its threads is saturated in turn and none over the whole
//! run. When the windows' bottlenecks were saturated but the run's is not, the moving
//! hot spot is the bottleneck (`moving.rs`).
//!
//! The **next ceiling** is what the bottleneck's standard relief would leave: for an
//! allocator resource (the counter row, a mutex, the service, a timestamp sequence) the
//! allocator's own work leaves every thread's demand, its resources go, and the clients'
//! zero-load response time is measured again with the relief (a cache of a million ids,
//! or the widest sequence); for a row, that row goes; for a thread, every thread of its
//! kind at the same bound goes with it; every lock left keeps only its own work (its
//! holders' waits shrink when the root is relieved). The lowest bound left, the client
//! bound among them, is the next ceiling.

mod batched;
mod deadlocks;
mod lock_order;
mod moving;
mod named;
mod remedies;
mod resources;

pub(crate) use batched::again;
pub use batched::BoundIntervals;
pub(crate) use deadlocks::{lost_per_commit_us, of as deadlocks_of};
pub use deadlocks::{Cycle, CycleStep, Deadlocks};
pub use moving::Moving;
pub use remedies::remedies;
pub use remedies::Remedy;
pub use resources::Load;
pub(crate) use resources::{ClientsIn, Inputs};

use crate::config::Config;
use serde::Serialize;

/// What kind of resource holds the throughput.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A data node's thread (its one thread in 2008's ndbd, an LDM or a TC thread).
    Thread,
    /// An API node's CPU cores.
    ApiCpu,
    /// The central allocator service's thread.
    Service,
    /// The SYSTAB_0 counter row the hidden keys come from.
    CounterRow,
    /// A row of the workload's own tables.
    Row,
    /// An API node's id-cache mutex (mysqld's table share), held while its range refills.
    IdCache,
    /// An API node's timestamp sequence: 2^sequenceBits ids per tick.
    Timestamp,
    /// The clients: N / (zero-load response time + think time); with open arrivals, the
    /// client threads (connections) with no think time.
    Clients,
    /// Open arrivals: the rate offered, which nothing can exceed.
    Offered,
}

crate::named::by_name!(Kind, [Thread, ApiCpu, Service, CounterRow, Row, IdCache, Timestamp, Clients, Offered]);

impl Kind {
    const NAMES: &'static [&'static str] =
        &["thread", "apiCpu", "service", "counterRow", "row", "idCache", "timestamp", "clients", "offered"];

    /// Every kind, in the order of their codes (1..): the window column
    /// `bottleneckKind` holds the code, 0 for none.
    pub(crate) const ALL: [Kind; 9] = [
        Kind::Thread,
        Kind::ApiCpu,
        Kind::Service,
        Kind::CounterRow,
        Kind::Row,
        Kind::IdCache,
        Kind::Timestamp,
        Kind::Clients,
        Kind::Offered,
    ];

    /// The kind with window code `code` (0, none, and anything else unknown: `None`).
    pub fn of_code(code: f64) -> Option<Kind> {
        (code >= 1.0).then(|| Kind::ALL.get(code as usize - 1).copied()).flatten()
    }

    pub fn code(self) -> f64 {
        (Kind::ALL.iter().position(|&k| k == self).expect("listed") + 1) as f64
    }

    /// The kind in words, for a label: "a counter row", "data-node threads".
    pub fn label(self) -> &'static str {
        match self {
            Kind::Thread => "data-node threads",
            Kind::ApiCpu => "API node CPUs",
            Kind::Service => "the allocator service",
            Kind::CounterRow => "a counter row",
            Kind::Row => "a row's lock",
            Kind::IdCache => "the id-cache mutex",
            Kind::Timestamp => "the timestamp sequence",
            Kind::Clients => "the clients",
            Kind::Offered => "the offered load",
        }
    }

    /// The kind named `name` (as the summary writes it: `counterRow`).
    pub fn named(name: &str) -> Option<Kind> {
        Kind::ALL.iter().copied().find(|k| k.name() == name)
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Thread => "thread",
            Kind::ApiCpu => "apiCpu",
            Kind::Service => "service",
            Kind::CounterRow => "counterRow",
            Kind::Row => "row",
            Kind::IdCache => "idCache",
            Kind::Timestamp => "timestamp",
            Kind::Clients => "clients",
            Kind::Offered => "offered",
        }
    }

    /// Locks and mutexes: busy while held, blocked while their holders wait elsewhere.
    pub(crate) fn is_lock(self) -> bool {
        matches!(self, Kind::CounterRow | Kind::Row | Kind::IdCache)
    }

    /// The id allocator's resources: a cache, the hint or a wider sequence relieves them.
    pub(crate) fn is_allocator(self) -> bool {
        matches!(self, Kind::CounterRow | Kind::IdCache | Kind::Service | Kind::Timestamp)
    }
}

/// One resource, as reports give it.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    /// Which resource it is across spans (`Load::id`: a row's full key for a row lock).
    #[serde(skip)]
    pub id: u64,
    /// In the user's words: "LDM thread 3 of data node 5", "the counter row of `history`
    /// in SYSTAB_0, on data node 1", "512 clients thinking 0 us".
    pub name: String,
    pub kind: Kind,
    /// The data node (threads, rows) or API node (API CPU, id cache, timestamp) it is on.
    pub node: Option<u32>,
    pub servers: u32,
    /// Busy time over the span, per server, 0..=1.
    pub utilization: f64,
    /// Of its busy time, the share its holders spent waiting for other locks or for ids,
    /// and for busy threads (locks only; 0 for threads).
    pub blocked_fraction: f64,
    pub queued_fraction: f64,
    /// Of its busy time, the share that was the id allocator's work (refill transactions,
    /// service requests; threads only).
    pub allocator_fraction: f64,
    /// Busy time per committed user transaction, in microseconds (servers / bound).
    pub demand_us: f64,
    /// The most user transactions per second it lets through: servers / demand.
    pub bound_transactions_per_second: f64,
    /// A lock: grants per second, its mean hold, and its own ceiling 1 / hold.
    pub grants_per_second: Option<f64>,
    pub hold_mean_us: Option<f64>,
    /// `holdMeanUs` under its old name, written through 0.2.x (`catalog::RENAMED`).
    #[serde(rename = "holdUsMean")]
    pub old_hold_us_mean: Option<f64>,
    pub ceiling_grants_per_second: Option<f64>,
}

/// The throughput left if the bottleneck were relieved.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NextCeiling {
    /// User transactions per second.
    pub transactions_per_second: f64,
    /// The resource that would hold it then, and its kind.
    pub held_by: String,
    pub kind: Kind,
    /// What was assumed relieved.
    pub relieved: String,
}

/// Everything the explanation says of a span.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Explanation {
    /// True when nothing was measured yet (the run is in or at the end of its warm-up):
    /// the explanation is then of the last window closed, warm-up time, not of the
    /// measured period.
    pub warm_up: bool,
    pub bottleneck: Option<Resource>,
    pub next_ceiling: Option<NextCeiling>,
    /// The busiest resources, by utilization (at most `TOP`).
    pub resources: Vec<Resource>,
    /// When lock-wait timeouts cost the clients a material share of their time: how much,
    /// and the lock-order cycles they ended (`deadlocks.rs`).
    pub deadlocks: Option<Deadlocks>,
    /// The 95% intervals of the bound and the next ceiling, by batch means over the measured
    /// run (`batched.rs`); null before 10 batches' worth was measured.
    pub bound_intervals: Option<BoundIntervals>,
    /// The bottleneck is a moving hot spot (`moving.rs`): its batches are worked out so too.
    #[serde(skip)]
    pub moving: bool,
}

/// Resources a report lists.
pub const TOP: usize = 8;

/// A window's bottleneck, as the metric table's columns: its kind's code (0: none), the
/// bound it sets and its utilization. Windows leave the clients out (their zero-load
/// response time is measured for the summary).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WindowBound {
    /// Which resource (`Load::id`), to see a hot spot move from window to window.
    pub id: u64,
    pub kind: f64,
    pub bound_transactions_per_second: f64,
    pub utilization: f64,
}

impl WindowBound {
    pub(crate) fn of(inputs: &Inputs) -> WindowBound {
        let (loads, x) = (inputs.loads(), inputs.x());
        match bottleneck(&loads, x).filter(|_| x > 0.0) {
            Some(b) => WindowBound {
                id: loads[b].id,
                kind: loads[b].kind.code(),
                bound_transactions_per_second: loads[b].bound(x),
                utilization: loads[b].utilization(),
            },
            None => WindowBound::default(),
        }
    }
}

/// Explains a span: the bottleneck, the next ceiling and the busiest resources.
/// `relieved_zero_load_us` gives the clients' zero-load response time with the allocator
/// relieved (asked for only when an allocator resource is the bottleneck).
pub fn explain(loads: &[Load], x: f64, relieved_zero_load_us: &dyn Fn() -> f64, moved: Option<&Moving>, cfg: &Config) -> Explanation {
    if x <= 0.0 {
        return Explanation { resources: top(loads, x), ..Explanation::default() };
    }
    let Some(b) = bottleneck(loads, x) else {
        return Explanation { resources: top(loads, x), ..Explanation::default() };
    };
    if let Some(m) = moved.filter(|_| loads[b].utilization() < moving::SATURATED) {
        if let Some(e) = m.explain(loads, x) {
            return Explanation { resources: top(loads, x), moving: true, ..e };
        }
    }
    // A ceiling below the bound it would lift is no ceiling: the bottleneck was not
    // saturated (the clients lost time to something no resource was busy with).
    let next = next_ceiling(loads, b, x, relieved_zero_load_us, cfg).filter(|n| n.transactions_per_second >= loads[b].bound(x));
    Explanation { bottleneck: Some(loads[b].report(x)), next_ceiling: next, resources: top(loads, x), ..Explanation::default() }
}

/// The index of the bottleneck: the lowest bound of a resource that is not a victim.
pub fn bottleneck(loads: &[Load], x: f64) -> Option<usize> {
    let thread_bound = loads.iter().filter(|l| l.is_thread()).map(|l| l.bound(x)).fold(f64::INFINITY, f64::min);
    // A lock must be more than 1% below a thread to be named before it.
    let rank = |l: &Load| l.bound(x) * if l.kind.is_lock() { 1.01 } else { 1.0 };
    (0..loads.len())
        .filter(|&i| loads[i].in_use() && !loads[i].victim(x, thread_bound))
        .min_by(|&a, &b| rank(&loads[a]).total_cmp(&rank(&loads[b])).then(a.cmp(&b)))
}

fn top(loads: &[Load], x: f64) -> Vec<Resource> {
    // Busiest first, by index among equals: as pairs of u64 (a utilization's bits order as the
    // utilization does, it being 0..=1), the one sort the WebAssembly module keeps (`locks.rs`).
    let mut order: Vec<(u64, u64)> = (0..loads.len())
        .filter(|&i| loads[i].in_use())
        .map(|i| (u64::MAX - loads[i].reported_utilization(x).to_bits(), i as u64))
        .collect();
    order.sort_unstable();
    order.into_iter().take(TOP).map(|(_, i)| loads[i as usize].report(x)).collect()
}

#[inline(never)] // One copy for `explain` and `batched::again` (the main WebAssembly module's size).
pub(crate) fn next_ceiling(loads: &[Load], b: usize, x: f64, relieved_zero_load_us: &dyn Fn() -> f64, cfg: &Config) -> Option<NextCeiling> {
    let neck = &loads[b];
    let (relieved, left): (String, Vec<Load>) = if neck.kind.is_allocator() {
        let text = match cfg.allocator {
            crate::config::Allocator::Timestamp => "the timestamp sequence (the widest sequence: no insert waits for a tick)",
            crate::config::Allocator::CentralService => {
                "the id allocator (a cache of 1,000,000 ids: requests to the service, their thread work and their waits are gone)"
            }
            crate::config::Allocator::CounterRow if cfg.autoinc_table_lock() => {
                "the AUTO-INC lock (innodb_autoinc_lock_mode 1: a light mutex)"
            }
            crate::config::Allocator::CounterRow => {
                "the id allocator (a cache of 1,000,000 ids: refills, their thread work and their waits are gone)"
            }
        };
        let left = loads
            .iter()
            .filter(|l| !l.kind.is_allocator())
            .map(|l| match l.kind {
                Kind::Clients => l.with_zero_load(relieved_zero_load_us()),
                _ => l.without_allocator_work(),
            })
            .collect();
        (text.to_string(), left)
    } else if neck.kind == Kind::Clients && neck.lost_us() > 0.0 {
        // Clients that lose time to lock-wait timeouts: relieved, they lose none (the
        // lock order fixed, `deadlocks.rs`), and keep their own bound.
        let left = loads.iter().map(|l| if l.kind == Kind::Clients { l.without_timeouts() } else { l.clone() }).collect();
        ("the aborted lock waits (no commit waits one out)".to_string(), left)
    } else if neck.kind.is_lock() || matches!(neck.kind, Kind::Clients | Kind::Offered) {
        (neck.name.clone(), loads.iter().enumerate().filter(|&(i, _)| i != b).map(|(_, l)| l.clone()).collect())
    } else {
        let bound = neck.bound(x);
        let together: Vec<usize> = (0..loads.len()).filter(|&i| loads[i].kind == neck.kind && loads[i].bound(x) <= bound * 1.02).collect();
        let text =
            if together.len() > 1 { format!("{} and {} more at the same bound", neck.name, together.len() - 1) } else { neck.name.clone() };
        (text, loads.iter().enumerate().filter(|(i, _)| !together.contains(i)).map(|(_, l)| l.clone()).collect())
    };
    let left: Vec<Load> = left.into_iter().map(|l| l.own_work_only()).collect();
    // Relieving a lock or the allocator moves where the threads' work lands (the convoy
    // held some clients more than others); the threads' total work per transaction stays.
    let left = if neck.is_thread() { left } else { Load::pooled(left) };
    let next =
        (0..left.len()).filter(|&i| left[i].in_use()).min_by(|&a, &c| left[a].bound(x).total_cmp(&left[c].bound(x)).then(a.cmp(&c)))?;
    let l = &left[next];
    Some(NextCeiling { transactions_per_second: l.bound(x), held_by: l.name.clone(), kind: l.kind, relieved })
}

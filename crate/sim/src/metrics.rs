//! Measurements: a ring of fixed-width windows for live charts, and run totals counted
//! after warm-up for the summary.
//!
//! Everything is counted in integers (nanoseconds, events) so the digest is the same on
//! every target; rates are derived only when reported. Memory is bounded: the window
//! ring has a fixed capacity and histograms a fixed size.

pub use crate::counts::{Counts, Dims, Totals};
use crate::heat::{Doorkeeper, RowHeat, RowLockTotals};
use crate::hist::Histogram;
use crate::rates::{Span, Throughput};
use crate::time::{self, Ns};
use crate::workload::{TxnKind, TXN_KINDS};
use serde::Serialize;
use std::collections::VecDeque;

mod batches;
mod rows;

pub use batches::span_ns as batch_span_ns;

/// Windows kept for charts: 20 minutes at the default 100 ms.
pub const WINDOW_RING: usize = 12_000;

/// One closed window, as charts read it.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Window {
    pub end_ms: f64,
    /// Throughput and hot-row figures (serialised flat: `tpm`, `insertsPerSecond`, ...).
    #[serde(flatten)]
    pub rates: Throughput,
    pub latency_p50_us: f64,
    pub latency_p99_us: f64,
    /// The window's user transactions' response times summed, and how many: its part of the
    /// run's mean latency (its interval, `intervals.rs`). Not serialised with the window.
    #[serde(skip)]
    pub latency_sum_us: f64,
    #[serde(skip)]
    pub latency_count: u64,
    /// Busy fraction per data node (mean over its threads), 0..=1.
    pub node_load: Vec<f64>,
    pub node_tc_per_second: Vec<f64>,
    pub node_messages_per_second: Vec<f64>,
    /// Rows of the inserted table placed on each partition, per second.
    pub partition_inserts_per_second: Vec<f64>,
    /// The window's bottleneck: its kind's code, bound and utilization (`explain/mod.rs`).
    #[serde(skip)]
    pub bound: crate::explain::WindowBound,
    /// The window's busiest row locks (at most `heat::HOT_ROWS`), busiest first, as totals
    /// over the window (`windowMs`); `row_report::report` gives their rates (the wasm snapshot's
    /// `hottestRows`). Not serialised with the window.
    #[serde(skip)]
    pub hottest_rows: Vec<RowLockTotals>,
}

impl Window {
    /// The busiest partition's share of the rows inserted in the window (0 when none).
    pub fn insert_skew(&self) -> f64 {
        let p = &self.partition_inserts_per_second;
        let total: f64 = p.iter().sum();
        if total > 0.0 {
            p.iter().cloned().fold(0.0, f64::max) / total
        } else {
            0.0
        }
    }
}

#[derive(Clone)]
pub struct Metrics {
    threads_per_node: u64,
    /// CPU cores behind each data-node station (`Topology::data_cores`): a node's load
    /// is its stations' busy time over threads x cores.
    data_cores: u64,
    window_ns: Ns,
    pub window_start_ns: Ns,
    pub window: Counts,
    /// The last closed window's counters (what an explanation at the end of the warm-up
    /// is of, before anything was measured), and when it started.
    pub last_window: Counts,
    pub last_window_start_ns: Ns,
    pub window_latency: Histogram,
    pub windows: VecDeque<Window>,
    pub windows_closed: u64,
    /// Run totals after warm-up.
    pub warmup_end_ns: Ns,
    pub run: Counts,
    pub latency: [Histogram; TXN_KINDS],
    /// All user transactions together.
    pub latency_all: Histogram,
    /// Per data-node thread after warm-up: services completed (its busy ns is the run's
    /// `station_busy_ns`: data-node threads are the first stations).
    pub thread_services: Vec<u64>,
    /// Per data-node thread after warm-up: whole CPU cost of the services completed.
    pub thread_cost_ns: Vec<u64>,
    /// Whole-run totals (events, ids, aborts).
    pub totals: Totals,
    /// Sum of all messages sent and delivered over the whole run (conservation check).
    pub messages_sent: u64,
    pub messages_delivered: u64,
    /// After warm-up: from asking for a range to its arrival (refill or service request).
    pub coordination_latency: Histogram,
    /// After warm-up: how long open arrivals waited for a free client thread (0 for those
    /// that found one).
    pub arrival_wait: Histogram,
    /// After warm-up: rows of the inserted table placed on each partition.
    pub partition_inserts: Vec<u64>,
    /// After warm-up: the lock-wait timeouts by the lock-order cycle they ended.
    pub cycles: crate::cycles::Cycles,
    /// After warm-up: the measured windows' counters in consecutive buckets, for the
    /// intervals of the bound and the next ceiling (`batches.rs`).
    pub batches: batches::Buckets,
    /// The same in the open window, and over closed windows after warm-up: the busiest
    /// partition's inserts summed, and all inserts summed (insert skew = their ratio).
    window_partition_inserts: Vec<u64>,
    skew_busiest: u64,
    skew_total: u64,
    /// The busiest row locks of the open window, and of the run (through the warm-up,
    /// restarted at its end: the rows hot then are counted from the first measured
    /// nanosecond).
    window_heat: RowHeat,
    heat: RowHeat,
    heat_measuring: bool,
    /// Off but in the swarm: every row's primary-lock releases after warm-up, counted
    /// one by one beside the bounded tracker, to hold it to (`check_hot_rows`).
    audit: Option<std::collections::BTreeMap<u64, u64>>,
    /// Which rows came back: only those are admitted to the two above.
    door: Doorkeeper,
}

impl Metrics {
    pub fn new(dims: Dims, (threads_per_node, data_cores): (u32, u32), partitions: u32, window_ns: Ns, warmup_end: Ns) -> Metrics {
        let nodes = dims.nodes as u32;
        let threads = (nodes * threads_per_node) as usize;
        Metrics {
            threads_per_node: threads_per_node as u64,
            data_cores: data_cores as u64,
            window_ns,
            window_start_ns: 0,
            window: Counts::sized(dims),
            last_window: Counts::sized(dims),
            last_window_start_ns: 0,
            window_latency: Histogram::default(),
            windows: VecDeque::with_capacity(1024),
            windows_closed: 0,
            warmup_end_ns: warmup_end,
            run: Counts::sized(dims),
            latency: Default::default(),
            latency_all: Histogram::default(),
            thread_services: vec![0; threads],
            thread_cost_ns: vec![0; threads],
            totals: Totals::default(),
            messages_sent: 0,
            messages_delivered: 0,
            coordination_latency: Histogram::default(),
            arrival_wait: Histogram::default(),
            partition_inserts: vec![0; partitions as usize],
            cycles: Default::default(),
            batches: Default::default(),
            window_partition_inserts: vec![0; partitions as usize],
            skew_busiest: 0,
            skew_total: 0,
            window_heat: RowHeat::default(),
            heat: RowHeat::default(),
            heat_measuring: false,
            audit: None,
            door: Doorkeeper::default(),
        }
    }

    /// The warm-up ends again at `now` (a detected warm-up found the transient longer than
    /// the least asked): every counter of the run starts over from here; the windows and the
    /// whole-run totals stay.
    pub fn restart_run(&mut self, now: Ns) {
        self.warmup_end_ns = now;
        self.run.reset();
        self.latency.iter_mut().for_each(Histogram::clear);
        self.latency_all.clear();
        self.thread_services.fill(0);
        self.thread_cost_ns.fill(0);
        self.coordination_latency.clear();
        self.arrival_wait.clear();
        self.partition_inserts.fill(0);
        self.cycles = Default::default();
        self.batches.clear();
        (self.skew_busiest, self.skew_total) = (0, 0);
        self.heat_measuring = false;
        if let Some(audit) = self.audit.as_mut() {
            audit.clear();
        }
    }

    /// Applies `f` to the window counters, and to the run counters after warm-up.
    pub fn count(&mut self, now: Ns, f: impl Fn(&mut Counts)) {
        f(&mut self.window);
        if now >= self.warmup_end_ns {
            f(&mut self.run);
        }
    }

    /// A span of time `[start, now)` attributed to the window and the run by overlap:
    /// `f` receives the overlapping nanoseconds.
    #[inline]
    pub fn span(&mut self, start: Ns, now: Ns, f: impl Fn(&mut Counts, u64)) {
        if start >= self.window_start_ns && start >= self.warmup_end_ns {
            // The usual case (a service, a hold): wholly inside both.
            if now > start {
                f(&mut self.window, now - start);
                f(&mut self.run, now - start);
            }
            return;
        }
        let in_window = now.saturating_sub(start.max(self.window_start_ns));
        if in_window > 0 {
            f(&mut self.window, in_window);
        }
        let in_run = now.saturating_sub(start.max(self.warmup_end_ns));
        if in_run > 0 {
            f(&mut self.run, in_run);
        }
    }

    /// Station `station` finished a service of `cost` ns at `now`: allocator work
    /// (`alloc`) or not, on a data node's thread (`data_thread`; data-node threads are the
    /// first stations) or an API node's or the service's CPU.
    pub fn service(&mut self, station: usize, data_thread: bool, cost: Ns, alloc: bool, now: Ns) {
        self.span(now - cost, now, |c, ns| {
            c.station_busy_ns[station] += ns;
            if alloc {
                c.station_alloc_ns[station] += ns;
            }
        });
        if data_thread && now >= self.warmup_end_ns {
            self.thread_services[station] += 1;
            self.thread_cost_ns[station] += cost;
        }
    }

    /// A transaction of `kind` committed `latency` ns after it started.
    pub fn committed(&mut self, kind: TxnKind, latency: Ns, inserts: u64, now: Ns) {
        self.count(now, |c| {
            c.add_committed(kind, 1);
            c.inserts += inserts;
        });
        if kind.is_user() {
            self.window_latency.record(latency);
        }
        if now >= self.warmup_end_ns {
            self.latency[kind.index()].record(latency);
            if kind.is_user() {
                self.latency_all.record(latency);
            }
        }
    }

    /// An open arrival was offered: it `waited` for a client thread, or was `refused`.
    pub fn arrival(&mut self, now: Ns, waited: bool, refused: bool) {
        self.totals.arrivals += 1;
        self.count(now, |c| {
            c.arrivals += 1;
            c.arrivals_waited += waited as u64;
            c.arrivals_refused += refused as u64;
        });
    }

    /// An open arrival's transaction started after it waited `wait` ns.
    pub fn arrival_started(&mut self, wait: Ns, now: Ns) {
        if now >= self.warmup_end_ns {
            self.arrival_wait.record(wait);
        }
    }

    /// A range of ids reached its cache `latency` ns after it was asked for.
    pub fn coordinated(&mut self, latency: Ns, now: Ns) {
        self.count(now, |c| c.coordinations += 1);
        if now >= self.warmup_end_ns {
            self.coordination_latency.record(latency);
        }
    }

    /// A row of the inserted table was placed on partition `part`.
    pub fn inserted_into(&mut self, part: u32, now: Ns) {
        self.window_partition_inserts[part as usize] += 1;
        if now >= self.warmup_end_ns {
            self.partition_inserts[part as usize] += 1;
        }
    }

    /// The open window's busiest partition's inserts and all its inserts.
    fn window_skew(&self) -> (u64, u64) {
        let w = &self.window_partition_inserts;
        (w.iter().copied().max().unwrap_or(0), w.iter().sum())
    }

    /// The busiest partitions' inserts and all inserts, summed over the windows that
    /// started after warm-up, the open one included: insert skew is their ratio.
    pub fn skew_so_far(&self) -> (u64, u64) {
        if self.window_start_ns >= self.warmup_end_ns {
            let (b, t) = self.window_skew();
            (self.skew_busiest + b, self.skew_total + t)
        } else {
            (self.skew_busiest, self.skew_total)
        }
    }

    /// Closes the window ending at `now`. The caller first flushes spans still open (the
    /// hot row's hold and queue), so that a span crossing windows is split between them;
    /// `bound` finds the window's bottleneck from its counters, its busiest rows and its
    /// length.
    pub fn close_window(&mut self, now: Ns, bound: impl FnOnce(&Counts, &[RowLockTotals], Ns) -> crate::explain::WindowBound) {
        let span = Span::of_ns(now - self.window_start_ns);
        let hottest_rows = self.window_heat.top(now);
        let bound = bound(&self.window, &hottest_rows, now - self.window_start_ns);
        let w = &self.window;
        if self.window_start_ns >= self.warmup_end_ns {
            self.batches.push(batches::WindowPart {
                counts: w,
                rows: &hottest_rows,
                latency_sum_us: time::as_us(self.window_latency.sum() as f64),
                latency_count: self.window_latency.count(),
                bound_utilization: bound.utilization,
            });
        }
        let t = Throughput::of(w, span);
        let threads = (self.threads_per_node * self.data_cores) as f64;
        (self.skew_busiest, self.skew_total) = self.skew_so_far();
        let partition_inserts_per_second = self.window_partition_inserts.iter().map(|&n| span.per_second(n)).collect();
        self.window_partition_inserts.fill(0);
        let window = Window {
            partition_inserts_per_second,
            end_ms: time::as_ms(now),
            rates: t,
            latency_p50_us: time::as_us(self.window_latency.quantile(0.5) as f64),
            latency_p99_us: time::as_us(self.window_latency.quantile(0.99) as f64),
            latency_sum_us: time::as_us(self.window_latency.sum() as f64),
            latency_count: self.window_latency.count(),
            node_load: w.node_busy_ns(self.threads_per_node as usize).iter().map(|&b| (span.fraction(b) / threads).min(1.0)).collect(),
            node_tc_per_second: w.node_tc_txns.iter().map(|&n| span.per_second(n)).collect(),
            node_messages_per_second: w.node_messages.iter().map(|&n| span.per_second(n)).collect(),
            bound,
            hottest_rows,
        };
        self.window_heat.restart(now);
        if self.windows.len() == WINDOW_RING {
            self.windows.pop_front();
        }
        self.windows.push_back(window);
        self.windows_closed += 1;
        std::mem::swap(&mut self.window, &mut self.last_window);
        self.last_window_start_ns = self.window_start_ns;
        self.window.reset();
        self.window_latency.clear();
        self.window_start_ns = now;
    }

    pub fn window_ns(&self) -> Ns {
        self.window_ns
    }

    /// Bytes of the window ring (the part of the metrics that grows with a run).
    pub fn memory_bytes(&self) -> usize {
        self.windows
            .iter()
            .map(|w| {
                std::mem::size_of::<Window>()
                    + 8 * (w.node_load.capacity()
                        + w.node_tc_per_second.capacity()
                        + w.node_messages_per_second.capacity()
                        + w.partition_inserts_per_second.capacity())
                    + w.hottest_rows.capacity() * std::mem::size_of::<RowLockTotals>()
            })
            .sum::<usize>()
            + self.window_heat.memory_bytes()
            + self.heat.memory_bytes()
            + self.batches.memory_bytes()
            + Doorkeeper::memory_bytes()
    }
}

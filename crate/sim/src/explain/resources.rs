//! The resources of a span, from the counters: each one's busy time, blocked time and
//! allocator work, named in the user's words.

use super::{Kind, Resource};
use crate::config::{Config, IdCacheScope};
use crate::counts::Counts;
use crate::decimal::Shortest;
use crate::heat::RowLockTotals;
use crate::time;
use crate::topology::Topology;

/// The client population, for its bound N / (R0 + Z).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClientsIn {
    pub n: u32,
    /// Mean response time measured over the span, and at zero load (`probe.rs`).
    pub response_us: f64,
    pub zero_load_us: f64,
    /// Time lost per committed transaction waiting out lock-wait timeouts: a commit costs
    /// its client at least R0 + this (`deadlocks.rs`); said in their name when the
    /// explanation names the deadlocks (`lost_named`: one rule, `deadlocks::of`'s).
    pub lost_us: f64,
    pub lost_named: bool,
}

/// The client population as a resource: N, think time, zero-load response time and the
/// time lost per commit to lock-wait timeouts, in us, and its name without that loss.
#[derive(Clone, Debug)]
struct Population {
    n: f64,
    think_us: f64,
    r0_us: f64,
    lost_us: f64,
    plain_name: String,
}

/// What a span's resources are built from.
pub(crate) struct Inputs<'a> {
    pub cfg: &'a Config,
    pub topo: &'a Topology,
    pub counts: &'a Counts,
    /// The tracked rows over the span (`heat.rs`).
    pub rows: &'a [RowLockTotals],
    pub span_ns: u64,
    /// The SYSTAB_0 counter row and the data node of its primary.
    pub counter_row: u64,
    pub counter_row_node: u32,
    /// None: the clients are not listed (a window: the zero-load probe is the summary's).
    pub clients: Option<ClientsIn>,
}

/// An id for a resource that is neither a station nor a row: a tag above every row key
/// (whose table ids stay below 2^7) and a number.
pub(super) fn tagged(tag: u64, n: u64) -> u64 {
    (0xF0 + tag) << 56 | n
}

/// One resource's counters over a span.
#[derive(Clone, Debug)]
pub struct Load {
    /// Which resource it is, across spans: a station's index, a row's key, or a kind's
    /// tag with an API node (`id_of`).
    pub id: u64,
    pub name: String,
    pub kind: Kind,
    pub node: Option<u32>,
    pub servers: u32,
    span_ns: u64,
    /// Summed over its servers.
    pub(super) busy_ns: f64,
    pub(super) blocked_ns: f64,
    pub(super) queued_ns: f64,
    pub(super) alloc_ns: f64,
    /// Threads of one role pool together (`pooled`): the node's one thread, LDM, TC, API.
    pub(super) role: u8,
    pub(super) grants: u64,
    /// A row's lock requests over the span (its demand): more than its grants while a
    /// convoy's queue at it grows.
    pub(super) requests: u64,
    /// The clients.
    clients: Option<Population>,
    /// Open arrivals: user transactions offered per second.
    offered: Option<f64>,
}

impl Load {
    pub(super) fn new(id: u64, name: String, kind: Kind, node: Option<u32>, servers: u32, span_ns: u64, busy_ns: u64) -> Load {
        Load {
            id,
            name,
            kind,
            node,
            servers,
            span_ns,
            busy_ns: busy_ns as f64,
            blocked_ns: 0.0,
            queued_ns: 0.0,
            alloc_ns: 0.0,
            requests: 0,
            role: 0,
            grants: 0,
            clients: None,
            offered: None,
        }
    }

    /// Busy time over the span, per server, 0..=1.
    pub fn utilization(&self) -> f64 {
        if self.span_ns == 0 || self.servers == 0 {
            return 0.0;
        }
        (self.busy_ns / (self.span_ns as f64 * self.servers as f64)).clamp(0.0, 1.0)
    }

    /// Whether it takes part: a resource that was busy, or the clients (never busy
    /// themselves, they bound by N / (R0 + Z)).
    pub(crate) fn in_use(&self) -> bool {
        self.utilization() > 0.0 || self.clients.is_some() || self.offered.is_some()
    }

    /// The most user transactions per second it lets through, at throughput `x` now:
    /// servers / demand = x / utilization. For the clients, N / (R0 + Z), and never
    /// below `x` (R0 is capped at the measured response time).
    pub fn bound(&self, x: f64) -> f64 {
        if let Some(p) = &self.clients {
            return (p.n / ((p.r0_us + p.think_us + p.lost_us) * 1e-6)).max(x);
        }
        if let Some(offered) = self.offered {
            return offered.max(x);
        }
        let u = self.utilization();
        if u > 0.0 {
            x / u
        } else {
            f64::INFINITY
        }
    }

    /// A lock whose holders waited for other locks or ids for at least half its busy
    /// time, or for those and busy threads together while a thread binds as tightly
    /// (`thread_bound` within 3% of its own): a convoy's victim, not its root.
    pub(crate) fn victim(&self, x: f64, thread_bound: f64) -> bool {
        if !self.kind.is_lock() || self.busy_ns <= 0.0 {
            return false;
        }
        let waits = self.blocked_ns + self.queued_ns;
        self.blocked_ns * 2.0 >= self.busy_ns || (waits * 2.0 >= self.busy_ns && thread_bound <= self.bound(x) * 1.03)
    }

    /// Whether it is a thread (or a pool of cores).
    pub(crate) fn is_thread(&self) -> bool {
        matches!(self.kind, Kind::Thread | Kind::ApiCpu | Kind::Service)
    }

    /// The same without the allocator's work (a relieved allocator).
    pub(crate) fn without_allocator_work(&self) -> Load {
        Load { busy_ns: self.busy_ns - self.alloc_ns, alloc_ns: 0.0, ..self.clone() }
    }

    /// A lock's own work only: its holders' waits for other locks and ids are gone, and
    /// every request is granted. A row's own hold per grant, times its requests: in a
    /// convoy the rows whose holders wait elsewhere are granted less than they are asked
    /// for while their queues grow (for seconds after the start), and relieved they would
    /// serve what is asked, so the next ceiling does not drift with the warm-up. The
    /// clients' own: without the time they lost to lock-wait timeouts.
    pub(crate) fn own_work_only(&self) -> Load {
        if self.clients.is_some() {
            return self.without_timeouts(); // Their lost time was waits for locks too.
        }
        let own = self.busy_ns - self.blocked_ns;
        let demand = if self.grants > 0 && self.requests > self.grants { self.requests as f64 / self.grants as f64 } else { 1.0 };
        Load { busy_ns: own * demand, blocked_ns: 0.0, queued_ns: self.queued_ns * demand, ..self.clone() }
    }

    /// Threads of one role as one pool (the balanced bound: a relieved convoy moves
    /// where the work lands, not how much there is); every other load as it is.
    pub(crate) fn pooled(loads: Vec<Load>) -> Vec<Load> {
        let (threads, mut rest): (Vec<Load>, Vec<Load>) = loads.into_iter().partition(|l| matches!(l.kind, Kind::Thread | Kind::ApiCpu));
        for role in 0..4u8 {
            let pool: Vec<&Load> = threads.iter().filter(|l| l.role == role).collect();
            let Some(first) = pool.first() else { continue };
            if pool.len() == 1 {
                rest.push((*first).clone()); // A pool of one is itself, by its own name.
                continue;
            }
            let what = ["data-node threads", "LDM threads", "TC threads", "API nodes' CPUs"][role as usize];
            let mut p =
                Load::new(tagged(5, role as u64), format!("the {} {what}, pooled", pool.len()), first.kind, None, 0, first.span_ns, 0);
            p.role = role;
            for l in &pool {
                p.servers += l.servers;
                p.busy_ns += l.busy_ns;
                p.alloc_ns += l.alloc_ns;
            }
            rest.push(p);
        }
        rest
    }

    /// The clients with another zero-load response time.
    pub(crate) fn with_zero_load(&self, r0_us: f64) -> Load {
        let p = self.clients.clone().expect("the clients");
        Load { clients: Some(Population { r0_us, ..p }), ..self.clone() }
    }

    /// The time its clients lost per commit to lock-wait timeouts, in us (0: none, or not
    /// the clients).
    pub(crate) fn lost_us(&self) -> f64 {
        self.clients.as_ref().map_or(0.0, |p| p.lost_us)
    }

    /// The clients without the time lost to lock-wait timeouts.
    pub(crate) fn without_timeouts(&self) -> Load {
        let p = self.clients.clone().expect("the clients");
        Load { name: p.plain_name.clone(), clients: Some(Population { lost_us: 0.0, ..p }), ..self.clone() }
    }

    /// Its utilization as reports give it: for the clients, the throughput over their bound.
    pub(crate) fn reported_utilization(&self, x: f64) -> f64 {
        if self.clients.is_some() || self.offered.is_some() {
            (x / self.bound(x)).min(1.0)
        } else {
            self.utilization()
        }
    }

    pub fn report(&self, x: f64) -> Resource {
        let bound = self.bound(x);
        let (u, secs) = (self.reported_utilization(x), time::as_secs(self.span_ns));
        let lock = self.kind.is_lock() && self.grants > 0;
        let hold_us = time::as_us(self.busy_ns / self.grants.max(1) as f64);
        let share = |ns: f64| if self.busy_ns > 0.0 { (ns / self.busy_ns).clamp(0.0, 1.0) } else { 0.0 };
        Resource {
            id: self.id,
            name: self.name.clone(),
            kind: self.kind,
            node: self.node,
            servers: self.servers,
            utilization: u,
            blocked_fraction: share(self.blocked_ns),
            queued_fraction: share(self.queued_ns),
            allocator_fraction: share(self.alloc_ns),
            demand_us: if bound.is_finite() && bound > 0.0 { time::secs_as_us(self.servers as f64 / bound) } else { 0.0 },
            bound_transactions_per_second: if bound.is_finite() { bound } else { 0.0 },
            grants_per_second: lock.then(|| self.grants as f64 / secs.max(1e-12)),
            hold_mean_us: lock.then_some(hold_us),
            old_hold_us_mean: lock.then_some(hold_us),
            ceiling_grants_per_second: lock.then(|| time::per_second_of_us(hold_us.max(1e-12))),
        }
    }
}

impl Inputs<'_> {
    /// User transactions committed per second over the span.
    pub fn x(&self) -> f64 {
        let secs = time::as_secs(self.span_ns);
        if secs > 0.0 {
            self.counts.user_txns() as f64 / secs
        } else {
            0.0
        }
    }

    /// Every resource of the span.
    #[inline(never)] // One copy for the run and its batches (the main WebAssembly module's size).
    pub fn loads(&self) -> Vec<Load> {
        let mut loads = self.stations();
        loads.extend(self.locks());
        loads.extend(self.allocator());
        if let Some(c) = self.clients {
            let z = self.cfg.think_time_us as f64;
            let r0 = if c.response_us > 0.0 { c.zero_load_us.min(c.response_us) } else { c.zero_load_us };
            let rate = self.cfg.arrival_rate_per_api_node;
            let plain_name = if rate > 0 {
                format!("{} client threads taking requests as they come", c.n)
            } else {
                format!("{} client{} thinking {} us", c.n, if c.n == 1 { "" } else { "s" }, self.cfg.think_time_us)
            };
            let name = if c.lost_named {
                format!("{plain_name}, each commit costing {} waited out in aborted lock waits", crate::format::seconds(c.lost_us))
            } else {
                plain_name.clone()
            };
            let mut l = Load::new(tagged(4, 0), name, Kind::Clients, None, 1, self.span_ns, 0);
            l.clients = Some(Population { n: c.n as f64, think_us: z, r0_us: r0, lost_us: c.lost_us, plain_name });
            loads.push(l);
        }
        // The offered load needs no probe: windows list it too.
        if self.cfg.arrival_rate_per_api_node > 0 && self.counts.arrivals > 0 {
            // Named from what was measured over the span (the rate may have changed live).
            let offered = crate::rates::Span::of_ns(self.span_ns).per_second(self.counts.arrivals);
            let per_api = offered / self.cfg.api_nodes as f64;
            let name = format!("the offered load: {} requests/s ({} per API node)", Shortest(offered.round()), Shortest(per_api.round()));
            let mut l = Load::new(tagged(4, 1), name, Kind::Offered, None, 1, self.span_ns, 0);
            l.offered = Some(offered);
            loads.push(l);
        }
        loads
    }

    fn allocator(&self) -> Vec<Load> {
        let (cfg, c) = (self.cfg, self.counts);
        let mut loads = Vec::new();
        let mutexes = cfg.id_cache_scope == IdCacheScope::ApiNode && cfg.allocator.traits().cache;
        for a in 0..cfg.api_nodes as usize {
            if mutexes {
                let name = format!("the id-cache mutex of API node {a}");
                let mut l = Load::new(tagged(2, a as u64), name, Kind::IdCache, Some(a as u32), 1, self.span_ns, c.mutex_busy_ns[a]);
                l.blocked_ns = (c.mutex_blocked_ns[a] as f64).min(l.busy_ns);
                l.queued_ns = (c.mutex_queued_ns[a] as f64).min(l.busy_ns - l.blocked_ns);
                loads.push(l);
            }
            if cfg.allocator.traits().tick {
                let per_tick = 1u64 << cfg.timestamp_sequence_bits;
                let ticks = self.span_ns as f64 / time::from_us(cfg.timestamp_tick_us) as f64;
                let used = c.stamp_ids[a] as f64 / (per_tick as f64 * ticks.max(1e-12));
                let name = format!("the timestamp sequence of API node {a} ({per_tick} ids per {} us tick)", cfg.timestamp_tick_us);
                loads.push(Load::new(
                    tagged(3, a as u64),
                    name,
                    Kind::Timestamp,
                    Some(a as u32),
                    1,
                    self.span_ns,
                    (used * self.span_ns as f64) as u64,
                ));
            }
        }
        loads
    }
}
